package emulator

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// plainCall is an HTTP call outside the API: status and body.
func plainCall(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// controlDo calls a control endpoint, decodes its JSON answer into out and
// returns the HTTP status.
func controlDo(t *testing.T, method, url, body string, out any) int {
	t.Helper()
	status, b := plainCall(t, method, url, body)
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %s: %v", method, url, b, err)
		}
	}
	return status
}

func TestControlEndpoints(t *testing.T) {
	srv, c := startTest(t, nil)
	ctl := srv.URL + "/_emulator/"

	var list []map[string]any
	if code := controlDo(t, "GET", ctl+"collections", "", &list); code != 200 {
		t.Fatalf("GET collections: %d", code)
	}
	first := list[0]
	for _, k := range []string{"collectionHash", "apiKey", "title", "status", "private", "password", "pageCount"} {
		if _, ok := first[k]; !ok {
			t.Fatalf("collection view lacks %s: %v", k, first)
		}
	}
	if first["collectionHash"] != "pub-private-1" || first["pageCount"] != float64(4) || first["apiKey"] != "demo-key" {
		t.Fatalf("first collection %v", first)
	}
	if _, ok := first["sections"]; ok {
		t.Fatal("a fixture collection shows sections")
	}

	// A catalog shows its sections as JSON and its layout.
	env := c.post(map[string]string{"action": "collection.createCatalog", "sections": `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}],"filters":[{"mode":"include","conditions":[{"field":"sku","operator":"in","value":["B02","B03"]}]}]}]`})
	var created struct{ CollectionHash string }
	env.into(t, &created)
	controlDo(t, "GET", ctl+"collections", "", &list)
	last := list[len(list)-1]
	if last["collectionHash"] != created.CollectionHash {
		t.Fatalf("new collection not last: %v", last)
	}
	if secs, ok := last["sections"].([]any); !ok || len(secs) != 1 {
		t.Fatalf("sections %T %v", last["sections"], last["sections"])
	}
	if layout, _ := json.Marshal(last["layout"]); string(layout) != `[["B02","B03"]]` {
		t.Fatalf("layout %s", layout)
	}

	// Publish: new hash, old one 46.
	var pub struct{ CollectionHash string }
	if code := controlDo(t, "POST", ctl+"collections/draft-1/publish", "", &pub); code != 200 || pub.CollectionHash == "" || pub.CollectionHash == "draft-1" {
		t.Fatalf("publish: %d %+v", code, pub)
	}
	wantCode(t, c.get(get("collection.getCollection", "draft-1")), 46, "Invalid collection hash")
	var col map[string]any
	c.get(get("collection.getCollection", pub.CollectionHash)).into(t, &col)
	if col["collectionStatus"] != "unlisted" || col["publishDate"] == "" {
		t.Fatalf("published draft: %v %v", col["collectionStatus"], col["publishDate"])
	}
	if code := controlDo(t, "POST", ctl+"collections/draft-1/publish", "", nil); code != 404 {
		t.Fatalf("publish of a gone hash: %d", code)
	}

	// Access.
	var view CollectionView
	if code := controlDo(t, "POST", ctl+"collections/pub-public-1/access", `{"private":true}`, &view); code != 200 || !view.Private || view.Status != "public" {
		t.Fatalf("access: %d %+v", code, view)
	}
	wantCode(t, c.get(get("collection.getPermissions", "pub-public-1")), 20, "OK")
	if code := controlDo(t, "POST", ctl+"collections/pub-public-1/access", `{"status":"nope"}`, nil); code != 400 {
		t.Fatalf("bad status: %d", code)
	}
	if code := controlDo(t, "POST", ctl+"collections/pub-public-1/access", `{"privat":true}`, nil); code != 400 {
		t.Fatalf("unknown field: %d", code)
	}

	// Delete: 43 from then on.
	if code := controlDo(t, "DELETE", ctl+"collections/pub-public-1", "", nil); code != 204 {
		t.Fatalf("delete: %d", code)
	}
	wantCode(t, c.get(get("collection.getCollection", "pub-public-1")), 43, "Forbidden")
	if code := controlDo(t, "DELETE", ctl+"collections/never", "", nil); code != 404 {
		t.Fatalf("delete unknown: %d", code)
	}

	// Requests.
	var reqs struct {
		ByAction map[string]map[string]int `json:"byAction"`
	}
	controlDo(t, "GET", ctl+"requests", "", &reqs)
	if g := reqs.ByAction["collection.getCollection"]; g["20"] != 1 || g["46"] != 1 || g["43"] != 1 {
		t.Fatalf("requests %v", reqs.ByAction)
	}
	controlDo(t, "DELETE", ctl+"requests", "", nil)
	if len(srv.Emulator.Requests()) != 0 {
		t.Fatal("requests not reset")
	}

	// Faults.
	if code := controlDo(t, "POST", ctl+"faults", `{"rate":1,"kinds":["http_502"]}`, nil); code != 200 {
		t.Fatalf("faults: %d", code)
	}
	if status, _, _, err := c.fetch(c.request(http.MethodGet, srv.BaseURL, c.signed(get("collection.getCollection", "pub-private-1")))); err != nil || status != 502 {
		t.Fatalf("fault not active: %d %v", status, err)
	}
	// Control endpoints never meet faults.
	if code := controlDo(t, "GET", ctl+"collections", "", nil); code != 200 {
		t.Fatalf("control endpoint under faults: %d", code)
	}
	if code := controlDo(t, "POST", ctl+"faults", `{"rate":0}`, nil); code != 200 {
		t.Fatalf("faults off: %d", code)
	}
	if code := controlDo(t, "POST", ctl+"faults", `{"rate":1,"kinds":["flood"]}`, nil); code != 400 {
		t.Fatalf("unknown kind: %d", code)
	}
	// Limited to some actions: the others pass.
	var faults struct{ Actions []string }
	if code := controlDo(t, "POST", ctl+"faults", `{"rate":1,"kinds":["maintenance"],"actions":["collection.getEmbed"]}`, nil); code != 200 {
		t.Fatalf("faults on actions: %d", code)
	}
	controlDo(t, "GET", ctl+"faults", "", &faults)
	if len(faults.Actions) != 1 {
		t.Fatalf("faults read back %+v", faults)
	}
	wantCode(t, c.get(get("collection.getEmbed", "pub-private-1")), 22, "Maintenance mode")
	wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
	controlDo(t, "POST", ctl+"faults", `{"rate":0}`, nil)

	// Generation delay.
	if code := controlDo(t, "POST", ctl+"generation", `{"delayMs":60000}`, nil); code != 200 {
		t.Fatalf("generation: %d", code)
	}
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}).into(t, &created)
	time.Sleep(200 * time.Millisecond)
	if v, _ := srv.Emulator.Collection(created.CollectionHash); v.Status != "processing" {
		t.Fatalf("long delay not applied: %s", v.Status)
	}
	if code := controlDo(t, "POST", ctl+"collections/"+created.CollectionHash+"/publish", "", nil); code != 409 {
		t.Fatalf("publish while generating: %d", code)
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
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	srv, err := Start(Options{Fixture: fastFixture(), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
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

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
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
