package engine

import (
	"math"
	"testing"
)

var templateLib = newLib([]Template{
	{Hash: "tpl-cover", Pages: 2, Layers: []string{"headline", "gallery"}},
	{Hash: "tpl-body", Pages: 5, Layers: []string{"text"}},
	{Hash: "tpl-product", Pages: 1, ProductsPerPage: 6},
})

func TestTemplateSectionsPageCount(t *testing.T) {
	cases := []struct {
		name     string
		sections string
		pages    int
	}{
		{"all pages when templatePages omitted", `[{"sectionType":"static","templates":[{"templateHash":"tpl-body"}]}]`, 5},
		{"templatePages null means all", `[{"sectionType":"static","templates":[{"templateHash":"tpl-body","templatePages":null}]}]`, 5},
		{"templates in order add up", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"},{"templateHash":"tpl-body"}]}]`, 7},
		{"selected pages", `[{"sectionType":"static","templates":[{"templateHash":"tpl-body","templatePages":[0,2,4]}]}]`, 3},
		{"out-of-range and negative indexes skipped", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[1,2,-1,99]}]}]`, 1},
		{"repeated index renders again", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[0,0,1]}]}]`, 3},
		{"empty selection renders nothing", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[]},{"templateHash":"tpl-product"}]}]`, 1},
		{"blank default one page", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]},{"sectionType":"blank"}]`, 3},
		{"blank pageCount", `[{"sectionType":"blank","pageCount":4,"pageBreak":true},{"sectionType":"static","templates":[{"templateHash":"tpl-product"}]}]`, 5},
		{"huge blank sections saturate", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]},{"sectionType":"blank","pageCount":9223372036854775807},{"sectionType":"blank","pageCount":9223372036854775807}]`, math.MaxInt},
		{"pageBreak adds no page", `[{"sectionType":"static","pageBreak":true,"templates":[{"templateHash":"tpl-cover"}]},{"sectionType":"static","pageBreak":false,"templates":[{"templateHash":"tpl-cover"}]}]`, 4},
		// Spec: "invalid indexes are skipped"; an entry that is no integer is no index.
		{"non-integer templatePages entries skipped", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[0,1.5,"1",true,null,{},[1]]}]}]`, 1},
		{"integral numbers are indexes", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[1e0,0.0,1.0e0]}]}]`, 3},
		// Spec: "`name` matches the layer label"; no error is given for a name that matches none.
		{"element of no layer ignored", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[{"name":"text","value":"x"}]}]`, 2},
		{"element layer of another section's template ignored", `[{"sectionType":"static","templates":[{"templateHash":"tpl-body"}]},{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[{"name":"text","value":"x"}]}]`, 7},
		{"layer named twice accepted", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[{"name":"headline","value":"a"},{"name":"headline","value":"b"}]}]`, 2},
		{"elements of known layers", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"},{"templateHash":"tpl-body"}],
			"elements":[{"name":"headline","value":"Spring"},{"name":"gallery","value":["https://e.x/a.jpg","https://e.x/b.jpg"]},{"name":"text","value":""}]}]`, 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen, bad := TemplateSections(tc.sections, templateLib)
			assertInvalid(t, bad, nil)
			if gen.PageCount != tc.pages {
				t.Errorf("PageCount = %d, want %d", gen.PageCount, tc.pages)
			}
			if gen.Layout != nil {
				t.Errorf("Layout = %v, want nil for a template collection", gen.Layout)
			}
		})
	}
}

func TestTemplateSectionsRejects(t *testing.T) {
	const cover = `{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]}`
	cases := []struct {
		name     string
		sections string
		want     []string
	}{
		{"not JSON", `[{`, []string{"sections: must be valid JSON: unexpected EOF"}},
		{"empty parameter", ``, []string{"sections: must be valid JSON: unexpected EOF"}},
		{"truncated object", `[{"sectionType":"blank",`, []string{"sections: must be valid JSON: unexpected EOF"}},
		{"trailing comma", `[{"sectionType":"blank"},]`, []string{"sections: must be valid JSON: invalid character ']' looking for beginning of value"}},
		{"repeated field", `[` + cover + `,{"sectionType":"blank","pageCount":1,"pageCount":2}]`, []string{"sections[1].pageCount: duplicate field"}},
		{"repeated nested field", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templateHash":"tpl-body"}]}]`,
			[]string{"sections[0].templates[0].templateHash: duplicate field"}},
		{"trailing data", `[] []`, []string{"sections: must be valid JSON: unexpected data after the JSON value"}},
		{"not an array", `{"sectionType":"static"}`, []string{"sections: must be an array, got an object"}},
		{"empty array", `[]`, []string{"sections: must be a non-empty array of sections"}},
		{"section not an object", `[` + cover + `,"blank"]`, []string{"sections[1]: must be an object, got a string"}},
		{"no static section", `[{"sectionType":"blank"}]`, []string{"sections: must include at least one static section"}},
		{"feed section", `[` + cover + `,{"sectionType":"feed","sources":[{"sourceHash":"f"}]}]`,
			[]string{"sections[1].sectionType: feed sections are not accepted by collection.createFromTemplate"}},
		{"unknown section type", `[{"sectionType":"Static","templates":[]}]`, []string{
			`sections[0].sectionType: must be "static" or "blank", got "Static"`,
			"sections: must include at least one static section"}},
		{"sectionType missing", `[` + cover + `,{"pageCount":2}]`, []string{"sections[1].sectionType: is required"}},
		{"sectionType not a string", `[` + cover + `,{"sectionType":1}]`, []string{"sections[1].sectionType: must be a string, got a number"}},
		{"static without templates", `[{"sectionType":"static"}]`,
			[]string{"sections[0].templates: a static section needs at least one template"}},
		{"static with empty templates", `[{"sectionType":"static","templates":[]}]`,
			[]string{"sections[0].templates: a static section needs at least one template"}},
		{"templates not an array", `[{"sectionType":"static","templates":{"templateHash":"tpl-cover"}}]`,
			[]string{"sections[0].templates: must be an array, got an object"}},
		{"templateHash missing", `[{"sectionType":"static","templates":[{"templatePages":[0]}]}]`,
			[]string{"sections[0].templates[0].templateHash: is required"}},
		{"templateHash empty", `[{"sectionType":"static","templates":[{"templateHash":""}]}]`,
			[]string{"sections[0].templates[0].templateHash: must not be empty"}},
		{"unknown template", `[` + cover + `,{"sectionType":"static","templates":[{"templateHash":"tpl-body"},{"templateHash":"tpl-nope"}]}]`,
			[]string{`sections[1].templates[1].templateHash: unknown template "tpl-nope"`}},
		{"templatePages not an array", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":0}]}]`,
			[]string{"sections[0].templates[0].templatePages: must be an array, got a number"}},
		{"pageBreak not a boolean", `[{"sectionType":"static","pageBreak":"yes","templates":[{"templateHash":"tpl-cover"}]}]`,
			[]string{"sections[0].pageBreak: must be a boolean, got a string"}},
		{"blank pageCount zero", `[` + cover + `,{"sectionType":"blank","pageCount":0}]`,
			[]string{"sections[1].pageCount: must be an integer of at least 1, got 0"}},
		{"blank pageCount fraction", `[` + cover + `,{"sectionType":"blank","pageCount":2.5}]`,
			[]string{"sections[1].pageCount: must be an integer of at least 1, got 2.5"}},
		{"blank pageCount string", `[` + cover + `,{"sectionType":"blank","pageCount":"2"}]`,
			[]string{`sections[1].pageCount: must be an integer of at least 1, got "2"`}},
		{"blank with templates", `[` + cover + `,{"sectionType":"blank","templates":[]}]`,
			[]string{"sections[1].templates: unknown field"}},
		{"static with pageCount and typo", `[{"sectionType":"static","pageCount":1,"template":[],"templates":[{"templateHash":"tpl-cover","pages":[0]}]}]`, []string{
			"sections[0].templates[0].pages: unknown field",
			"sections[0].pageCount: unknown field",
			"sections[0].template: unknown field"}},
		{"unknown template, elements unchecked", `[{"sectionType":"static","templates":[{"templateHash":"tpl-x"}],"elements":[{"name":"headline","value":"x"}]}]`,
			[]string{`sections[0].templates[0].templateHash: unknown template "tpl-x"`}},
		{"element shapes", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[
			{"value":"a"},{"name":"headline"},{"name":"gallery","value":["a",2]},{"name":5,"value":{"url":"a"}},{"name":"x","value":"y","label":"z"}]}]`, []string{
			"sections[0].elements[0].name: is required",
			"sections[0].elements[1].value: is required",
			"sections[0].elements[2].value[1]: must be a string, got a number",
			"sections[0].elements[3].name: must be a string, got a number",
			"sections[0].elements[3].value: must be a string or an array of strings, got an object",
			"sections[0].elements[4].label: unknown field"}},
		{"elements not an array", `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":{}}]`,
			[]string{"sections[0].elements: must be an array, got an object"}},
		{"errors of all sections collected in order", `[{"sectionType":"static"},{"sectionType":"blank","pageCount":-1},{"sectionType":"feed"}]`, []string{
			"sections[0].templates: a static section needs at least one template",
			"sections[1].pageCount: must be an integer of at least 1, got -1",
			"sections[2].sectionType: feed sections are not accepted by collection.createFromTemplate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen, bad := TemplateSections(tc.sections, templateLib)
			assertInvalid(t, bad, tc.want)
			if gen.PageCount != 0 {
				t.Errorf("PageCount = %d with a failure", gen.PageCount)
			}
		})
	}
}
