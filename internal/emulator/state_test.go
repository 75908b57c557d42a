package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestStateFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	// One clock for both runs, so that the views compared are of one moment.
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	srv, err := Start(Options{Fixture: fastFixture(), StateFile: path, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, srv)
	var created struct{ CollectionHash string }
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "Sales/EMEA"}).into(t, &created)
	wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[{"type":"teammate","group":"Sales"}]}`), 20, "OK")
	wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), filePart{"a.pdf", bytes.NewReader(minimalPDF(2))}), 20, "OK")
	if err := srv.Emulator.Delete("pub-public-1"); err != nil {
		t.Fatal(err)
	}
	newHash, err := srv.Emulator.Publish("draft-1")
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Emulator.Collections()
	srv.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if tmps, _ := filepath.Glob(path + ".tmp-*"); len(tmps) != 0 {
		t.Fatalf("temporary files left: %v", tmps)
	}

	// The fixture gained a collection since: it appears, after the saved ones.
	fx := fastFixture()
	fx.Accounts[0].Collections = append(fx.Accounts[0].Collections, CollectionFixture{CollectionHash: "added-later", PageCount: 1})
	srv2, err := Start(Options{Fixture: fx, StateFile: path, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	c2 := newTestClient(t, srv2)
	after := srv2.Emulator.Collections()
	if n := len(after); n != len(before)+1 || after[n-1].CollectionHash != "added-later" {
		t.Fatalf("fixture collection added later: %+v", after[n-1])
	}
	after = after[:len(after)-1]
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("collections changed across restart\nbefore %+v\nafter  %+v", before, after)
	}
	env := c2.get(get("collection.getPermissions", "pub-private-1"))
	if string(env.Data) != `{"permissions":[{"type":"teammate","group":"Sales"}]}` {
		t.Fatalf("permissions after restart: %s", env.Data)
	}
	wantCode(t, c2.get(get("collection.getCollection", "pub-public-1")), 43, "Forbidden")
	wantCode(t, c2.get(get("collection.getCollection", "draft-1")), 46, "Invalid collection hash")
	wantCode(t, c2.get(get("collection.getCollection", newHash)), 20, "OK")
	var u map[string]float64
	c2.get(map[string]string{"action": "user.getStats"}).into(t, &u)
	if u["api_uploads_left"] != 99 {
		t.Fatalf("upload count lost: %v", u)
	}
	// Folders are reused case-insensitively across the restart.
	c2.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "sales/emea/Q1"}).into(t, &created)
	if v, _ := srv2.Emulator.Collection(created.CollectionHash); v.Folder != "Sales/EMEA/Q1" {
		t.Fatalf("folder %q", v.Folder)
	}
}

func TestStateFileBroken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Fixture: fastFixture(), StateFile: path}); err == nil {
		t.Fatal("a broken state file was accepted")
	}
}

// TestConcurrentCalls runs a few hundred mixed calls at once; with -race it
// proves the locking, and the counters prove every call was counted once.
func TestConcurrentCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	fx := fastFixture()
	fx.Generation.DelayMs = new(int64)
	srv, err := Start(Options{Fixture: fx, StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	const n = 300
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var p map[string]string
			switch i % 5 {
			case 0:
				p = get("collection.getCollection", "pub-private-1")
			case 1:
				p = map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "Load"}
			case 2:
				p = map[string]string{"action": "collection.setPermissions", "collectionHash": "pub-private-1", "permissions": `{"permissions":[{"type":"teammate","notifyViaEmail":true}]}`}
			case 3:
				p = get("collection.downloadHTML", "pub-private-1")
			case 4:
				p = map[string]string{"action": "user.getStats"}
			}
			method := http.MethodGet
			if i%5 == 1 {
				method = http.MethodPost
			}
			codes[i] = -1
			status, _, b, err := c.fetch(c.request(method, srv.BaseURL, c.signed(p)))
			var env envelope
			if err == nil && status == http.StatusOK && json.Unmarshal(b, &env) == nil {
				codes[i] = env.Code
			}
		}(i)
	}
	wg.Wait()
	for i, code := range codes {
		if code != 20 {
			t.Fatalf("call %d answered %d", i, code)
		}
	}
	total := 0
	for _, m := range srv.Emulator.Requests() {
		for _, v := range m {
			total += v
		}
	}
	if total != n {
		t.Fatalf("%d calls counted, want %d", total, n)
	}
	if got := len(srv.Emulator.Collections()); got != len(fx.Accounts[0].Collections)+len(fx.Accounts[1].Collections)+n/5 {
		t.Fatalf("%d collections", got)
	}
	if got := len(srv.Emulator.Notifications()); got != 4*n/5 {
		t.Fatalf("%d notifications", got)
	}
}
