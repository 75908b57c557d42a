package emulator

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Places where an emulator kinder than the spec would let a client pass
// here and fail against the service. Each test quotes the spec's words.

// namedUpload is a signed flipbook.add whose one file part has the given
// form name.
func namedUpload(t *testing.T, c *testClient, partName, fileName string, body []byte, extra map[string]string) envelope {
	t.Helper()
	p := get("flipbook.add", "pub-private-1")
	for k, v := range extra {
		p[k] = v
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range c.signed(p) {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	w, err := mw.CreateFormFile(partName, fileName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, c.srv.UploadURL, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.do(req)
}

// Spec, Errors: code 30 when "neither `file` nor `fileUrl`" is sent;
// flipbook.add: "`file` or `fileUrl` ..., at least one required". A file
// part under another name is not the file.
func TestConformanceFilePartNamedFile(t *testing.T) {
	_, c := startTest(t, nil)
	for _, name := range []string{"document", "logo", "File"} {
		t.Run(name, func(t *testing.T) {
			env := namedUpload(t, c.with(t), name, "manual.pdf", minimalPDF(1), nil)
			wantCode(t, env, 30, "Missing mandatory parameter")
		})
	}
	// The same bytes under the name the spec gives are accepted.
	wantCode(t, namedUpload(t, c, "file", "manual.pdf", minimalPDF(1), nil), 20, "OK")
}

// Spec, Errors: code 40 covers a "malformed request or URL". A broken
// percent-escape in a GET's query is not dropped and answered 20.
func TestConformanceMalformedQuery(t *testing.T) {
	_, c := startTest(t, nil)
	for _, tail := range []string{"&x=%ZZ", "&%G1=1", "&title=50%"} {
		t.Run(tail, func(t *testing.T) {
			req := c.request(http.MethodGet, c.srv.BaseURL, c.signed(get("collection.getCollection", "pub-private-1")))
			req.URL.RawQuery += tail
			env := c.with(t).do(req)
			wantCode(t, env, 40, "Bad Request")
			if len(env.errors()) == 0 {
				t.Fatalf("no data.errors naming the problem: %s", env.Data)
			}
		})
	}
	// The same call without the broken pair, and one with a ";" (a legal
	// query character the spec says nothing against), are answered.
	req := c.request(http.MethodGet, c.srv.BaseURL, c.signed(get("collection.getCollection", "pub-private-1")))
	wantCode(t, c.do(req), 20, "OK")
	p := get("collection.getCollection", "pub-private-1")
	p["x"] = "a;b"
	req = c.request(http.MethodGet, c.srv.BaseURL, c.signed(p))
	req.URL.RawQuery = strings.Replace(req.URL.RawQuery, "a%3Bb", "a;b", 1)
	if !strings.Contains(req.URL.RawQuery, "x=a;b") {
		t.Fatalf("query %q", req.URL.RawQuery)
	}
	wantCode(t, c.do(req), 20, "OK")
}

// pdfWithInfo is minimalPDF(n) with a document information dictionary;
// empty strings are left out of it.
func pdfWithInfo(n int, title, subject string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, n)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", i+3)
	}
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	for range n {
		obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
	}
	info := "<< /Producer (test)"
	if title != "" {
		info += " /Title (" + title + ")"
	}
	if subject != "" {
		info += " /Subject (" + subject + ")"
	}
	obj(info + " >>")
	infoRef := len(offsets)
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, infoRef, xref)
	return b.Bytes()
}

// Spec, flipbook.add: "`title` (string, default extracted from the
// document); `description` (string, default filled from the document)".
// A PDF's document information Title and Subject are that default.
func TestConformanceAddTitleFromDocument(t *testing.T) {
	_, c := startTest(t, nil)
	add := func(t *testing.T, pdf []byte, extra map[string]string) map[string]any {
		t.Helper()
		env := namedUpload(t, c.with(t), "file", "scan-0042.pdf", pdf, extra)
		wantCode(t, env, 20, "OK")
		var fb map[string]any
		env.into(t, &fb)
		return fb
	}
	t.Run("info title and subject", func(t *testing.T) {
		fb := add(t, pdfWithInfo(2, "Owner's Manual", "How to run the machine"), nil)
		if fb["flipbookTitle"] != "Owner's Manual" || fb["flipbookDescription"] != "How to run the machine" {
			t.Fatalf("title/description not taken from the document: %v", fb)
		}
	})
	t.Run("info title only", func(t *testing.T) {
		fb := add(t, pdfWithInfo(1, "Price List", ""), nil)
		if fb["flipbookTitle"] != "Price List" || fb["flipbookDescription"] != "Converted from scan-0042.pdf" {
			t.Fatalf("answer %v", fb)
		}
	})
	t.Run("no information", func(t *testing.T) {
		// Where the document has none, the file name stands in (README).
		fb := add(t, pdfWithInfo(1, "", ""), nil)
		if fb["flipbookTitle"] != "scan-0042" || fb["flipbookDescription"] != "Converted from scan-0042.pdf" {
			t.Fatalf("answer %v", fb)
		}
	})
	t.Run("given values win", func(t *testing.T) {
		fb := add(t, pdfWithInfo(1, "From the PDF", "From the PDF too"), map[string]string{"title": "Mine", "description": "Also mine"})
		if fb["flipbookTitle"] != "Mine" || fb["flipbookDescription"] != "Also mine" {
			t.Fatalf("answer %v", fb)
		}
	})
}

// Spec, Collection: "`collectionItems` | array of item | Items; a single
// item for API-created collections", and `convertStatus` PROCESSING is an
// item's state while it converts. A poller reading collectionItems[0]
// finds it while generation runs, under the hash it keeps.
func TestConformanceGeneratedSingleItemWhileProcessing(t *testing.T) {
	clock, _, c := startClocked(t, Options{})
	for _, tc := range []struct{ action, sections string }{
		{"collection.createFromTemplate", staticSections},
		{"collection.createCatalog", `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}]}]`},
	} {
		var created struct{ CollectionHash string }
		c.post(map[string]string{"action": tc.action, "sections": tc.sections}).into(t, &created)
		col := c.collection(created.CollectionHash)
		if col.CollectionStatus != "processing" {
			t.Fatalf("%s: not processing: %s", tc.action, col.CollectionStatus)
		}
		if len(col.CollectionItems) != 1 || col.CollectionItems[0].ConvertStatus != "PROCESSING" || col.CollectionItems[0].FlipbookHash == "" {
			t.Fatalf("%s: items while processing: %+v", tc.action, col.CollectionItems)
		}
		hash := col.CollectionItems[0].FlipbookHash
		clock.add(time.Hour)
		done := c.collection(created.CollectionHash)
		if len(done.CollectionItems) != 1 || done.CollectionItems[0].FlipbookHash != hash || done.CollectionItems[0].ConvertStatus != "COMPLETE" {
			t.Fatalf("%s: items after generation: %+v (hash while processing %s)", tc.action, done.CollectionItems, hash)
		}
	}
}
