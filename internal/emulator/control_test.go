package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sort"
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

// keysOf lists the keys of a JSON object, sorted.
func keysOf(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The control API's bodies keep their JSON names: each endpoint is called
// and the keys of its answer compared with the README's.
func TestControlShapes(t *testing.T) {
	srv, c := startTest(t, nil)
	ctl := srv.URL + "/_emulator/"
	check := func(method, path, body string, status int, keys ...string) []byte {
		t.Helper()
		got, b := plainCall(t, method, ctl+path, body)
		if got != status {
			t.Fatalf("%s %s: HTTP %d, want %d: %s", method, path, got, status, b)
		}
		if k := keysOf(t, b); !reflect.DeepEqual(k, keys) {
			t.Fatalf("%s %s: keys %v, want %v", method, path, k, keys)
		}
		return b
	}
	if b := check("GET", "health", "", 200, "status"); string(b) != "{\n  \"status\": \"ok\"\n}\n" {
		t.Fatalf("health: %q", b)
	}
	check("GET", "requests", "", 200, "byAction")
	check("GET", "faults", "", 200, "kinds", "rate")
	check("POST", "faults", `{"rate":0.5,"kinds":["slow"],"actions":["user.getStats"]}`, 200, "actions", "kinds", "rate")
	check("GET", "faults", "", 200, "actions", "kinds", "rate")
	check("POST", "faults", `{"rate":0}`, 200, "kinds", "rate")
	check("POST", "faults", `{"rate":2}`, 400, "error")
	if b := check("POST", "generation", `{"delayMs":150}`, 200, "delayMs"); string(b) != "{\n  \"delayMs\": 150\n}\n" {
		t.Fatalf("generation: %q", b)
	}
	check("POST", "generation", `{}`, 400, "error")
	check("POST", "collections/nope/publish", "", 404, "error")
	check("POST", "collections/draft-1/publish", "", 200, "collectionHash")
	check("POST", "collections/pub-private-1/access", `{"bogus":true}`, 400, "error")

	wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`), 20, "OK")
	_, b := plainCall(t, "GET", ctl+"notifications", "")
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil || len(list) == 0 {
		t.Fatalf("notifications: %s", b)
	}
	if k := keysOf(t, list[0]); !reflect.DeepEqual(k, []string{"apiKey", "collectionHash", "email", "group", "time", "type"}) {
		t.Fatalf("notification keys %v", k)
	}
}

// Renaming in the web editor is stood in for by the rename endpoint: the
// API's collectionTitle follows it, other fields and the items do not move.
func TestControlRename(t *testing.T) {
	srv, c := startTest(t, nil)
	ctl := srv.URL + "/_emulator/collections/"
	var before map[string]any
	c.get(get("collection.getCollection", "pub-private-1")).into(t, &before)
	if before["collectionTitle"] == "Renamed in the editor" {
		t.Fatal("fixture already has the new title")
	}

	var v CollectionView
	if code := controlDo(t, "POST", ctl+"pub-private-1/rename", `{"title":"Renamed in the editor"}`, &v); code != 200 || v.Title != "Renamed in the editor" {
		t.Fatalf("rename: HTTP %d %+v", code, v)
	}
	var after map[string]any
	c.get(get("collection.getCollection", "pub-private-1")).into(t, &after)
	if after["collectionTitle"] != "Renamed in the editor" {
		t.Fatalf("collectionTitle after rename: %v", after["collectionTitle"])
	}
	if after["collectionHash"] != before["collectionHash"] || after["collectionStatus"] != before["collectionStatus"] {
		t.Fatalf("rename moved more than the title: %v -> %v", before, after)
	}
	items := after["collectionItems"].([]any)
	if title := items[0].(map[string]any)["flipbookTitle"]; title == "Renamed in the editor" {
		t.Fatalf("item title followed the collection's: %v", title)
	}

	for _, tc := range []struct {
		hash, body string
		status     int
	}{
		{"pub-private-1", `{}`, 400},
		{"pub-private-1", `{"title":""}`, 400},
		{"pub-private-1", `{"titel":"x"}`, 400},
		{"never", `{"title":"x"}`, 404},
	} {
		var e ControlError
		if code := controlDo(t, "POST", ctl+tc.hash+"/rename", tc.body, &e); code != tc.status || e.Error == "" {
			t.Errorf("rename %s %s: HTTP %d %q, want %d", tc.hash, tc.body, code, e.Error, tc.status)
		}
	}
	if err := srv.Emulator.Delete("pub-private-1"); err != nil {
		t.Fatal(err)
	}
	if code := controlDo(t, "POST", ctl+"pub-private-1/rename", `{"title":"x"}`, nil); code != 409 {
		t.Fatalf("rename of a deleted collection: HTTP %d, want 409", code)
	}
}
