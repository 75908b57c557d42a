package emulator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoFixture(t *testing.T) {
	fx := DemoFixture()
	a := fx.Accounts[0]
	if a.APIKey != "demo-key" || a.Secret != "demo-secret" || !a.Plan.OTP || !a.Plan.SSO || !a.SSOEnabled || *a.UploadsPerMonth != 100 {
		t.Fatalf("demo account %+v", a)
	}
	if !fx.StringScalars || *fx.Generation.DelayMs != 2000 {
		t.Fatal("demo fixture: stringScalars off or delay not 2000 ms")
	}
	if len(a.Feeds) != 1 || len(a.Feeds[0].Products) != 36 {
		t.Fatal("feed-shoes should hold 36 products")
	}
	for _, col := range []string{"sku", "brand", "category", "price", "size", "color"} {
		if _, ok := a.Feeds[0].Products[0][col]; !ok {
			t.Fatalf("feed lacks column %s", col)
		}
	}
	// Each call returns a fresh copy: changing one does not change the next.
	fx.Accounts[0].APIKey = "changed"
	if DemoFixture().Accounts[0].APIKey != "demo-key" {
		t.Fatal("DemoFixture shares state between calls")
	}
}

func TestParseFixtureErrors(t *testing.T) {
	cases := map[string]string{
		"no accounts":    `{"accounts":[]}`,
		"unknown field":  `{"accounts":[{"apiKey":"k","secret":"s"}],"limitz":{}}`,
		"no secret":      `{"accounts":[{"apiKey":"k"}]}`,
		"duplicate key":  `{"accounts":[{"apiKey":"k","secret":"s"},{"apiKey":"k","secret":"t"}]}`,
		"bad status":     `{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"c","status":"gone"}]}]}`,
		"duplicate hash": `{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"c"},{"collectionHash":"c"}]}]}`,
		"template pages": `{"accounts":[{"apiKey":"k","secret":"s","templates":[{"templateHash":"t","pages":0}]}]}`,
		"product value":  `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","products":[{"sku":["x"]}]}]}]}`,
		"negative limit": `{"limits":{"maxPages":-1},"accounts":[{"apiKey":"k","secret":"s"}]}`,
		"bad fault kind": `{"faults":{"rate":0.5,"kinds":["fire"]},"accounts":[{"apiKey":"k","secret":"s"}]}`,
		"trailing data":  `{"accounts":[{"apiKey":"k","secret":"s"}]} {}`,
		"negative delay": `{"generation":{"delayMs":-5},"accounts":[{"apiKey":"k","secret":"s"}]}`,
		"result status":  `{"generation":{"resultStatus":"done"},"accounts":[{"apiKey":"k","secret":"s"}]}`,
	}
	for name, js := range cases {
		if _, err := ParseFixture([]byte(js)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	fx, err := ParseFixture([]byte(`{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","products":[{"sku":"A","price":12.5,"new":true}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	feed, _ := e.store.Account("k").Feed("f")
	if p := feed.Products[0]; p["price"] != "12.5" || p["new"] != "true" {
		t.Fatalf("scalar product values %v", p)
	}
}

func TestLoadFixture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fx.json")
	if err := os.WriteFile(path, []byte(`{"accounts":[{"apiKey":"k","secret":"s"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fx, err := LoadFixture(path)
	if err != nil || fx.Accounts[0].APIKey != "k" {
		t.Fatalf("%v %v", fx, err)
	}
	if _, err := LoadFixture(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("missing file accepted")
	}
	if err := os.WriteFile(path, []byte(`{"accounts":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFixture(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("error does not name the file: %v", err)
	}
}
