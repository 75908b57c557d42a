package apiclient

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// errBodyAbandoned stops a multipart writer whose request is over.
var errBodyAbandoned = errors.New("apiclient: request finished before the upload body was fully sent")

// multipartBody is a request body that writes form fields and one file part
// through an io.Pipe as the transport reads it, so a 100 MB file is never
// held in memory. The writer goroutine starts on the first Read: a request
// that fails before sending (a refused dial) leaves the Upload untouched
// and can be retried.
type multipartBody struct {
	pr     *io.PipeReader
	pw     *io.PipeWriter
	mw     *multipart.Writer
	fields map[string]string
	file   *Upload

	once     sync.Once
	started  atomic.Bool
	done     chan struct{}
	writeErr error // set before done closes
}

func newMultipartBody(fields map[string]string, file *Upload) *multipartBody {
	pr, pw := io.Pipe()
	return &multipartBody{
		pr:     pr,
		pw:     pw,
		mw:     multipart.NewWriter(pw),
		fields: fields,
		file:   file,
		done:   make(chan struct{}),
	}
}

// ContentType is the header value naming the boundary.
func (b *multipartBody) ContentType() string { return b.mw.FormDataContentType() }

func (b *multipartBody) Read(p []byte) (int, error) {
	b.once.Do(b.start)
	return b.pr.Read(p)
}

// Close is called by the transport when it is done with the body.
func (b *multipartBody) Close() error {
	return b.pr.CloseWithError(errBodyAbandoned)
}

// localFailure is the error of reading the Upload, if that is what ended
// the request; it is only meaningful after finish.
func (b *multipartBody) localFailure() error {
	if errors.Is(b.writeErr, io.ErrClosedPipe) || errors.Is(b.writeErr, errBodyAbandoned) {
		return nil
	}
	return b.writeErr
}

// fileTouched reports whether the Upload may have been read.
func (b *multipartBody) fileTouched() bool { return b.started.Load() && b.file != nil }

// finish stops the writer and waits for it, so the Upload's reader is no
// longer in use (it may be rewound for another attempt).
func (b *multipartBody) finish() {
	_ = b.pr.CloseWithError(errBodyAbandoned)
	b.once.Do(func() { close(b.done) }) // never started: nothing to wait for
	<-b.done
}

func (b *multipartBody) start() {
	b.started.Store(true)
	go func() {
		defer close(b.done)
		b.writeErr = b.write()
		b.pw.CloseWithError(b.writeErr)
	}()
}

func (b *multipartBody) write() error {
	keys := make([]string, 0, len(b.fields))
	for k := range b.fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := b.mw.WriteField(k, b.fields[k]); err != nil {
			return err
		}
	}
	if b.file != nil {
		part, err := b.mw.CreatePart(filePartHeader(b.file.Name))
		if err != nil {
			return err
		}
		n, err := io.Copy(part, b.file.Body)
		if err != nil {
			return fmt.Errorf("reading upload %q: %w", b.file.Name, err)
		}
		if b.file.Size > 0 && n != b.file.Size {
			return fmt.Errorf("upload %q: read %d bytes, expected %d", b.file.Name, n, b.file.Size)
		}
	}
	return b.mw.Close()
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

// filePartHeader names the part `file` with the upload's base name and a
// content type guessed from its extension.
func filePartHeader(name string) textproto.MIMEHeader {
	base := filepath.Base(name)
	if name == "" || base == "." || base == "/" {
		base = "upload"
	}
	ctype := mime.TypeByExtension(strings.ToLower(filepath.Ext(base)))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, quoteEscaper.Replace(base)))
	h.Set("Content-Type", ctype)
	return h
}
