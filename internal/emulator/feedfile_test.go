package emulator

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFeedFixture writes a fixture whose one feed names file (relative),
// plus the file itself in a subdirectory, and loads it.
func writeFeedFixture(t *testing.T, file, content string) (*Fixture, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "feeds"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "feeds", file), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	fx := `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"feed-x","file":"feeds/` + file + `"}]}]}`
	path := filepath.Join(dir, "fixture.json")
	if err := os.WriteFile(path, []byte(fx), 0o600); err != nil {
		t.Fatal(err)
	}
	return LoadFixture(path)
}

func TestFeedFileCSV(t *testing.T) {
	fx, err := writeFeedFixture(t, "products.csv", "\ufeffsku,name,price,brand\r\nA1,\"Runner, blue\",19.99,Acme\nA2,\"Say \"\"hi\"\"\",5,\n")
	if err != nil {
		t.Fatal(err)
	}
	fd := fx.Accounts[0].Feeds[0]
	want := []map[string]any{
		{"sku": "A1", "name": "Runner, blue", "price": "19.99", "brand": "Acme"},
		{"sku": "A2", "name": `Say "hi"`, "price": "5", "brand": ""},
	}
	if !reflect.DeepEqual(fd.Products, want) {
		t.Errorf("products %v, want %v", fd.Products, want)
	}
	if !reflect.DeepEqual(fd.Columns(), []string{"sku", "name", "price", "brand"}) {
		t.Errorf("columns %v", fd.Columns())
	}
	// The emulator lays the file's products out like inline ones.
	e, err := New(Options{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	feed, ok := e.store.Account("k").Feed("feed-x")
	if !ok || len(feed.Products) != 2 || feed.Products[1]["name"] != `Say "hi"` || feed.Products[0].SKU() != "A1" {
		t.Errorf("engine feed %+v", feed)
	}
}

func TestFeedFileJSON(t *testing.T) {
	fx, err := writeFeedFixture(t, "products.json", `[
  {"sku": "B1", "price": 12.5, "new": true},
  {"sku": "B2", "color": "red", "price": 3}
]`)
	if err != nil {
		t.Fatal(err)
	}
	fd := fx.Accounts[0].Feeds[0]
	if len(fd.Products) != 2 || fd.Products[0]["price"] != 12.5 || fd.Products[0]["new"] != true || fd.Products[1]["color"] != "red" {
		t.Errorf("products %v", fd.Products)
	}
	if !reflect.DeepEqual(fd.Columns(), []string{"sku", "price", "new", "color"}) {
		t.Errorf("columns %v", fd.Columns())
	}
}

func TestFeedFileErrors(t *testing.T) {
	cases := []struct {
		name, file, content string
		line, col           int
		msg                 string
	}{
		{"short row", "p.csv", "sku,price,brand\nA1,1,Acme\nA2,2\n", 3, 4, "row has 2 fields, the header names 3 columns"},
		{"long row", "p.csv", "sku,price\nA1,1,extra\n", 2, 6, "row has 3 fields, the header names 2 columns"},
		{"bad quote", "p.csv", "sku,name\nA1,\"open\n", 2, 10, "extraneous or missing \" in quoted-field"},
		{"stray quote", "p.csv", "sku,name\nA1,x\"y\n", 2, 5, "bare \" in non-quoted-field"},
		{"empty column name", "p.csv", "sku,,price\n", 1, 5, "column 2 has no name"},
		{"duplicate column", "p.csv", "sku,price,price\n", 1, 11, `column "price" is named twice`},
		{"empty csv", "p.csv", "", 1, 1, "empty file"},
		{"nested value", "p.json", "[\n  {\"sku\": \"A\"},\n  {\"sku\": \"B\", \"tags\": [\"x\"]}\n]", 3, 24, `column "tags" of product 2 must be a string, number or boolean`},
		{"null value", "p.json", `[{"sku": null}]`, 1, 10, `column "sku" of product 1`},
		{"syntax", "p.json", "[\n {\"sku\": \"A\",}\n]", 2, 14, "invalid JSON"},
		{"not an array", "p.json", `{"sku": "A"}`, 1, 1, "must hold a JSON array"},
		{"not an object", "p.json", `["A"]`, 1, 2, "product 1 must be an object"},
		{"duplicate key", "p.json", `[{"sku": "A", "sku": "B"}]`, 1, 15, `column "sku" appears twice`},
		{"trailing data", "p.json", "[]\n[]", 2, 1, "unexpected data after the array"},
		{"truncated", "p.json", `[{"sku": "A"`, 1, 13, "unexpected end"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := writeFeedFixture(t, tc.file, tc.content)
			var fe *FeedFileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a FeedFileError", err)
			}
			if fe.Line != tc.line || fe.Column != tc.col || !strings.Contains(fe.Msg, tc.msg) {
				t.Errorf("got %d:%d %q, want %d:%d containing %q", fe.Line, fe.Column, fe.Msg, tc.line, tc.col, tc.msg)
			}
			if !strings.Contains(err.Error(), filepath.Join("feeds", tc.file)+":") || !strings.Contains(err.Error(), "accounts[0].feeds[0].file") {
				t.Errorf("error %q does not name the feed and the file", err)
			}
		})
	}
}

func TestFeedFileFixtureErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"missing file":    `{"sourceHash":"f","file":"nope.csv"}`,
		"unknown type":    `{"sourceHash":"f","file":"p.xlsx"}`,
		"file + products": `{"sourceHash":"f","file":"p.csv","products":[{"sku":"A"}]}`,
	}
	if err := os.WriteFile(filepath.Join(dir, "p.xlsx"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, feed := range cases {
		path := filepath.Join(dir, "fx.json")
		if err := os.WriteFile(path, []byte(`{"accounts":[{"apiKey":"k","secret":"s","feeds":[`+feed+`]}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadFixture(path); err == nil || !strings.Contains(err.Error(), "accounts[0].feeds[0]") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	// A fixture built in Go must resolve its files before New.
	fx := &Fixture{Accounts: []AccountFixture{{APIKey: "k", Secret: "s", Feeds: []FeedFixture{{SourceHash: "f", File: "p.csv"}}}}}
	if _, err := New(Options{Fixture: fx}); err == nil || !strings.Contains(err.Error(), "ResolveFeedFiles") {
		t.Errorf("New with an unread file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.csv"), []byte("sku\nZ9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := fx.ResolveFeedFiles(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Fixture: fx}); err != nil {
		t.Errorf("New after ResolveFeedFiles: %v", err)
	}
}

func TestInlineColumnsKeepFixtureOrder(t *testing.T) {
	fx, err := ParseFixture([]byte(`{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","products":[{"sku":"A","zeta":"1","alpha":"2"},{"beta":"3","sku":"B"}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fx.Accounts[0].Feeds[0].Columns(); !reflect.DeepEqual(got, []string{"sku", "zeta", "alpha", "beta"}) {
		t.Errorf("columns %v", got)
	}
}
