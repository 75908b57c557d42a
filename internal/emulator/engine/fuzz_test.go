package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeJSON checks the strict JSON reader against encoding/json: it
// never panics, accepts only valid JSON, and refuses valid JSON only for a
// repeated field or one of the emulator's limits. The seeds are in
// testdata/fuzz/FuzzDecodeJSON.
func FuzzDecodeJSON(f *testing.F) {
	f.Add(`[{"sectionType":"blank"}]`)
	f.Add(`{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, raw string) {
		// The one-pass reader and the streaming reader agree.
		fast, fastOK := scanJSON(raw)
		slow, slowErr := decodeJSONStream(raw, "sections")
		if fastOK != (slowErr == nil) || fastOK && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: one pass %v %#v, streaming %v %#v", raw, fastOK, fast, slowErr, slow)
		}
		v, err := decodeJSON(raw, "sections")
		valid := json.Valid([]byte(raw))
		if err == nil {
			if !valid {
				t.Fatalf("accepted invalid JSON %q", raw)
			}
			if _, err := json.Marshal(v); err != nil {
				t.Fatalf("decoded value does not encode: %v", err)
			}
			return
		}
		var dup *duplicateField
		var limit *limitExceeded
		if valid && !errors.As(err, &dup) && !errors.As(err, &limit) {
			t.Fatalf("refused valid JSON %q: %v", raw, err)
		}
		if errors.As(err, &dup) && !strings.HasPrefix(dup.path, "sections") {
			t.Fatalf("duplicate field path %q outside the parameter", dup.path)
		}
	})
}

// FuzzParameters runs every JSON parameter's validation on any input: it
// never panics, and a refusal always says why, each reason naming the
// parameter's path.
func FuzzParameters(f *testing.F) {
	f.Add(`[{"sectionType":"static","templates":[{"templateHash":"tpl-a"}]}]`)
	f.Add(`{"permissions":[{"type":"teammate","email":"a@example.com"}]}`)
	l := newLib([]Template{{Hash: "tpl-a", Pages: 3, Layers: []string{"title"}, ProductsPerPage: 2}},
		Feed{Hash: "feed-a", Products: []Product{{"sku": "A", "price": "10"}, {"sku": "B", "price": "x"}}})
	f.Fuzz(func(t *testing.T, raw string) {
		for name, run := range map[string]func(string) *Invalid{
			"sections(template)": func(s string) *Invalid { _, inv := TemplateSections(s, l); return inv },
			"sections(catalog)":  func(s string) *Invalid { _, inv := CatalogSections(s, l); return inv },
		} {
			inv := run(raw)
			if inv == nil {
				continue
			}
			if len(inv.Errors) == 0 {
				t.Fatalf("%s: refused %q without a reason", name, raw)
			}
			for _, e := range inv.Errors {
				if !strings.HasPrefix(e, "sections") {
					t.Fatalf("%s: error %q does not name its path", name, e)
				}
			}
		}
		if _, inv := ParsePermissions(raw); inv != nil && len(inv.Errors) == 0 {
			t.Fatalf("permissions: refused %q without a reason", raw)
		}
	})
}
