package engine

import (
	"reflect"
	"testing"
)

// The player's pages must be the API's pages: the same SKUs on the same
// pages, the same number of template pages.
func TestCatalogPagesMatchLayout(t *testing.T) {
	for _, raw := range []string{
		`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}]}]`,
		`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"},{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-grid"}],
		   "sortBy":[{"field":"price","order":"desc"}],"groupBy":[{"field":"brand","pageBreak":true}]}]`,
		`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],
		   "groupBy":[{"field":"brand"},{"field":"size","pageBreak":true}]}]`,
		`[{"sectionType":"feed","sources":[{"sourceHash":"feed-hats"}],"templates":[{"templateHash":"tpl-six"}],
		   "filters":[{"mode":"exclude","conditions":[{"field":"sku","operator":"contains","value":"H"}]}]}]`,
	} {
		gen := catalog(t, raw)
		pages, bad := CatalogPages(raw, catalogLib)
		assertInvalid(t, bad, nil)
		got := [][]string{}
		for _, p := range pages {
			var skus []string
			for _, e := range p.Entries {
				skus = append(skus, e.Product.SKU())
			}
			got = append(got, skus)
		}
		if !reflect.DeepEqual(got, gen.Layout) {
			t.Errorf("%s\npages %q, layout %q", raw, got, gen.Layout)
		}
	}
	if _, bad := CatalogPages(`[{"sectionType":"static"}]`, catalogLib); bad == nil {
		t.Error("CatalogPages accepted a static section")
	}
}

func TestCatalogPagesGroups(t *testing.T) {
	raw := `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-six"}],
	   "filters":[{"mode":"exclude","conditions":[{"field":"brand","operator":"eq","value":"acme"}]}],
	   "groupBy":[{"field":"size","pageBreak":true},{"field":"brand"}],"sortBy":[{"field":"sku","order":"desc"}]}]`
	// sku desc: A4 A3 A2 A1 -> M: Core(A4) Acme(A1) | L: A3 | S: A2
	pages, bad := CatalogPages(raw, catalogLib)
	assertInvalid(t, bad, nil)
	if len(pages) != 3 {
		t.Fatalf("got %d pages, want 3", len(pages))
	}
	want := [][]GroupHeading{
		{{0, "size", "M"}, {1, "brand", "Core"}},
		{{1, "brand", "Acme"}},
	}
	for i, e := range pages[0].Entries {
		if !reflect.DeepEqual(e.Groups, want[i]) {
			t.Errorf("page 1 entry %d groups %v, want %v", i, e.Groups, want[i])
		}
	}
	if pages[0].GroupBreak || !pages[1].GroupBreak || !pages[2].GroupBreak {
		t.Errorf("group breaks %v %v %v, want false true true", pages[0].GroupBreak, pages[1].GroupBreak, pages[2].GroupBreak)
	}
	if g := pages[1].Entries[0].Groups; !reflect.DeepEqual(g, []GroupHeading{{0, "size", "L"}, {1, "brand", "Acme"}}) {
		t.Errorf("page 2 groups %v", g)
	}
	// A page filled by productsPerPage is not a group break.
	grid, _ := CatalogPages(`[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-grid"}]}]`, catalogLib)
	for i, p := range grid {
		if p.GroupBreak || p.Entries[0].Groups != nil {
			t.Errorf("ungrouped page %d has group data %+v", i+1, p)
		}
	}
}

func TestTemplatePages(t *testing.T) {
	raw := `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[1,7,0]},{"templateHash":"tpl-product"}],
		"elements":[{"name":"headline","value":"Spring"},{"name":"gallery","value":["https://e.x/a.jpg","https://e.x/b.jpg"]}]},
		{"sectionType":"blank","pageCount":2,"pageBreak":true},
		{"sectionType":"static","templates":[{"templateHash":"tpl-body","templatePages":[4]}]}]`
	pages, bad := TemplatePages(raw, templateLib, 100)
	assertInvalid(t, bad, nil)
	gen, _ := TemplateSections(raw, templateLib)
	if len(pages) != gen.PageCount || len(pages) != 6 {
		t.Fatalf("%d pages, PageCount %d, want 6", len(pages), gen.PageCount)
	}
	cover := []Layer{{"headline", []string{"Spring"}}, {"gallery", []string{"https://e.x/a.jpg", "https://e.x/b.jpg"}}}
	want := []TemplatePage{
		{SectionStart: true, Template: "tpl-cover", Index: 1, Layers: cover},
		{Template: "tpl-cover", Index: 0, Layers: cover},
		{Template: "tpl-product", Index: 0, Layers: []Layer{}},
		{Blank: true, SectionStart: true, PageBreak: true},
		{Blank: true},
		{SectionStart: true, Template: "tpl-body", Index: 4, Layers: []Layer{{Name: "text"}}},
	}
	if !reflect.DeepEqual(pages, want) {
		t.Errorf("pages\n%+v\nwant\n%+v", pages, want)
	}
	// An index written as a whole-valued number (1.0) is a page both the
	// page count and the player draw.
	whole := `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[1.0,"x"]}]}]`
	wholePages, _ := TemplatePages(whole, templateLib, 10)
	wholeGen, _ := TemplateSections(whole, templateLib)
	if len(wholePages) != wholeGen.PageCount || len(wholePages) != 1 || wholePages[0].Index != 1 {
		t.Errorf("templatePages [1.0, \"x\"]: pages %+v, PageCount %d; want page 1 alone in both", wholePages, wholeGen.PageCount)
	}
	if _, bad := TemplatePages(`[{"sectionType":"blank"}]`, templateLib, 10); bad == nil {
		t.Error("TemplatePages accepted sections without a static one")
	}
	huge, _ := TemplatePages(`[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]},{"sectionType":"blank","pageCount":9223372036854775807}]`, templateLib, 50)
	if len(huge) != 52 {
		t.Errorf("a huge blank section drew %d pages, want 2 + the bound 50", len(huge))
	}
}
