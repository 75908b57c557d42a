package emulator

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

var pdfcpuOnce sync.Once

// upload is the file of an upload call: the file part, or else the
// document fetched from fileUrl.
type upload struct {
	f    *os.File
	name string
	own  bool // a fetched file this call must remove
}

func (u *upload) close() {
	if u != nil && u.own {
		u.f.Close()
		os.Remove(u.f.Name())
	}
}

// fetchClient fetches fileUrl documents; the emulator runs on loopback, so
// in practice these are loopback servers too.
var fetchClient = &http.Client{Timeout: 60 * time.Second}

// uploadFile applies the checks every upload shares, in order: more than
// one file part 36, file over the size limit 34, then fileUrl (used only
// when no file part came) fetched with the same limit.
func (c *call) uploadFile() (*upload, *reply) {
	q := c.q
	if q.fileParts > 1 {
		r := fail(codeMultipleFiles)
		return nil, &r
	}
	if q.tooLarge {
		r := fail(codeFileTooLarge)
		return nil, &r
	}
	if q.file != nil {
		return &upload{f: q.file, name: q.fileName}, nil
	}
	return c.fetch(q.get("fileUrl"))
}

func (c *call) fetch(raw string) (*upload, *reply) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		r := invalid("fileUrl must be an http or https URL", "fileUrl: not an http or https URL")
		return nil, &r
	}
	ctx, cancel := context.WithTimeout(c.ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		r := invalid("fileUrl could not be fetched", "fileUrl: "+err.Error())
		return nil, &r
	}
	resp, err := fetchClient.Do(req)
	if err != nil {
		r := invalid("fileUrl could not be fetched", "fileUrl: "+err.Error())
		return nil, &r
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		r := invalid("fileUrl could not be fetched", fmt.Sprintf("fileUrl: the server answered HTTP %d", resp.StatusCode))
		return nil, &r
	}
	limit := c.e.maxUploadBytes()
	if resp.ContentLength > limit {
		r := fail(codeFileTooLarge)
		return nil, &r
	}
	f, err := os.CreateTemp("", "flipbook-emulator-fetch-*")
	if err != nil {
		r := invalid("fileUrl could not be stored", "fileUrl: "+err.Error())
		return nil, &r
	}
	up := &upload{f: f, name: path.Base(u.Path), own: true}
	n, err := io.Copy(f, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		up.close()
		r := invalid("fileUrl could not be fetched", "fileUrl: "+err.Error())
		return nil, &r
	}
	if n > limit {
		up.close()
		r := fail(codeFileTooLarge)
		return nil, &r
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		up.close()
		r := invalid("fileUrl could not be stored", "fileUrl: "+err.Error())
		return nil, &r
	}
	return up, nil
}

// head reads the first bytes of a file for content sniffing.
func head(f *os.File, n int) []byte {
	b := make([]byte, n)
	m, _ := f.ReadAt(b, 0)
	return b[:m]
}

// imageKind recognises the logo formats accepted (PNG, JPEG, GIF, WebP,
// SVG) by their content, never by name; "" for anything else.
func imageKind(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "jpg"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 12 && bytes.HasPrefix(b, []byte("RIFF")) && string(b[8:12]) == "WEBP":
		return "webp"
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if (bytes.HasPrefix(t, []byte("<?xml")) || bytes.HasPrefix(t, []byte("<svg")) || bytes.HasPrefix(t, []byte("<!--"))) &&
		bytes.Contains(b, []byte("<svg")) {
		return "svg"
	}
	return ""
}

// setLogo stores a logo image. Logos share the upload size limit; logoUrl,
// when sent, is recorded (getCollection never shows it: the spec marks it
// deprecated there).
func (c *call) setLogo() reply {
	e, q := c.e, c.q
	if _, code := e.store.CollectionOf(c.key(), q.get("collectionHash")); code != 0 {
		return fail(code)
	}
	up, bad := c.uploadFile()
	if bad != nil {
		return *bad
	}
	defer up.close()
	kind := imageKind(head(up.f, 1024))
	if kind == "" {
		return reply{code: codeInvalidFileFormat, data: obj{{"message", "The logo must be a PNG, JPEG, GIF, WebP or SVG image"}}}
	}
	now := e.now()
	var logoURL *string
	if q.has("logoUrl") {
		u := q.get("logoUrl")
		logoURL = &u
	}
	col, code := e.store.SetLogo(c.key(), q.get("collectionHash"), "logo-"+store.NewHash()+"."+kind, logoURL)
	if code != 0 {
		return fail(code)
	}
	return ok(e.renderCollection(&col, now, c.base))
}

// pdfInfo is what flipbook.add reads from a PDF: its pages and the title
// and subject of its document information, "" where it has none.
type pdfInfo struct {
	pages          int
	title, subject string
}

// readPDF reads a PDF with pdfcpu; an unreadable PDF is an invalid file
// (45).
func readPDF(f *os.File) (pdfInfo, error) {
	pdfcpuOnce.Do(api.DisableConfigDir)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return pdfInfo{}, err
	}
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadAndValidate(f, conf)
	if err != nil {
		return pdfInfo{}, fmt.Errorf("page count: %w", err)
	}
	if ctx.PageCount < 1 {
		return pdfInfo{}, errors.New("the document has no pages")
	}
	return pdfInfo{pages: ctx.PageCount, title: strings.TrimSpace(ctx.Title), subject: strings.TrimSpace(ctx.Subject)}, nil
}

// addFlipbook checks, in order: collection 46/43, monthly quota 33, file
// count 36, size 34, PDF by content 45, pages 35; then appends an item that
// converts for the conversion delay.
func (c *call) addFlipbook() reply {
	e, q := c.e, c.q
	a := c.acct
	if code := e.store.CheckUpload(a, q.get("collectionHash"), e.now()); code != 0 {
		return fail(code)
	}
	up, bad := c.uploadFile()
	if bad != nil {
		return *bad
	}
	defer up.close()
	if !bytes.HasPrefix(head(up.f, 5), []byte("%PDF-")) {
		return reply{code: codeInvalidFileFormat, data: obj{{"message", "Only PDF documents can be added"}}}
	}
	info, err := readPDF(up.f)
	pages := info.pages
	if err != nil {
		return reply{code: codeInvalidFileFormat, data: obj{{"message", "The PDF document could not be read: " + err.Error()}}}
	}
	if pages > e.maxPages() {
		return reply{code: codeTooManyPages, data: obj{{"message", fmt.Sprintf("The document has %d pages; at most %d are allowed", pages, e.maxPages())}}}
	}
	name := fileBase(up.name)
	if name == "" {
		name = "document"
	}
	// title: "default extracted from the document"; description: "default
	// filled from the document". The PDF's document information gives
	// both where it has them (Title, Subject); the file name stands in
	// otherwise (README, "Where the spec is silent").
	title, desc := q.get("title"), q.get("description")
	if title == "" {
		title = cmp.Or(info.title, name)
	}
	if desc == "" {
		desc = cmp.Or(info.subject, "Converted from "+name+".pdf")
	}
	now := e.now().UTC()
	convDelay := e.w().convDelay
	it := &store.Item{Hash: store.NewHash(), Title: title, Description: desc, PageCount: pages, Extension: "pdf", ReadyAt: now.Add(convDelay),
		Failed: c.failConv}
	col, code := e.store.AddDocument(a, q.get("collectionHash"), now, it)
	if code != 0 {
		return fail(code)
	}
	status := "PROCESSING"
	if convDelay == 0 {
		status = col.ConvertStatus(col.Item(it.Hash), now)
	}
	return ok(obj{
		{"flipbookHash", it.Hash},
		{"flipbookTitle", it.Title},
		{"flipbookDescription", it.Description},
		{"flipbookPageCount", e.scalar(pages)},
		{"extension", it.Extension},
		{"convertStatus", status},
	})
}
