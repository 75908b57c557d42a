package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// hashesOf lists the collection hashes of the control listing, in order.
func hashesOf(e *Emulator) []string {
	var out []string
	for _, v := range e.Collections() {
		out = append(out, v.CollectionHash+"/"+v.Title+"/"+v.Status)
	}
	return out
}

func TestControlReset(t *testing.T) {
	srv, c := startTest(t, nil)
	e := srv.Emulator
	ctl := srv.URL + "/_emulator/"
	start := hashesOf(e)

	// Change everything a reset must undo.
	var created struct{ CollectionHash string }
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "New/Folder"}).into(t, &created)
	wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), filePart{"a.pdf", bytes.NewReader(minimalPDF(1))}), 20, "OK")
	wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`), 20, "OK")
	if _, err := e.Publish("draft-1"); err != nil {
		t.Fatal(err)
	}
	if err := e.Rename("pub-public-1", "renamed"); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete("pub-private-1"); err != nil {
		t.Fatal(err)
	}
	e.SetGenerationDelay(time.Hour)
	if code := controlDo(t, "POST", ctl+"faults", `{"rate":1,"kinds":["maintenance"],"actions":["collection.getEmbed"]}`, nil); code != 200 {
		t.Fatal("faults not set")
	}
	if slices.Equal(hashesOf(e), start) || len(e.Notifications()) == 0 || len(e.Requests()) == 0 {
		t.Fatal("the test changed nothing to reset")
	}

	var st Health
	if code := controlDo(t, "POST", ctl+"reset", "", &st); code != 200 || st.Status != "ok" {
		t.Fatalf("reset: HTTP %d %+v", code, st)
	}
	if got := hashesOf(e); !slices.Equal(got, start) {
		t.Fatalf("collections after reset:\n%v\nwant\n%v", got, start)
	}
	if n := e.Notifications(); len(n) != 0 {
		t.Fatalf("notifications after reset: %v", n)
	}
	if r := e.Requests(); len(r) != 0 {
		t.Fatalf("requests after reset: %v", r)
	}
	if f := e.Faults(); f.Rate != 0 || len(f.Actions) != 0 {
		t.Fatalf("faults after reset: %+v", f)
	}
	// The API sees the fixture's world: the uploads quota is whole again,
	// the deleted collection is back, faults are gone, the generated
	// collection is unknown.
	var us map[string]any
	c.get(map[string]string{"action": "user.getStats"}).into(t, &us)
	if us["api_uploads_left"] != float64(100) {
		t.Fatalf("api_uploads_left after reset: %v", us["api_uploads_left"])
	}
	wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
	wantCode(t, c.get(get("collection.getEmbed", "pub-private-1")), 20, "OK")
	wantCode(t, c.get(get("collection.getCollection", created.CollectionHash)), 46, "Invalid collection hash")
	wantCode(t, c.get(get("collection.getPermissions", "pub-private-1")), 20, "OK")
	// The fixture's generation delay (150 ms), not the hour set above.
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}).into(t, &created)
	c.waitFor(created.CollectionHash, func(col testCollection) bool { return col.CollectionStatus != "processing" })
}

// A reset with a state file rewrites it: a restart after a reset starts
// from the fixture too.
func TestControlResetRewritesState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	srv, err := Start(Options{Fixture: fastFixture(), StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	var created struct{ CollectionHash string }
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}).into(t, &created)
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(created.CollectionHash)) {
		t.Fatal("state file lacks the new collection")
	}
	srv.Emulator.Reset()
	b, err := os.ReadFile(path)
	if err != nil || bytes.Contains(b, []byte(created.CollectionHash)) {
		t.Fatalf("state file after reset still holds %s (err %v)", created.CollectionHash, err)
	}
}

const smallFixture = `{"generation":{"delayMs":0},"accounts":[{"apiKey":"k2","secret":"s2",
	"templates":[{"templateHash":"tpl-a","pages":3}],
	"feeds":[{"sourceHash":"feed-a","products":[{"sku":"X1","price":"5"}]}],
	"collections":[{"collectionHash":"only-one","title":"Only","pageCount":2}]}]}`

func TestControlFixture(t *testing.T) {
	srv, c := startTest(t, nil)
	e := srv.Emulator
	ctl := srv.URL + "/_emulator/"
	before := hashesOf(e)

	bad := []struct{ name, body, want string }{
		{"not JSON", `{"accounts":`, "fixture"},
		{"unknown field", `{"acounts":[]}`, `unknown field "acounts"`},
		{"no account", `{"accounts":[]}`, "at least one account"},
		{"trailing data", smallFixture + `{}`, "trailing data"},
		{"absolute feed file", `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"/etc/passwd"}]}]}`, "cannot name files"},
		{"relative feed file", `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"../../x.csv"}]}]}`, "cannot name files"},
		{"plain feed file", `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"products.csv"}]}]}`, "cannot name files"},
		{"too deep", `{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"h","settings":{"x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}]}]}`, "nested more than 64"},
		{"too large", `{"accounts":[{"apiKey":"k","secret":"s","groups":["` + strings.Repeat("g", MaxFixtureBytes) + `"]}]}`, "larger than"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			var ce ControlError
			if code := controlDo(t, "PUT", ctl+"fixture", tc.body, &ce); code != 400 || !strings.Contains(ce.Error, tc.want) {
				t.Fatalf("HTTP %d %q, want 400 naming %q", code, ce.Error, tc.want)
			}
			if got := hashesOf(e); !slices.Equal(got, before) {
				t.Fatalf("a refused fixture changed the world: %v", got)
			}
		})
	}
	wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")

	var st Health
	if code := controlDo(t, "PUT", ctl+"fixture", smallFixture, &st); code != 200 || st.Status != "ok" {
		t.Fatalf("PUT fixture: HTTP %d %+v", code, st)
	}
	if got := hashesOf(e); !slices.Equal(got, []string{"only-one/Only/unlisted"}) {
		t.Fatalf("world after PUT: %v", got)
	}
	wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 41, "Invalid credentials")
	k2 := &testClient{t: t, srv: srv, key: "k2", secret: "s2", hc: c.hc}
	wantCode(t, k2.get(get("collection.getCollection", "only-one")), 20, "OK")
	var created struct{ CollectionHash string }
	k2.post(map[string]string{"action": "collection.createCatalog", "sections": `[{"sectionType":"feed","sources":[{"sourceHash":"feed-a"}],"templates":[{"templateHash":"tpl-a"}]}]`}).into(t, &created)
	// A reset now returns to the fixture last put.
	e.Reset()
	if got := hashesOf(e); !slices.Equal(got, []string{"only-one/Only/unlisted"}) {
		t.Fatalf("world after PUT and reset: %v", got)
	}
}

// Resets and new fixtures while API calls run: no deadlock, and every call
// gets a whole envelope (from one world or the other). Run under -race.
func TestControlResetUnderLoad(t *testing.T) {
	srv, c := startTest(t, mixedFixture())
	e := srv.Emulator
	fx, err := ParseFixtureBody(strings.NewReader(smallFixture))
	if err != nil {
		t.Fatal(err)
	}
	pdf := minimalPDF(1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	var answered sync.Map
	for w := range 6 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var req = c.request("GET", srv.BaseURL, c.signed(get("collection.getCollection", "pub-private-1")))
				switch (w + i) % 3 {
				case 1:
					req = c.request("POST", srv.BaseURL, c.signed(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}))
				case 2:
					req = c.uploadRequest(srv.UploadURL, get("flipbook.add", "pub-private-1"), filePart{"a.pdf", bytes.NewReader(pdf)})
				}
				status, _, b, err := c.fetch(req)
				if err != nil {
					errs <- fmt.Errorf("worker %d call %d: %w", w, i, err)
					return
				}
				if status != 200 {
					errs <- fmt.Errorf("worker %d call %d: HTTP %d", w, i, status)
					return
				}
				var env envelope
				if err := json.Unmarshal(b, &env); err != nil || env.Code == 0 {
					errs <- fmt.Errorf("worker %d call %d: not an envelope: %q", w, i, b)
					return
				}
				answered.Store(env.Code, true)
			}
		})
	}
	done := make(chan struct{})
	go func() {
		for i := range 40 {
			if i%4 == 3 {
				if err := e.ReplaceFixture(fx); err != nil {
					errs <- err
				}
			} else {
				e.Reset()
			}
			time.Sleep(5 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("resets under load did not finish: deadlock?")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Both worlds answered: the demo key's calls succeeded (20) before a
	// new fixture and were refused (41) after one.
	for _, code := range []int{20, 41} {
		if _, ok := answered.Load(code); !ok {
			t.Errorf("no call answered %d", code)
		}
	}
	// The emulator still serves: the demo world put back answers.
	if err := e.ReplaceFixture(mixedFixture()); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
}
