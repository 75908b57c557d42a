package flipbooktest

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
	"github.com/flipbook/terraform-provider-flipbook/internal/flipbooktestbridge"
)

const fixture = `{"generation":{"delayMs":0},"accounts":[
	{"apiKey":"k1","secret":"s1","collections":[{"collectionHash":"c1","title":"One","pageCount":2}]},
	{"apiKey":"k2","secret":"s2"}]}`

func TestNewServerServesAndStops(t *testing.T) {
	var srv *Server
	t.Run("inner", func(t *testing.T) {
		srv = NewServer(t, WithFixtureJSON([]byte(fixture)))
		resp, err := http.Get(srv.URL + "/_emulator/health")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("health: %v %v", resp, err)
		}
		resp.Body.Close()
		if got := srv.Env("k2"); got["FLIPBOOK_API_SECRET"] != "s2" || got["FLIPBOOK_BASE_URL"] != srv.BaseURL || got["FLIPBOOK_UPLOAD_URL"] != srv.UploadURL {
			t.Fatalf("Env(k2) %v", got)
		}
		if got := srv.Env(""); got["FLIPBOOK_API_KEY"] != "k1" {
			t.Fatalf("Env(\"\") is not the first account: %v", got)
		}
	})
	// Stopped when the test ended; a second Close is harmless.
	if resp, err := http.Get(srv.URL + "/_emulator/health"); err == nil {
		resp.Body.Close()
		t.Fatal("the server outlived its test")
	}
	srv.Close()
}

func TestEnvUnknownAccountPanics(t *testing.T) {
	srv := NewServer(t)
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrUnknownAccount) {
			t.Fatalf("recovered %v", err)
		}
	}()
	srv.Env("nobody")
	t.Fatal("no panic")
}

func TestOptions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fx.json")
	if err := os.WriteFile(path, []byte(`{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"feed.csv"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "feed.csv"), []byte("sku\nA1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := NewServer(t, WithFixtureFile(path))
	if got := srv.Accounts(); len(got) != 1 || got[0] != "k" {
		t.Fatalf("fixture file not served: %v", got)
	}
	for name, opt := range map[string]Option{
		"missing file":  WithFixtureFile(filepath.Join(dir, "none.json")),
		"feed file":     WithFixtureJSON([]byte(`{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"feed.csv"}]}]}`)),
		"bad json":      WithFixtureJSON([]byte(`{`)),
		"bad delay":     WithGenerationDelay(-time.Second),
		"no accounts":   WithFixtureJSON([]byte(`{"accounts":[]}`)),
		"unknown field": WithFixtureJSON([]byte(`{"acounts":[]}`)),
	} {
		if s, err := Start(opt); err == nil {
			s.Close()
			t.Errorf("%s: started", name)
		}
	}
}

func TestControlHelpers(t *testing.T) {
	clock := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	srv := NewServer(t, WithFixtureJSON([]byte(fixture)), WithClock(func() time.Time { return clock }))
	if err := srv.Rename("c1", "Renamed"); err != nil {
		t.Fatal(err)
	}
	priv := true
	status := "editable"
	if err := srv.SetAccess("c1", Access{Private: &priv, Status: &status}); err != nil {
		t.Fatal(err)
	}
	c, err := srv.Collection("c1")
	if err != nil || c.Title != "Renamed" || !c.Private || c.Status != "editable" || c.APIKey != "k1" || len(c.Items) != 1 || c.Items[0].PageCount != 2 {
		t.Fatalf("collection %+v %v", c, err)
	}
	final, err := srv.Publish("c1")
	if err != nil || final == "c1" {
		t.Fatalf("publish %q %v", final, err)
	}
	if _, err := srv.Collection("c1"); !errors.Is(err, ErrUnknownCollection) {
		t.Fatalf("old hash: %v", err)
	}
	if err := srv.Delete(final); err != nil {
		t.Fatal(err)
	}
	if err := srv.Rename(final, "x"); !errors.Is(err, ErrDeletedCollection) {
		t.Fatalf("rename of a deleted collection: %v", err)
	}
	if err := srv.SetFaults(Faults{Rate: 0.5, Kinds: []string{FaultHTTP502}, Actions: []string{"user.getStats"}}); err != nil {
		t.Fatal(err)
	}
	if f := srv.Faults(); f.Rate != 0.5 || len(f.Kinds) != 1 || f.Actions[0] != "user.getStats" {
		t.Fatalf("faults %+v", f)
	}
	if err := srv.SetFaults(Faults{Rate: 1, Kinds: []string{"flood"}}); err == nil {
		t.Fatal("unknown fault kind accepted")
	}
	if len(srv.Collections()) != 1 || !srv.Collections()[0].Deleted {
		t.Fatalf("collections %+v", srv.Collections())
	}
	srv.Reset()
	if got := srv.Collections(); len(got) != 1 || got[0].Hash != "c1" || got[0].Deleted || got[0].Title != "One" {
		t.Fatalf("after reset %+v", got)
	}
	if f := srv.Faults(); f.Rate != 0 {
		t.Fatalf("faults after reset %+v", f)
	}
	if err := srv.ReplaceFixture([]byte(`{"accounts":[{"apiKey":"k3","secret":"s3"}]}`)); err != nil {
		t.Fatal(err)
	}
	if got := srv.Accounts(); len(got) != 1 || got[0] != "k3" || len(srv.Collections()) != 0 {
		t.Fatalf("after ReplaceFixture: %v %v", got, srv.Collections())
	}
	if err := srv.ReplaceFixture([]byte(`{"accounts":[]}`)); err == nil || srv.Accounts()[0] != "k3" {
		t.Fatalf("bad fixture: %v, accounts %v", err, srv.Accounts())
	}
}

// This module's own tests serve fixtures built in Go and reach the emulator
// behind the facade through the bridge.
func TestBridge(t *testing.T) {
	fx := emulator.DemoFixture()
	fx.Accounts = fx.Accounts[:1]
	fx.Accounts[0].APIKey = "bridged"
	srv := NewServer(t, flipbooktestbridge.WithFixture(fx))
	e := flipbooktestbridge.Server(srv)
	if e == nil || e.BaseURL != srv.BaseURL || srv.Env("")["FLIPBOOK_API_KEY"] != "bridged" {
		t.Fatalf("bridge: %+v, env %v", e, srv.Env(""))
	}
	if _, err := e.Emulator.Publish("draft-1"); err != nil {
		t.Fatal(err)
	}
}

func TestHelpersReadBack(t *testing.T) {
	srv := NewServer(t, WithGenerationDelay(time.Hour))
	if n := srv.Notifications(); len(n) != 0 {
		t.Fatalf("notifications at start: %v", n)
	}
	srv.Setenv(t, "other-key")
	if os.Getenv("FLIPBOOK_API_KEY") != "other-key" || os.Getenv("FLIPBOOK_API_SECRET") != "other-secret" || os.Getenv("FLIPBOOK_BASE_URL") != srv.BaseURL {
		t.Fatalf("Setenv: %q %q", os.Getenv("FLIPBOOK_API_KEY"), os.Getenv("FLIPBOOK_BASE_URL"))
	}
	// An API call without credentials is counted under its action and code.
	resp, err := http.Get(srv.BaseURL + "?action=user.getStats")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := srv.Requests()["user.getStats"]["30"]; got != 1 {
		t.Fatalf("requests %v", srv.Requests())
	}
	srv.ResetRequests()
	if len(srv.Requests()) != 0 {
		t.Fatalf("requests after ResetRequests %v", srv.Requests())
	}
}
