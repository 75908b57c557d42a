package emulator

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// v1Fixture is the fixture testdata/state-v1.json was written with: the fast
// demo fixture and one collection with settings of its own.
func v1Fixture() *Fixture {
	fx := fastFixture()
	fx.Accounts[0].Collections = append(fx.Accounts[0].Collections, CollectionFixture{
		CollectionHash: "with-settings", Title: "Styled", PageCount: 3, Folder: "Styled",
		Settings: map[string]any{"collectionWidth": 640.0, "backgroundColor": "#112233", "transparentBackground": true},
	})
	return fx
}

// v1StateFile copies testdata/state-v1.json to a temporary state file and
// returns its path and content.
func v1StateFile(t *testing.T) (string, []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/state-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, b
}

// The state file's own types read testdata/state-v1.json (written by the
// emulator before those types existed, when the in-memory records were
// serialised as they were) and write it back byte for byte.
func TestStateFileVersion1RoundTrip(t *testing.T) {
	path, want := v1StateFile(t)
	e, err := New(Options{Fixture: v1Fixture(), StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(e.store.SavedState(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("state written back differs from the version 1 file\ngot:\n%s", got)
	}
}

// Everything a version 1 file holds comes back through the API.
func TestStateFileVersion1Migrates(t *testing.T) {
	path, _ := v1StateFile(t)
	clock, srv, c := startClocked(t, Options{Fixture: v1Fixture(), StateFile: path})
	// Two minutes after the file was written: every job has ended.
	clock.add(2 * time.Minute)

	views := map[string]CollectionView{}
	var generated []CollectionView
	for _, v := range srv.Emulator.Collections() {
		views[v.CollectionHash] = v
		if v.Kind != "fixture" {
			generated = append(generated, v)
		}
	}
	if len(generated) != 2 || generated[0].Kind != "template" || generated[0].Folder != "Sales/EMEA" || len(generated[0].Sections) == 0 ||
		generated[1].Kind != "catalog" || len(generated[1].Layout) == 0 {
		t.Fatalf("generated collections: %+v", generated)
	}
	if !views["pub-public-1"].Deleted {
		t.Fatal("the deleted collection came back")
	}
	if _, ok := views["draft-1"]; ok {
		t.Fatal("the republished draft came back under its old hash")
	}
	p := views["pub-private-1"]
	if p.LogoImage == "" || p.LogoURL != "https://example.com/" || p.BackgroundImage || p.BackgroundColor != "#FFFFFF" || len(p.Items) != 2 ||
		len(p.Permissions) != 1 || p.Permissions[0] != (PermissionView{Type: "teammate", Group: "Sales"}) {
		t.Fatalf("pub-private-1: %+v", p)
	}
	if s := views["with-settings"]; s.Folder != "Styled" || s.BackgroundColor != "#112233" {
		t.Fatalf("with-settings: %+v", s)
	}
	var col struct {
		Settings map[string]any `json:"settings"`
	}
	c.get(get("collection.getCollection", "with-settings")).into(t, &col)
	if col.Settings["transparentBackground"] != "true" || col.Settings["collectionWidth"] != "640" {
		t.Fatalf("settings: %v", col.Settings)
	}
	var stats map[string]float64
	c.get(map[string]string{"action": "collection.getStats", "collectionHash": "pub-private-1", "flipbookHash": "fb-pub-private-1"}).into(t, &stats)
	if stats["views"] != 120 {
		t.Fatalf("stats: %v", stats)
	}
	var u map[string]float64
	c.get(map[string]string{"action": "user.getStats"}).into(t, &u)
	if u["api_uploads_left"] != 99 {
		t.Fatalf("upload count: %v", u)
	}
	// The package started before the restart is ready: no new delay.
	var pkg struct{ Status string }
	c.get(get("collection.downloadHTML", "pub-private-1")).into(t, &pkg)
	if pkg.Status != "COMPLETE" {
		t.Fatalf("package %q", pkg.Status)
	}
	// Folders are reused case-insensitively.
	var created struct{ CollectionHash string }
	c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "sales/emea/Q1"}).into(t, &created)
	if v, _ := srv.Emulator.Collection(created.CollectionHash); v.Folder != "Sales/EMEA/Q1" {
		t.Fatalf("folder %q", v.Folder)
	}
}

// A state file of a version this emulator does not know is refused, never
// half read.
func TestStateFileNewerVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte(`{"version": 2, "collections": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Fixture: fastFixture(), StateFile: path}); err == nil {
		t.Fatal("a state file of an unknown version was accepted")
	}
}

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
