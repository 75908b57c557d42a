package emulator

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestDeleteBackgroundColor(t *testing.T) {
	srv, c := startTest(t, nil)
	p := get("collection.deleteBackgroundImage", "pub-private-1")
	p["color"] = "red"
	wantCode(t, c.get(p), 40, "Bad Request")
	if v, _ := srv.Emulator.Collection("pub-private-1"); !v.BackgroundImage {
		t.Fatal("a refused call removed the background image")
	}
	p["color"] = "#0a0"
	var col struct{ Settings map[string]any }
	c.get(p).into(t, &col)
	if col.Settings["backgroundColor"] != "#0a0" || col.Settings["transparentBackground"] != "false" {
		t.Fatalf("settings %v", col.Settings)
	}
	if v, _ := srv.Emulator.Collection("pub-private-1"); v.BackgroundImage || v.BackgroundColor != "#0a0" {
		t.Fatalf("view %+v", v)
	}
}

func TestDownloadHTML(t *testing.T) {
	_, c := startTest(t, nil)
	var pkg struct{ Status, ResourceURL string }
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	if pkg.Status != "PROCESSING" || pkg.ResourceURL != "" {
		t.Fatalf("first call %+v", pkg)
	}
	time.Sleep(150 * time.Millisecond)
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	if pkg.Status != "COMPLETE" || !strings.HasSuffix(pkg.ResourceURL, ".zip") {
		t.Fatalf("later call %+v", pkg)
	}
	_, b := plainCall(t, "GET", pkg.ResourceURL, "")
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || len(zr.File) == 0 || zr.File[0].Name != "index.html" {
		t.Fatalf("package is not a zip with index.html: %v", err)
	}
	// Once generated, the package is COMPLETE from the first call.
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	if pkg.Status != "COMPLETE" {
		t.Fatalf("repeat %+v", pkg)
	}
}

// The package link lives one minute, by the emulator's clock.
func TestDownloadLinkExpires(t *testing.T) {
	clock, _, c := startClocked(t, Options{})
	var pkg struct{ Status, ResourceURL string }
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	clock.add(time.Second)
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	if pkg.Status != "COMPLETE" {
		t.Fatalf("%+v", pkg)
	}
	clock.add(59 * time.Second)
	if status, _ := plainCall(t, "GET", pkg.ResourceURL, ""); status != 200 {
		t.Fatalf("within the minute: %d", status)
	}
	clock.add(time.Second)
	if status, _ := plainCall(t, "GET", pkg.ResourceURL, ""); status != http.StatusGone {
		t.Fatalf("after the minute: %d", status)
	}
}

func TestEmbed(t *testing.T) {
	srv, c := startTest(t, nil)
	embed := func(extra map[string]string) envelope {
		p := get("collection.getEmbed", "pub-private-1")
		for k, v := range extra {
			p[k] = v
		}
		return c.get(p)
	}
	var out struct{ EmbedCode string }
	embed(nil).into(t, &out)
	want := `<iframe src="` + srv.URL + `/_emulator/view/pub-private-1?startPage=1" width="640" height="480" style="border:none" allowfullscreen></iframe>`
	if out.EmbedCode != want {
		t.Fatalf("embed\n%s\nwant\n%s", out.EmbedCode, want)
	}
	embed(map[string]string{"width": "800", "height": "600", "startPage": "3"}).into(t, &out)
	if !strings.Contains(out.EmbedCode, `width="800" height="600"`) || !strings.Contains(out.EmbedCode, "startPage=3") {
		t.Fatalf("sized embed %s", out.EmbedCode)
	}
	embed(map[string]string{"responsive": "true", "width": "800"}).into(t, &out)
	if !strings.Contains(out.EmbedCode, `width="100%" height="100%"`) {
		t.Fatalf("responsive embed %s", out.EmbedCode)
	}
	// Spec: width, height and startPage are "number": decimals are numbers.
	embed(map[string]string{"width": "640.5", "height": "1e2", "startPage": "2.5"}).into(t, &out)
	if !strings.Contains(out.EmbedCode, `width="640.5" height="1e2"`) || !strings.Contains(out.EmbedCode, "startPage=2.5") {
		t.Fatalf("decimal embed %s", out.EmbedCode)
	}
	env := embed(map[string]string{"width": "wide", "startPage": "NaN", "height": "0x10", "responsive": "maybe"})
	wantCode(t, env, 40, "Bad Request")
	if len(env.errors()) != 4 {
		t.Fatalf("errors %q", env.errors())
	}
	if status, page := plainCall(t, "GET", srv.URL+"/_emulator/view/pub-private-1", ""); status != 200 || !strings.Contains(string(page), "Handbook") {
		t.Fatalf("player page: %d %s", status, page)
	}
}

func TestStats(t *testing.T) {
	_, c := startTest(t, nil)
	p := get("collection.getStats", "pub-public-1")
	p["flipbookHash"] = "fb-pub-public-1"
	var a, b map[string]float64
	c.get(p).into(t, &a)
	c.get(p).into(t, &b)
	if a["views"] != b["views"] || len(a) != 3 {
		t.Fatalf("derived stats not stable: %v %v", a, b)
	}
	var u map[string]float64
	c.get(map[string]string{"action": "user.getStats"}).into(t, &u)
	want := map[string]float64{"impressions": 5400, "views": 1800, "time_spent": 86400, "downloads": 42, "api_uploads_left": 100}
	for k, v := range want {
		if u[k] != v {
			t.Fatalf("user stats %v, want %v", u, want)
		}
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

func TestGenerationLifecycle(t *testing.T) {
	clock, srv, c := startClocked(t, Options{})
	env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "title": "Spring", "folder": "Marketing/2026"})
	wantCode(t, env, 20, "OK")
	var created struct{ CollectionHash string }
	env.into(t, &created)
	if created.CollectionHash == "" {
		t.Fatal("no collectionHash")
	}
	col := c.collection(created.CollectionHash)
	// "a single item for API-created collections": listed while it
	// generates, PROCESSING and without pages yet.
	if col.CollectionStatus != "processing" || col.FlipbookStatus != "processing" || col.CollectionPageCount != float64(0) ||
		len(col.CollectionItems) != 1 || col.CollectionItems[0].ConvertStatus != "PROCESSING" || col.CollectionItems[0].FlipbookPageCount != "0" {
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

// The spec makes downloadHTML unavailable while the flipbook is processing:
// that includes a document added to a published collection and still
// converting, not only a generation.
func TestDownloadHTMLRefusedWhileDocumentConverts(t *testing.T) {
	clock, _, c := startClocked(t, Options{})
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 20, "OK")

	env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"manual.pdf", bytes.NewReader(minimalPDF(2))})
	wantCode(t, env, 20, "OK")
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 38, "Collection is in progress. Please try again later")

	clock.add(100 * time.Millisecond) // the fixture's conversion delay
	wantCode(t, c.get(get("collection.downloadHTML", "pub-private-1")), 20, "OK")
}
