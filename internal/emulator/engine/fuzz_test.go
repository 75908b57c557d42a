package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeJSON checks the strict JSON reader against encoding/json: it
// never panics, accepts only valid JSON and then decodes it as
// encoding/json does (numbers as json.Number), and refuses valid JSON only
// for a repeated field or one of the emulator's limits; a syntax error is
// worded as encoding/json words it. The seeds are in
// testdata/fuzz/FuzzDecodeJSON.
func FuzzDecodeJSON(f *testing.F) {
	f.Add(`[{"sectionType":"blank"}]`)
	f.Add(`{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := decodeJSON(raw, "sections")
		valid := json.Valid([]byte(raw))
		if err == nil {
			if !valid {
				t.Fatalf("accepted invalid JSON %q", raw)
			}
			dec := json.NewDecoder(strings.NewReader(raw))
			dec.UseNumber()
			var want any
			if err := dec.Decode(&want); err != nil || !reflect.DeepEqual(v, want) {
				t.Fatalf("%q: read %#v, encoding/json %#v (%v)", raw, v, want, err)
			}
			return
		}
		var dup *duplicateField
		var limit *limitExceeded
		switch {
		case errors.As(err, &dup):
			if !strings.HasPrefix(dup.path, "sections") {
				t.Fatalf("duplicate field path %q outside the parameter", dup.path)
			}
		case errors.As(err, &limit):
		case valid:
			t.Fatalf("refused valid JSON %q: %v", raw, err)
		default:
			if want := syntaxError(raw); err.Error() != want.Error() {
				t.Fatalf("%q: error %q, encoding/json says %q", raw, err, want)
			}
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
