package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const staticSections = `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[{"name":"headline","value":"Hi"}]},{"sectionType":"blank","pageCount":2}]`

func TestGenerationLifecycle(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	srv, err := Start(Options{Fixture: fastFixture(), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "title": "Spring", "folder": "Marketing/2026"})
	wantCode(t, env, 20, "OK")
	var created struct{ CollectionHash string }
	env.into(t, &created)
	if created.CollectionHash == "" {
		t.Fatal("no collectionHash")
	}
	col := c.collection(created.CollectionHash)
	if col.CollectionStatus != "processing" || col.FlipbookStatus != "processing" || col.CollectionPageCount != float64(0) || len(col.CollectionItems) != 0 {
		t.Fatalf("right after creation: %+v", col)
	}
	clock.add(149 * time.Millisecond)
	if col = c.collection(created.CollectionHash); col.CollectionStatus != "processing" {
		t.Fatalf("before the delay: %v", col.CollectionStatus)
	}
	clock.add(time.Millisecond)
	col = c.collection(created.CollectionHash)
	if col.CollectionStatus != "unlisted" || col.FlipbookStatus != "complete" || col.CollectionTitle != "Spring" {
		t.Fatalf("finished: %+v", col)
	}
	// 2 template pages + 2 blank pages; the demo fixture turns scalars into strings.
	if col.FlipbookPageCount != "4" || col.CollectionPageCount != float64(4) {
		t.Fatalf("page counts: %v %v", col.FlipbookPageCount, col.CollectionPageCount)
	}
	if items := col.CollectionItems; len(items) != 1 || items[0].ConvertStatus != "COMPLETE" || items[0].Extension != "pdf" || items[0].FlipbookPageCount != "4" {
		t.Fatalf("items: %+v", items)
	}
	if s := col.Settings; s["collectionWidth"] != "640" || s["enableDownload"] != "true" {
		t.Fatalf("settings not stringly: %v", s)
	}
	if col.CreatedDate != "2026-03-01 10:00:00" || col.PublishDate != "2026-03-01 10:00:00" {
		t.Fatalf("dates %q %q", col.CreatedDate, col.PublishDate)
	}
	var view CollectionView
	for _, v := range srv.Emulator.Collections() {
		if v.CollectionHash == created.CollectionHash {
			view = v
		}
	}
	if view.Kind != "template" || view.Folder != "Marketing/2026" || view.PageCount != 4 || !view.Private {
		t.Fatalf("view: %+v", view)
	}
	var sections []map[string]any
	if err := json.Unmarshal(view.Sections, &sections); err != nil || len(sections) != 2 {
		t.Fatalf("sections kept as JSON: %s %v", view.Sections, err)
	}
}

func TestCatalogLayout(t *testing.T) {
	srv, c := startTest(t, nil)
	sections := `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-product"}],
		"filters":[{"mode":"include","conditions":[{"field":"brand","operator":"eq","value":"Acme"}]}]}]`
	env := c.post(map[string]string{"action": "collection.createCatalog", "sections": sections})
	wantCode(t, env, 20, "OK")
	var created struct{ CollectionHash string }
	env.into(t, &created)
	v, err := srv.Emulator.Collection(created.CollectionHash)
	if err != nil {
		t.Fatal(err)
	}
	// Nine Acme shoes (every fourth of 36), six to a page.
	if len(v.Layout) != 2 || len(v.Layout[0]) != 6 || len(v.Layout[1]) != 3 || v.Layout[0][0] != "B01" {
		t.Fatalf("layout %v", v.Layout)
	}
}

func TestWrongMethodAndAddress(t *testing.T) {
	srv, c := startTest(t, nil)
	cases := []struct {
		method, base, action string
	}{
		{http.MethodPost, srv.BaseURL, "collection.getCollection"},
		{http.MethodGet, srv.BaseURL, "collection.createFromTemplate"},
		{http.MethodGet, srv.UploadURL, "flipbook.add"},
		{http.MethodPost, srv.BaseURL, "flipbook.add"},
		{http.MethodGet, srv.UploadURL, "collection.getCollection"},
	}
	for _, tc := range cases {
		p := c.signed(map[string]string{"action": tc.action, "collectionHash": "pub-private-1"})
		env := c.send(tc.method, tc.base, p)
		if env.Code != 40 || env.Status != "Bad Request" {
			t.Errorf("%s %s %s: got %d %s", tc.method, tc.base, tc.action, env.Code, env.Status)
		}
	}
}

func TestGenerationValidation(t *testing.T) {
	srv, c := startTest(t, nil)
	before := len(srv.Emulator.Collections())
	env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": `[{"sectionType":"blank"}]`, "folder": "/Bad//Folder/"})
	wantCode(t, env, 40, "Bad Request")
	var d struct {
		Message string
		Errors  []string
	}
	env.into(t, &d)
	if d.Message != "Validation failed" || len(d.Errors) < 2 || !strings.HasPrefix(d.Errors[0], "folder") || !strings.HasPrefix(d.Errors[len(d.Errors)-1], "sections") {
		t.Fatalf("validation data %+v", d)
	}
	env = c.post(map[string]string{"action": "collection.createCatalog", "sections": staticSections})
	wantCode(t, env, 40, "Bad Request")
	env = c.post(map[string]string{"action": "collection.createCatalog", "sections": `[{"sectionType":"feed","sources":[{"sourceHash":"feed-nope"}],"templates":[{"templateHash":"tpl-product"}]}]`})
	wantCode(t, env, 40, "Bad Request")
	if len(srv.Emulator.Collections()) != before {
		t.Fatal("a rejected generation created a collection")
	}
}

// The base addresses answer without their trailing slash too, and POST
// parameters may come as multipart form fields.
func TestAddressesAndBodies(t *testing.T) {
	srv, c := startTest(t, nil)
	env := c.send(http.MethodGet, strings.TrimSuffix(srv.BaseURL, "/"), c.signed(get("collection.getCollection", "pub-private-1")))
	wantCode(t, env, 20, "OK")
	wantCode(t, c.do(c.uploadRequest(srv.BaseURL, map[string]string{"action": "collection.createFromTemplate", "sections": staticSections})), 20, "OK")
	// The file part is not signed: the same fields with another file still pass.
	p := get("flipbook.add", "pub-private-1")
	wantCode(t, c.upload(p, filePart{"one.pdf", bytes.NewReader(minimalPDF(1))}), 20, "OK")
	wantCode(t, c.upload(p, filePart{"two.pdf", bytes.NewReader(minimalPDF(2))}), 20, "OK")
	// A POST of a GET action with a JSON body is still a wrong method.
	req := c.request(http.MethodPost, srv.BaseURL+"?"+values(c.signed(get("collection.getCollection", "pub-private-1"))).Encode(), nil)
	req.Body = io.NopCloser(strings.NewReader("{}"))
	req.ContentLength = 2
	req.Header.Set("Content-Type", "application/json")
	wantCode(t, c.do(req), 40, "Bad Request")
}

func TestSignatureVector(t *testing.T) {
	// md5("s" + "a1" + "b2") computed by hand; signature itself is left out.
	got := Signature("s", map[string]string{"b": "2", "a": "1", "signature": "x"})
	if got != "08a7d8d97b9242af83cc1971aa352cbe" {
		t.Fatalf("Signature %s", got)
	}
}

// Options.GenerationDelay overrides the fixture's delay.
func TestGenerationDelayOverride(t *testing.T) {
	zero := time.Duration(0)
	srv, err := Start(Options{Fixture: DemoFixture(), GenerationDelay: &zero})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	var created struct{ CollectionHash string }
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}).into(t, &created)
	var col map[string]any
	c.get(get("collection.getCollection", created.CollectionHash)).into(t, &col)
	if col["collectionStatus"] != "unlisted" {
		t.Fatalf("with delay 0: %v", col["collectionStatus"])
	}
	if _, err := New(Options{GenerationDelay: ptr(-time.Second)}); err == nil {
		t.Fatal("negative delay accepted")
	}
}

// The spec makes downloadHTML unavailable while the flipbook is processing:
// that includes a document added to a published collection and still
// converting, not only a generation.
func TestDownloadHTMLRefusedWhileDocumentConverts(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	srv, err := Start(Options{Fixture: fastFixture(), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 20, "OK")

	env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"manual.pdf", bytes.NewReader(minimalPDF(2))})
	wantCode(t, env, 20, "OK")
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 38, "Collection is in progress. Please try again later")

	clock.add(100 * time.Millisecond) // the fixture's conversion delay
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 20, "OK")
}
