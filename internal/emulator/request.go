package emulator

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// maxFieldBytes bounds one ordinary form field of a multipart body (the
// sections or permissions JSON are far smaller).
const maxFieldBytes = 1 << 20

// defaultDrainBytes bounds how much of an oversized upload (or of a second
// file) is read and thrown away so that the client, still sending, can read
// the answer.
const defaultDrainBytes = 1 << 30

// apiRequest is a parsed API call: its parameters (first value of each key,
// query and body merged) and at most one uploaded file, kept in a temporary
// file.
type apiRequest struct {
	method    string
	params    map[string]string
	malformed string // why the body could not be read, if it could not

	file      *os.File // the first file part, nil when none
	fileName  string
	fileParts int
	tooLarge  bool // a file part went past the size limit
	// abandoned: a file went on past the drain bound, so the rest of the
	// body (and any field after the file) was never read.
	abandoned bool
}

func (q *apiRequest) get(k string) string { return q.params[k] }

func (q *apiRequest) has(k string) bool {
	_, ok := q.params[k]
	return ok
}

// close removes the temporary file.
func (q *apiRequest) close() {
	if q.file != nil {
		q.file.Close()
		os.Remove(q.file.Name()) //nolint:gosec // G703: the name comes from our own os.CreateTemp, not from the request
	}
}

// readRequest reads the parameters of a call. A multipart body is read as a
// stream: each file part is copied to a temporary file and never held in
// memory, and copying stops at limit bytes (the rest is drained, up to
// drain bytes, so that the answer can still be read by the sender; past
// that the body is abandoned and the call answered 34 at once).
func readRequest(r *http.Request, limit, drain int64) *apiRequest {
	q := &apiRequest{method: r.Method, params: map[string]string{}}
	query, err := parseForm(r.URL.RawQuery)
	if err != nil {
		// "malformed request or URL" is code 40: a broken pair is not
		// dropped and the call answered as if it had not been sent.
		q.malformed = "query string is not valid: " + err.Error()
		return q
	}
	addValues(q.params, query)
	if r.Method != http.MethodPost {
		return q
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/x-www-form-urlencoded":
		b, err := io.ReadAll(io.LimitReader(r.Body, 10<<20+1))
		if err != nil {
			q.malformed = "request body could not be read"
			return q
		}
		if len(b) > 10<<20 {
			q.malformed = "form body too large"
			return q
		}
		vals, err := parseForm(string(b))
		if err != nil {
			q.malformed = "form body is not valid application/x-www-form-urlencoded"
			return q
		}
		body := map[string]string{}
		addValues(body, vals)
		for k, v := range body {
			q.params[k] = v
		}
	case "multipart/form-data":
		if err := q.readMultipart(r, limit, drain); err != nil {
			q.malformed = err.Error()
		}
	case "":
		// A POST without a body type carries its parameters in the query.
	default:
		q.malformed = "unsupported Content-Type " + ct
	}
	return q
}

// parseForm decodes a query string or urlencoded body: pairs split on "&",
// each key and value percent-decoded with "+" as a space. A bad escape is
// an error. A ";" is an ordinary character (RFC 3986 lets it stand in a
// query; Go's url.ParseQuery refuses it, which no rule of the spec does).
func parseForm(raw string) (url.Values, error) {
	vals := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, err
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, err
		}
		vals[key] = append(vals[key], val)
	}
	return vals, nil
}

func addValues(dst map[string]string, vals url.Values) {
	for k, vs := range vals {
		if _, ok := dst[k]; !ok && len(vs) > 0 {
			dst[k] = vs[0]
		}
	}
}

func (q *apiRequest) readMultipart(r *http.Request, limit, drain int64) error {
	mr, err := r.MultipartReader()
	if err != nil {
		return errors.New("multipart body could not be read: " + err.Error())
	}
	body := map[string]string{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errors.New("multipart body could not be read: " + err.Error())
		}
		name := part.FormName()
		if part.FileName() != "" || name == "file" {
			q.fileParts++
			// "neither `file` nor `fileUrl`" is code 30: only the part
			// named file is the document; a file under another name
			// (document, logo) still counts as a file for code 36.
			if name != "file" || q.file != nil {
				// Only the count of further files matters (code 36).
				n, err := io.Copy(io.Discard, io.LimitReader(part, drain+1))
				if err != nil {
					return errors.New("multipart body could not be read: " + err.Error())
				}
				if q.abandoned = n > drain; q.abandoned {
					break
				}
				continue
			}
			if err := q.saveFile(part, limit, drain); err != nil {
				return err
			}
			if q.abandoned {
				break
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil {
			return errors.New("multipart body could not be read: " + err.Error())
		}
		if len(b) > maxFieldBytes {
			return errors.New("form field " + name + " is too large")
		}
		if _, ok := body[name]; !ok {
			body[name] = string(b)
		}
	}
	for k, v := range body {
		q.params[k] = v
	}
	return nil
}

func (q *apiRequest) saveFile(part io.Reader, limit, drain int64) error {
	f, err := os.CreateTemp("", "flipbook-emulator-upload-*")
	if err != nil {
		return errors.New("upload could not be stored: " + err.Error())
	}
	q.file = f
	if fp, ok := part.(interface{ FileName() string }); ok {
		q.fileName = fp.FileName()
	}
	n, err := io.Copy(f, io.LimitReader(part, limit+1))
	if err != nil {
		return errors.New("upload could not be read: " + err.Error())
	}
	if n > limit {
		q.tooLarge = true
		// The stored prefix is useless; drop it now rather than at close.
		if err := f.Truncate(0); err != nil {
			return errors.New("upload could not be stored: " + err.Error())
		}
		n, err := io.Copy(io.Discard, io.LimitReader(part, drain+1))
		if err != nil {
			return errors.New("upload could not be read: " + err.Error())
		}
		q.abandoned = n > drain
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// fileBase is the uploaded file's name without directories or extension.
func fileBase(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}
