package apiclient

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

const redacted = "***"

// credentialParam matches apiKey and signature parameters in query strings,
// form bodies and JSON-ish text, in plain or percent-encoded form.
var credentialParam = regexp.MustCompile(`(?i)((?:apiKey|signature)(?:=|%3D|"\s*:\s*"|\\"\s*:\s*\\"))[^&\s"'\\<>]*`)

// packageLink matches the value of a resourceUrl, the offline HTML
// package's link (spec: "valid one minute"): whoever holds it downloads the
// collection, so it is as secret as a credential while it lives. It covers
// JSON (plain or escaped), XML and parameter forms, to the end of the URL.
var packageLink = regexp.MustCompile(`(?i)(resourceUrl(?:=|%3D|"\s*:\s*"|\\"\s*:\s*\\"|>))[^\s"'\\<>]+`)

// redactor scrubs the credentials of one request from text headed for logs
// and error messages: the secret, the apiKey, this request's signature,
// anything shaped like an apiKey= or signature= parameter, and package links.
type redactor struct {
	literals []string
}

// minLiteral keeps very short values (a one-letter test key) from being
// replaced everywhere in a message; the parameter pattern still hides them.
const minLiteral = 4

func newRedactor(values ...string) *redactor {
	r := &redactor{}
	for _, v := range values {
		if len(v) < minLiteral {
			continue
		}
		r.literals = append(r.literals, v)
		if esc := url.QueryEscape(v); esc != v {
			r.literals = append(r.literals, esc)
		}
	}
	return r
}

func (r *redactor) redact(s string) string {
	s = credentialParam.ReplaceAllString(s, "${1}"+redacted)
	s = packageLink.ReplaceAllString(s, "${1}"+redacted)
	if r == nil {
		return s
	}
	for _, lit := range r.literals {
		s = strings.ReplaceAll(s, lit, redacted)
	}
	return s
}

// redactURL returns u as text with apiKey and signature values replaced.
func (r *redactor) redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		for _, k := range []string{"apiKey", "signature"} {
			if q.Has(k) {
				q.Set(k, redacted)
			}
		}
		c.RawQuery = q.Encode()
	}
	return r.redact(c.String())
}

// redactError rebuilds the parts of a transport error that quote the
// request URL, and wraps the rest so its text is scrubbed while errors.Is
// and errors.As still reach the cause.
func (r *redactor) redactError(err error) error {
	if err == nil {
		return nil
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		clean := &url.Error{Op: ue.Op, URL: ue.URL, Err: ue.Err}
		if u, perr := url.Parse(ue.URL); perr == nil {
			clean.URL = r.redactURL(u)
		} else {
			clean.URL = r.redact(ue.URL)
		}
		err = clean
	}
	return &redactedError{err: err, text: r.redact(err.Error())}
}

type redactedError struct {
	err  error
	text string
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
