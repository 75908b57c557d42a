package engine

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

var catalogLib = newLib(
	[]Template{
		{Hash: "tpl-grid", Pages: 1, ProductsPerPage: 2},
		{Hash: "tpl-six", Pages: 1, ProductsPerPage: 6},
		{Hash: "tpl-single", Pages: 1},
	},
	Feed{Hash: "feed-shoes", Products: []Product{
		{"sku": "A1", "brand": "Acme", "price": "19.99", "size": "M"},
		{"sku": "A2", "brand": "Bolt", "price": "5", "size": "S"},
		{"sku": "A3", "brand": "Acme", "price": "120", "size": "L"},
		{"sku": "A4", "brand": "Core", "price": "n/a", "size": "M"},
		{"sku": "A5", "brand": "acme", "price": "10", "size": "XL"},
	}},
	Feed{Hash: "feed-hats", Products: []Product{
		{"sku": "H1", "brand": "Bolt", "price": "99.5"},
		{"sku": "H2", "brand": "Acme", "price": "10.0"},
	}},
)

// feedSectionJSON builds one feed section over feed-shoes with tpl-single
// (one product a page) plus the given extra fields.
func feedSectionJSON(extra string) string {
	s := `{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-single"}]`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func TestCatalogSectionsRejects(t *testing.T) {
	cases := []struct {
		name     string
		sections string
		want     []string
	}{
		{"not JSON", `nope`, []string{"sections: must be valid JSON: invalid character 'o' in literal null (expecting 'u')"}},
		{"not an array", `"feed"`, []string{"sections: must be an array, got a string"}},
		{"empty", `[]`, []string{"sections: must be a non-empty array of sections"}},
		{"section null", `[null]`, []string{"sections[0]: must be an object, got null"}},
		{"static section", `[` + feedSectionJSON("") + `,{"sectionType":"static"}]`,
			[]string{"sections[1].sectionType: static sections are not accepted by collection.createCatalog; only feed sections are"}},
		{"blank section", `[{"sectionType":"blank"}]`,
			[]string{"sections[0].sectionType: blank sections are not accepted by collection.createCatalog; only feed sections are"}},
		{"unknown type", `[{"sectionType":"product"}]`, []string{`sections[0].sectionType: must be "feed", got "product"`}},
		{"sources missing", `[{"sectionType":"feed","templates":[{"templateHash":"tpl-grid"}]}]`,
			[]string{"sections[0].sources: sources must be provided"}},
		{"sources empty", `[{"sectionType":"feed","sources":[],"templates":[{"templateHash":"tpl-grid"}]}]`,
			[]string{"sections[0].sources: sources must be provided"}},
		{"sources of strings", `[{"sectionType":"feed","sources":["feed-shoes"],"templates":[{"templateHash":"tpl-grid"}]}]`,
			[]string{"sections[0].sources[0]: must be an object, got a string"}},
		{"unknown feed", `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"},{"sourceHash":"feed-x"}],"templates":[{"templateHash":"tpl-grid"}]}]`,
			[]string{`sections[0].sources[1].sourceHash: unknown feed "feed-x"`}},
		{"templates missing", `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}]}]`,
			[]string{"sections[0].templates: templates must be provided"}},
		{"templates empty and sources missing", `[{"sectionType":"feed","templates":[]}]`, []string{
			"sections[0].sources: sources must be provided",
			"sections[0].templates: templates must be provided"}},
		// Spec: "Only the first entry is used for product layout": later entries are not looked up.
		{"unknown first template, later ones unread", `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-nope"},{"templateHash":"tpl-gone","templatePages":[0]}]}]`, []string{
			`sections[0].templates[0].templateHash: unknown template "tpl-nope"`}},
		{"pageBreak is not a feed field", `[` + feedSectionJSON(`"pageBreak":true`) + `]`,
			[]string{"sections[0].pageBreak: unknown field"}},
		{"groupBy shapes", `[` + feedSectionJSON(`"groupBy":[{"pageBreak":true},{"field":"brand","pageBreak":1},"size"]`) + `]`, []string{
			"sections[0].groupBy[0].field: is required",
			"sections[0].groupBy[1].pageBreak: must be a boolean, got a number",
			"sections[0].groupBy[2]: must be an object, got a string"}},
		{"groupBy not an array", `[` + feedSectionJSON(`"groupBy":{"field":"brand"}`) + `]`,
			[]string{"sections[0].groupBy: must be an array, got an object"}},
		{"sortBy shapes", `[` + feedSectionJSON(`"sortBy":[{"field":"price"},{"field":"price","order":"ASC"},{"field":"size","order":[]},{"field":"size","order":["S",1]},{"order":"asc","dir":"x"},{"field":"a","order":true}]`) + `]`, []string{
			"sections[0].sortBy[0].order: is required",
			`sections[0].sortBy[1].order: must be "asc", "desc" or an array of values, got "ASC"`,
			"sections[0].sortBy[2].order: a custom order must list at least one value",
			"sections[0].sortBy[3].order[1]: must be a string, got a number",
			"sections[0].sortBy[4].field: is required",
			"sections[0].sortBy[4].dir: unknown field",
			`sections[0].sortBy[5].order: must be "asc", "desc" or an array of values, got a boolean`}},
		{"filter block shapes", `[` + feedSectionJSON(`"filters":[{"conditions":[{"field":"sku","operator":"eq","value":"A1"}]},{"mode":"keep","match":"some","conditions":[]},{"mode":"include","match":1},"x"]`) + `]`, []string{
			"sections[0].filters[0].mode: is required",
			`sections[0].filters[1].mode: must be "include" or "exclude", got "keep"`,
			`sections[0].filters[1].match: must be "all" or "any", got "some"`,
			"sections[0].filters[1].conditions: conditions must be provided",
			`sections[0].filters[2].match: must be "all" or "any", got 1`,
			"sections[0].filters[2].conditions: conditions must be provided",
			"sections[0].filters[3]: must be an object, got a string"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen, bad := CatalogSections(tc.sections, catalogLib)
			assertInvalid(t, bad, tc.want)
			if gen.PageCount != 0 || gen.Layout != nil {
				t.Errorf("generation %+v returned with a failure", gen)
			}
		})
	}
}

func TestCatalogConditionValues(t *testing.T) {
	cases := []struct {
		condition string
		want      string // "" when valid
	}{
		{`"operator":"in","value":["A1","A2"]`, ""},
		{`"operator":"nin","value":["A1"]`, ""},
		{`"operator":"in","value":"A1"`, `value: operator "in" needs an array of strings, got a string`},
		{`"operator":"nin","value":[]`, `value: operator "nin" needs at least one value`},
		{`"operator":"in","value":["A1",2]`, `value[1]: must be a string, got a number`},
		{`"operator":"eq","value":"A1"`, ""},
		{`"operator":"eq","value":""`, ""},
		{`"operator":"ne","value":1`, `value: operator "ne" needs a string, got a number`},
		{`"operator":"contains","value":["A"]`, `value: operator "contains" needs a string, got an array`},
		{`"operator":"lt","value":"10"`, ""},
		{`"operator":"lte","value":"-2.5"`, ""},
		{`"operator":"gt","value":"1e3"`, ""},
		{`"operator":"gte","value":".5"`, ""},
		{`"operator":"lt","value":10`, `value: operator "lt" needs a numeric string, got 10`},
		{`"operator":"gt","value":"ten"`, `value: operator "gt" needs a numeric string, got "ten"`},
		{`"operator":"gte","value":" 10"`, `value: operator "gte" needs a numeric string, got " 10"`},
		{`"operator":"lte","value":"NaN"`, `value: operator "lte" needs a numeric string, got "NaN"`},
		{`"operator":"lt","value":"Inf"`, `value: operator "lt" needs a numeric string, got "Inf"`},
		{`"operator":"lt","value":"0x10"`, `value: operator "lt" needs a numeric string, got "0x10"`},
		{`"operator":"between","value":["10","99.5"]`, ""},
		{`"operator":"between","value":["5","5"]`, ""},
		{`"operator":"between","value":["10"]`, `value: operator "between" needs exactly two numeric strings [min, max], got 1 values`},
		{`"operator":"between","value":["1","2","3"]`, `value: operator "between" needs exactly two numeric strings [min, max], got 3 values`},
		{`"operator":"between","value":"1-2"`, `value: operator "between" needs exactly two numeric strings [min, max], got a string`},
		{`"operator":"between","value":["1",2]`, `value[1]: must be a numeric string, got 2`},
		{`"operator":"between","value":["low","2"]`, `value[0]: must be a numeric string, got "low"`},
		{`"operator":"between","value":["9","10"]`, ""},
		{`"operator":"between","value":["10","9"]`, `value: min "10" is greater than max "9"`},
		{`"operator":"like","value":"A"`, `operator: unknown operator "like"`},
		{`"operator":"EQ","value":"A"`, `operator: unknown operator "EQ"`},
		{`"operator":"eq"`, `value: is required`},
		{`"value":"A"`, `operator: is required`},
	}
	for _, tc := range cases {
		t.Run(tc.condition, func(t *testing.T) {
			raw := `[` + feedSectionJSON(`"filters":[{"mode":"include","conditions":[{"field":"price",`+tc.condition+`}]}]`) + `]`
			_, bad := CatalogSections(raw, catalogLib)
			var want []string
			if tc.want != "" {
				want = []string{"sections[0].filters[0].conditions[0]." + tc.want}
			}
			assertInvalid(t, bad, want)
		})
	}
}

func TestCatalogConditionShapes(t *testing.T) {
	raw := `[` + feedSectionJSON(`"filters":[{"mode":"exclude","conditions":[
		{"operator":"eq","value":"A"},
		{"field":"sku","operator":"eq","value":"A","values":["B"]},
		"sku",
		{"field":"sku","operator":"like"}]}]`) + `]`
	_, bad := CatalogSections(raw, catalogLib)
	assertInvalid(t, bad, []string{
		"sections[0].filters[0].conditions[0].field: is required",
		"sections[0].filters[0].conditions[1].values: unknown field",
		"sections[0].filters[0].conditions[2]: must be an object, got a string",
		`sections[0].filters[0].conditions[3].operator: unknown operator "like"`,
		"sections[0].filters[0].conditions[3].value: is required",
	})
}

// catalog evaluates sections over catalogLib and fails the test on a
// validation error.
func catalog(t *testing.T, sections string) Generation {
	t.Helper()
	gen, bad := CatalogSections(sections, catalogLib)
	if bad != nil {
		t.Fatalf("unexpected failure: %v", bad)
	}
	if gen.PageCount != len(gen.Layout) {
		t.Fatalf("PageCount %d differs from %d laid-out pages", gen.PageCount, len(gen.Layout))
	}
	return gen
}

// skus flattens a layout into the SKUs in page order.
func skus(layout [][]string) string {
	var all []string
	for _, page := range layout {
		all = append(all, page...)
	}
	return strings.Join(all, ",")
}

func TestCatalogOperators(t *testing.T) {
	cases := []struct {
		condition string
		want      string
	}{
		{`"field":"sku","operator":"eq","value":"A3"`, "A3"},
		{`"field":"brand","operator":"eq","value":"acme"`, "A5"},
		{`"field":"brand","operator":"ne","value":"Acme"`, "A2,A4,A5"},
		{`"field":"sku","operator":"in","value":["A4","A1","Z9"]`, "A1,A4"},
		{`"field":"size","operator":"nin","value":["M","L"]`, "A2,A5"},
		{`"field":"brand","operator":"contains","value":"cm"`, "A1,A3,A5"},
		{`"field":"brand","operator":"contains","value":"Ac"`, "A1,A3"},
		{`"field":"price","operator":"lt","value":"10"`, "A2"},
		{`"field":"price","operator":"lte","value":"10"`, "A2,A5"},
		{`"field":"price","operator":"gt","value":"19.99"`, "A3"},
		{`"field":"price","operator":"gte","value":"19.99"`, "A1,A3"},
		{`"field":"price","operator":"gt","value":"-1e9"`, "A1,A2,A3,A5"},
		{`"field":"price","operator":"between","value":["10","19.99"]`, "A1,A5"},
		{`"field":"price","operator":"between","value":["5","5"]`, "A2"},
		{`"field":"price","operator":"between","value":["10.5","19.98"]`, ""},
		// A missing column reads as "".
		{`"field":"color","operator":"eq","value":""`, "A1,A2,A3,A4,A5"},
		{`"field":"color","operator":"nin","value":["red"]`, "A1,A2,A3,A4,A5"},
		{`"field":"color","operator":"lt","value":"1"`, ""},
		{`"field":"price","operator":"eq","value":"5.0"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.condition, func(t *testing.T) {
			gen := catalog(t, `[`+feedSectionJSON(`"filters":[{"mode":"include","conditions":[{`+tc.condition+`}]}]`)+`]`)
			if got := skus(gen.Layout); got != tc.want {
				t.Errorf("SKUs = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCatalogFilterBlocks(t *testing.T) {
	cases := []struct {
		name    string
		filters string
		want    string
	}{
		{"no filters keep every product in source order", `[]`, "A1,A2,A3,A4,A5"},
		{"all is AND", `[{"mode":"include","match":"all","conditions":[{"field":"brand","operator":"eq","value":"Acme"},{"field":"price","operator":"lt","value":"100"}]}]`, "A1"},
		{"match defaults to all", `[{"mode":"include","conditions":[{"field":"brand","operator":"eq","value":"Acme"},{"field":"price","operator":"lt","value":"100"}]}]`, "A1"},
		{"any is OR", `[{"mode":"include","match":"any","conditions":[{"field":"brand","operator":"eq","value":"Bolt"},{"field":"size","operator":"eq","value":"L"}]}]`, "A2,A3"},
		{"exclude all", `[{"mode":"exclude","conditions":[{"field":"brand","operator":"eq","value":"Acme"},{"field":"size","operator":"eq","value":"M"}]}]`, "A2,A3,A4,A5"},
		{"exclude any", `[{"mode":"exclude","match":"any","conditions":[{"field":"brand","operator":"eq","value":"Acme"},{"field":"size","operator":"eq","value":"M"}]}]`, "A2,A5"},
		{"blocks apply in order", `[
			{"mode":"include","conditions":[{"field":"price","operator":"gte","value":"5"}]},
			{"mode":"exclude","conditions":[{"field":"sku","operator":"in","value":["A3"]}]},
			{"mode":"include","match":"any","conditions":[{"field":"size","operator":"eq","value":"S"},{"field":"brand","operator":"contains","value":"cme"}]}]`, "A1,A2,A5"},
		{"include after exclude narrows what is left", `[
			{"mode":"exclude","conditions":[{"field":"size","operator":"eq","value":"M"}]},
			{"mode":"include","conditions":[{"field":"sku","operator":"in","value":["A1","A2"]}]}]`, "A2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen := catalog(t, `[`+feedSectionJSON(`"filters":`+tc.filters)+`]`)
			if got := skus(gen.Layout); got != tc.want {
				t.Errorf("SKUs = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCatalogSort(t *testing.T) {
	cases := []struct {
		name   string
		sortBy string
		want   string
	}{
		{"numeric asc, non-numeric last", `[{"field":"price","order":"asc"}]`, "A2,A5,A1,A3,A4"},
		{"numeric desc, non-numeric first", `[{"field":"price","order":"desc"}]`, "A4,A3,A1,A5,A2"},
		{"string asc is byte-wise", `[{"field":"brand","order":"asc"}]`, "A1,A3,A2,A4,A5"},
		{"string desc", `[{"field":"brand","order":"desc"}]`, "A5,A4,A2,A1,A3"},
		{"stable on ties", `[{"field":"size","order":"asc"}]`, "A3,A1,A4,A2,A5"},
		{"second key breaks ties", `[{"field":"size","order":"asc"},{"field":"sku","order":"desc"}]`, "A3,A4,A1,A2,A5"},
		{"custom order, unmatched after in their order", `[{"field":"size","order":["S","M"]}]`, "A2,A1,A4,A3,A5"},
		{"custom order repeated value keeps first position", `[{"field":"size","order":["L","S","L"]}]`, "A3,A2,A1,A4,A5"},
		{"later key orders unmatched products", `[{"field":"size","order":["XL"]},{"field":"price","order":"desc"}]`, "A5,A4,A3,A1,A2"},
		{"missing column sorts as empty string", `[{"field":"color","order":"desc"}]`, "A1,A2,A3,A4,A5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen := catalog(t, `[`+feedSectionJSON(`"sortBy":`+tc.sortBy)+`]`)
			if got := skus(gen.Layout); got != tc.want {
				t.Errorf("SKUs = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCatalogSortIsStableOnLargeInput(t *testing.T) {
	// Small inputs are sorted by insertion, which is stable anyway; a few
	// hundred products exercise the path where stability must be earned.
	products := make([]Product, 500)
	for i := range products {
		products[i] = Product{"sku": fmt.Sprintf("P%03d", i), "k": strconv.Itoa((i * 7) % 3)}
	}
	l := newLib([]Template{{Hash: "t", Pages: 1, ProductsPerPage: 1000}}, Feed{Hash: "f", Products: products})
	gen, bad := CatalogSections(`[{"sectionType":"feed","sources":[{"sourceHash":"f"}],"templates":[{"templateHash":"t"}],"sortBy":[{"field":"k","order":"desc"}]}]`, l)
	assertInvalid(t, bad, nil)
	var want []string
	for _, k := range []string{"2", "1", "0"} {
		for _, p := range products {
			if p["k"] == k {
				want = append(want, p.SKU())
			}
		}
	}
	if got := skus(gen.Layout); got != strings.Join(want, ",") {
		t.Errorf("ties lost their source order:\n got %s\nwant %s", got, strings.Join(want, ","))
	}
}

func TestCatalogSortMixedColumnIsTransitive(t *testing.T) {
	// Pairwise "numbers as numbers, else strings" would cycle here
	// (9 < 10, "10" < "1a", "1a" < "9"); the order must not depend on input order.
	products := []Product{{"sku": "p10", "v": "10"}, {"sku": "p9", "v": "9"}, {"sku": "p1a", "v": "1a"}, {"sku": "pe", "v": ""}}
	want := "p9,p10,pe,p1a"
	for shift := range products {
		rotated := append(append([]Product{}, products[shift:]...), products[:shift]...)
		l := newLib([]Template{{Hash: "t", Pages: 1, ProductsPerPage: 10}}, Feed{Hash: "f", Products: rotated})
		gen, bad := CatalogSections(`[{"sectionType":"feed","sources":[{"sourceHash":"f"}],"templates":[{"templateHash":"t"}],"sortBy":[{"field":"v","order":"asc"}]}]`, l)
		assertInvalid(t, bad, nil)
		if got := skus(gen.Layout); got != want {
			t.Errorf("rotation %d: SKUs = %q, want %q", shift, got, want)
		}
	}
}

func TestCatalogLayout(t *testing.T) {
	cases := []struct {
		name     string
		sections string
		want     [][]string
	}{
		{"productsPerPage fills pages in order",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}]}]`,
			[][]string{{"A1", "A2"}, {"A3", "A4"}, {"A5"}}},
		{"only the first template lays out",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"},{"templateHash":"tpl-grid"}]}]`,
			[][]string{{"A1", "A2", "A3", "A4", "A5"}}},
		{"productsPerPage 0 means one a page",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-single"}]}]`,
			[][]string{{"H1"}, {"H2"}}},
		{"sources concatenate in order",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"},{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}]}]`,
			[][]string{{"H1", "H2", "A1", "A2", "A3", "A4"}, {"A5"}}},
		{"each section starts a new page",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-six"}]},
			  {"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}]}]`,
			[][]string{{"H1", "H2"}, {"A1", "A2"}, {"A3", "A4"}, {"A5"}}},
		{"nothing left gives no pages",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-six"}],
			   "filters":[{"mode":"exclude","conditions":[{"field":"sku","operator":"contains","value":"H"}]}]}]`,
			[][]string{}},
		{"an empty section adds no page",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-six"}],
			   "filters":[{"mode":"include","conditions":[{"field":"sku","operator":"eq","value":"none"}]}]},
			  {"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-six"}]}]`,
			[][]string{{"H1", "H2"}}},
		{"group without pageBreak only reorders",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],"groupBy":[{"field":"size"}]}]`,
			[][]string{{"A1", "A4", "A2", "A3", "A5"}}},
		{"group pageBreak starts a page per value, groups by first appearance after sorting",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"},{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-grid"}],
			   "sortBy":[{"field":"price","order":"desc"}],"groupBy":[{"field":"brand","pageBreak":true}]}]`,
			// price desc: A4(n/a) A3 H1 A1 H2 A5 A2 -> Core | Acme: A3 A1 H2 | Bolt: H1 A2 | acme: A5
			[][]string{{"A4"}, {"A3", "A1"}, {"H2"}, {"H1", "A2"}, {"A5"}}},
		{"nested groups, break on the inner level also when only the outer value changes",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],
			   "groupBy":[{"field":"brand"},{"field":"size","pageBreak":true}]}]`,
			// Acme: M(A1) L(A3) | Bolt: S(A2) | Core: M(A4) | acme: XL(A5)
			[][]string{{"A1"}, {"A3"}, {"A2"}, {"A4"}, {"A5"}}},
		{"nested groups, inner break when only the outer value changes",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],
			   "filters":[{"mode":"include","conditions":[{"field":"size","operator":"eq","value":"M"}]}],
			   "groupBy":[{"field":"brand"},{"field":"size","pageBreak":true}]}]`,
			// Acme: M(A1) | Core: M(A4): the size group changes with the brand
			[][]string{{"A1"}, {"A4"}}},
		{"nested groups, break on the outer level only",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],
			   "filters":[{"mode":"exclude","conditions":[{"field":"brand","operator":"eq","value":"acme"}]}],
			   "groupBy":[{"field":"size","pageBreak":true},{"field":"brand"}],"sortBy":[{"field":"sku","order":"desc"}]}]`,
			// sku desc: A4 A3 A2 A1 -> M: Core(A4) Acme(A1) | L: A3 | S: A2
			[][]string{{"A4", "A1"}, {"A3"}, {"A2"}}},
		{"page break and a full page close only one page",
			`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}],
			   "filters":[{"mode":"include","conditions":[{"field":"brand","operator":"in","value":["Acme","Bolt"]}]}],
			   "groupBy":[{"field":"brand","pageBreak":true}]}]`,
			[][]string{{"A1", "A3"}, {"A2"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen := catalog(t, tc.sections)
			if !reflect.DeepEqual(gen.Layout, tc.want) {
				t.Errorf("layout = %q, want %q", gen.Layout, tc.want)
			}
		})
	}
}

func BenchmarkCatalog10k(b *testing.B) {
	products := make([]Product, 10000)
	for i := range products {
		products[i] = Product{
			"sku":   fmt.Sprintf("S%05d", i),
			"brand": fmt.Sprintf("Brand %d", i%17),
			"size":  []string{"S", "M", "L", "XL"}[i%4],
			"price": fmt.Sprintf("%d.%02d", (i*7919)%500, i%100),
		}
	}
	l := newLib([]Template{{Hash: "t", Pages: 1, ProductsPerPage: 8}}, Feed{Hash: "f", Products: products})
	raw := `[{"sectionType":"feed","sources":[{"sourceHash":"f"}],"templates":[{"templateHash":"t"}],
		"filters":[{"mode":"exclude","conditions":[{"field":"price","operator":"between","value":["100","150"]}]},
		           {"mode":"include","match":"any","conditions":[{"field":"size","operator":"in","value":["S","M","L"]},{"field":"brand","operator":"contains","value":"1"}]}],
		"sortBy":[{"field":"size","order":["XL","L"]},{"field":"price","order":"desc"}],
		"groupBy":[{"field":"brand","pageBreak":true},{"field":"size"}]}]`
	b.ReportAllocs()
	for b.Loop() {
		if _, bad := CatalogSections(raw, l); bad != nil {
			b.Fatal(bad)
		}
	}
}

func TestNumber(t *testing.T) {
	numeric := map[string]float64{"0": 0, "12": 12, "-3.5": -3.5, "+2": 2, ".5": 0.5, "5.": 5, "1e3": 1000, "2.5E-1": 0.25, "007": 7}
	for s, want := range numeric {
		if got, ok := number(s); !ok || got != want {
			t.Errorf("number(%q) = %v, %v; want %v, true", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "-", ".", "e3", "1e", "1e+", "1.2.3", " 1", "1 ", "1,5", "1_000", "0x10", "NaN", "Inf", "-Infinity", "1e400", "12a"} {
		if got, ok := number(s); ok {
			t.Errorf("number(%q) = %v, true; want not numeric", s, got)
		}
	}
}
