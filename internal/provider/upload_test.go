package provider

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
)

// writeTestPDF writes a small, valid PDF of pages pages (each page shows its
// number, so two files with different page counts differ) and returns its
// path.
func writeTestPDF(t *testing.T, dir, name string, pages int) string {
	t.Helper()
	var buf bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, buf.Len())
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	// Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
	kids := make([]string, pages)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i := range pages {
		content := fmt.Sprintf("BT /F1 24 Tf 72 720 Td (Page %d) Tj ET", i+1)
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return writeTestFile(t, dir, name, buf.Bytes())
}

// writeTestPNG writes a w x h PNG filled with c.
func writeTestPNG(t *testing.T, dir, name string, w, h int, c color.Color) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return writeTestFile(t, dir, name, buf.Bytes())
}

func writeTestFile(t *testing.T, dir, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeSparseFile writes head and extends the file to size without writing
// the rest, so that a file over 100 MB costs no disk.
func writeSparseFile(t *testing.T, dir, name string, head []byte, size int64) string {
	t.Helper()
	p := writeTestFile(t, dir, name, head)
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestSniffContentType(t *testing.T) {
	cases := map[string]string{
		"%PDF-1.7\n":                     contentPDF,
		"\x89PNG\r\n\x1a\nrest":          contentPNG,
		"\xff\xd8\xff\xe0JFIF":           contentJPEG,
		"GIF89a..":                       contentGIF,
		"GIF87a..":                       contentGIF,
		"RIFF\x10\x00\x00\x00WEBPVP8 ":   contentWebP,
		"RIFF\x10\x00\x00\x00WAVEfmt ":   "",
		"<svg xmlns=\"x\"/>":             contentSVG,
		"\xEF\xBB\xBF <?xml?>\n<svg/>":   contentSVG,
		"<?xml version=\"1.0\"?><html/>": "",
		"%PD":                            "",
		"hello, this is plain text....":  "",
	}
	for head, want := range cases {
		if got := sniffContentType([]byte(head)); got != want {
			t.Errorf("sniffContentType(%q) = %q, want %q", head, got, want)
		}
	}
}

func TestInspectLocalFile(t *testing.T) {
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "doc.pdf", 3)
	logo := writeTestPNG(t, dir, "logo.png", 4, 4, color.RGBA{R: 200, A: 255})

	info, err := inspectLocalFile(pdf, documentFile)
	if err != nil {
		t.Fatalf("valid PDF refused: %v", err)
	}
	if info.ContentType != contentPDF || info.SHA256 != sha256Hex(t, pdf) {
		t.Errorf("PDF info = %+v, want PDF with sha %s", info, sha256Hex(t, pdf))
	}
	api.DisableConfigDir()
	if n, err := api.PageCount(mustOpen(t, pdf), nil); err != nil || n != 3 {
		t.Errorf("the test PDF writer is broken: pdfcpu counts %d pages (%v), want 3", n, err)
	}
	st, _ := os.Stat(pdf)
	if info.Size != st.Size() {
		t.Errorf("size = %d, want %d", info.Size, st.Size())
	}
	if info, err := inspectLocalFile(logo, logoFile); err != nil || info.ContentType != contentPNG || info.SHA256 != sha256Hex(t, logo) {
		t.Errorf("PNG logo: %+v, %v", info, err)
	}

	refusals := []struct {
		name, path string
		kind       fileKind
		summary    string
		detail     string
	}{
		{"missing", filepath.Join(dir, "nope.pdf"), documentFile, "File Not Found", "does not exist"},
		{"directory", dir, documentFile, "Not A Regular File", "directory"},
		{"png as document", logo, documentFile, "Unsupported File Type", "is PNG"},
		{"text as document", writeTestFile(t, dir, "a.pdf", []byte("not a pdf at all")), documentFile, "Unsupported File Type", "recognises"},
		{"empty", writeTestFile(t, dir, "empty.pdf", nil), documentFile, "Empty File", "is empty"},
		{"over 100 MB", writeSparseFile(t, dir, "big.pdf", []byte("%PDF-1.4\n"), 100<<20+1), documentFile, "File Too Large", "104857601 bytes"},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			_, err := inspectLocalFile(r.path, r.kind)
			var p *fileProblem
			if !errors.As(err, &p) {
				t.Fatalf("got %v, want a *fileProblem", err)
			}
			if p.Summary != r.summary || !strings.Contains(p.Detail, r.detail) {
				t.Errorf("got %q / %q, want %q containing %q", p.Summary, p.Detail, r.summary, r.detail)
			}
		})
	}

	// Spec, Limits: "Maximum size and allowed types for logo images: not
	// shown": a logo outside the guessed types or size is inspected and
	// hashed like any other, with doubts that the plan shows as warnings.
	doubts := []struct {
		name, path string
		summary    string
		detail     string
	}{
		{"pdf as logo", pdf, "File Type May Be Refused", "PNG, JPEG, GIF, WebP, SVG"},
		{"text as logo", writeTestFile(t, dir, "logo.txt", []byte("hello")), "File Type May Be Refused", "recognises"},
		{"empty logo", writeTestFile(t, dir, "empty.png", nil), "Empty File", "is empty"},
		{"logo over 100 MB", writeSparseFile(t, dir, "big.png", []byte("\x89PNG\r\n\x1a\n"), 100<<20+1), "File Too Large", "104857601 bytes"},
	}
	for _, d := range doubts {
		t.Run(d.name, func(t *testing.T) {
			info, err := inspectLocalFile(d.path, logoFile)
			if err != nil {
				t.Fatalf("a logo outside the guessed limits was refused: %v", err)
			}
			if info.SHA256 != sha256Hex(t, d.path) {
				t.Errorf("sha = %s, want %s", info.SHA256, sha256Hex(t, d.path))
			}
			if len(info.Doubts) != 1 {
				t.Fatalf("doubts = %+v, want one", info.Doubts)
			}
			if p := info.Doubts[0]; p.Summary != d.summary || !strings.Contains(p.Detail, d.detail) || !strings.Contains(p.Detail, "guess") {
				t.Errorf("got %q / %q, want %q containing %q and the word guess", p.Summary, p.Detail, d.summary, d.detail)
			}
		})
	}

	// Exactly at the limit is allowed.
	atLimit := writeSparseFile(t, dir, "limit.pdf", []byte("%PDF-1.4\n"), 100<<20)
	if _, err := inspectLocalFile(atLimit, documentFile); err != nil {
		t.Errorf("a file of exactly 100 MB was refused: %v", err)
	}
}

func TestOpenUploadStreamsAndVerifies(t *testing.T) {
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "doc.pdf", 2)
	want := sha256Hex(t, pdf)

	u, err := openUpload(pdf, documentFile, want)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if _, ok := u.Upload.Body.(*bytes.Reader); ok {
		t.Fatal("upload body is an in-memory buffer; it must stream from the file")
	}
	if u.Upload.Name != "doc.pdf" {
		t.Errorf("name = %q", u.Upload.Name)
	}
	sent, err := io.ReadAll(u.Upload.Body)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(sent)) != u.Upload.Size {
		t.Errorf("read %d bytes, Size says %d", len(sent), u.Upload.Size)
	}
	if u.SentSHA256() != want {
		t.Errorf("SentSHA256 = %s, want %s", u.SentSHA256(), want)
	}

	// A file that changed after the plan is refused before anything is sent.
	writeTestPDF(t, dir, "doc.pdf", 3)
	_, err = openUpload(pdf, documentFile, want)
	var p *fileProblem
	if !errors.As(err, &p) || p.Summary != "File Changed Since Plan" || !strings.Contains(p.Detail, want) {
		t.Fatalf("got %v, want File Changed Since Plan naming the planned hash", err)
	}
}

// The upload body rewinds, as the API client does before re-sending a
// throttled upload, and the hash then covers only the bytes sent again.
func TestOpenUploadRewinds(t *testing.T) {
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 3)
	want := sha256Hex(t, pdf)
	u, err := openUpload(pdf, documentFile, want)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	s, ok := u.Upload.Body.(io.ReadSeeker)
	if !ok {
		t.Fatalf("upload body %T cannot seek: a throttled upload could not be sent again", u.Upload.Body)
	}
	if pos, err := s.Seek(0, io.SeekCurrent); pos != 0 || err != nil {
		t.Fatalf("Seek(0, SeekCurrent) = %d, %v before reading", pos, err)
	}
	if _, err := io.CopyN(io.Discard, s, 100); err != nil {
		t.Fatal(err)
	}
	if pos, err := s.Seek(0, io.SeekCurrent); pos != 100 || err != nil {
		t.Fatalf("Seek(0, SeekCurrent) = %d, %v after 100 bytes", pos, err)
	}
	if _, err := s.Seek(10, io.SeekStart); err == nil {
		t.Error("seeking into the middle was accepted: the hash could not follow it")
	}
	if pos, err := s.Seek(0, io.SeekStart); pos != 0 || err != nil {
		t.Fatalf("rewind = %d, %v", pos, err)
	}
	sent, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(sent)) != u.Upload.Size {
		t.Errorf("after rewinding read %d bytes, want the whole %d", len(sent), u.Upload.Size)
	}
	if u.SentSHA256() != want {
		t.Errorf("SentSHA256 = %s after a rewind, want the file's %s", u.SentSHA256(), want)
	}
}
