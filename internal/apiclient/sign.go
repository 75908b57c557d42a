package apiclient

import (
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"
)

// paramSignature is the parameter that carries the signature; it is the one
// parameter left out of the signed string.
const paramSignature = "signature"

// CanonicalString is the text the API signs, without the secret: every
// parameter except `signature`, sorted by key (byte order, which is
// alphabetical for the API's ASCII keys), written key, value, key, value
// with no separators. Values are the decoded strings as sent.
func CanonicalString(params map[string]string) string {
	keys := make([]string, 0, len(params))
	n := 0
	for k, v := range params {
		if k == paramSignature {
			continue
		}
		keys = append(keys, k)
		n += len(k) + len(v)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.Grow(n)
	for _, k := range keys {
		b.WriteString(k)
		b.WriteString(params[k])
	}
	return b.String()
}

// Sign returns the request signature: the lowercase hex MD5 of the secret
// followed by CanonicalString(params). The emulator and tests may use it;
// the client signs every request with it.
func Sign(secret string, params map[string]string) string {
	h := md5.New() // the API defines its signature as MD5
	h.Write([]byte(secret))
	h.Write([]byte(CanonicalString(params)))
	return hex.EncodeToString(h.Sum(nil))
}
