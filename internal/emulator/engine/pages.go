package engine

import "math"

// The player (GET /_emulator/view/{hash}) draws what a generation produced;
// these types carry, page by page, what the page count and the catalog layout
// were computed from, so that the drawing and the API's numbers cannot
// disagree.

// CatalogPage is one laid-out page of a catalog.
type CatalogPage struct {
	Entries []CatalogEntry
	// GroupBreak is true when the page begins because a groupBy level with
	// pageBreak begins a new group ("pageBreak starts a new page per value").
	GroupBreak bool
}

// CatalogEntry is one product on a page, with the groups that begin at it.
type CatalogEntry struct {
	// Groups lists, outermost first, the groupBy levels whose group begins
	// at this product (every level for the first product of a section).
	Groups  []GroupHeading
	Product Product
}

// GroupHeading names a group: the groupBy field and the products' value.
type GroupHeading struct {
	Level int // 0 is the outermost groupBy entry
	Field string
	Value string
}

// headings lists the groups that begin at cur: from the first level whose
// value differs from prev's inward (every level when prev is nil).
func (s catalogSection) headings(prev, cur Product) []GroupHeading {
	var out []GroupHeading
	changed := prev == nil
	for i, g := range s.groupBy {
		changed = changed || prev[g.field] != cur[g.field]
		if changed {
			out = append(out, GroupHeading{Level: i, Field: g.field, Value: cur[g.field]})
		}
	}
	return out
}

// CatalogPages validates a createCatalog sections parameter as
// CatalogSections does and returns its pages with their products; the SKUs,
// page by page, are exactly CatalogSections's Layout.
func CatalogPages(raw string, lib Library) ([]CatalogPage, *Invalid) {
	sections, bad := catalogSections(raw, lib)
	if bad != nil {
		return nil, bad
	}
	var out []CatalogPage
	for _, s := range sections {
		out = append(out, s.pages()...)
	}
	return out, nil
}

// TemplatePage is one page of a collection generated from templates.
type TemplatePage struct {
	// Blank is true for a page of a blank section; the fields below are
	// then empty.
	Blank bool
	// SectionStart is true on the first page of each section, and
	// PageBreak on that page when the section asked for pageBreak.
	SectionStart bool
	PageBreak    bool
	Template     string // templateHash
	Index        int    // zero-based index into the template's pages
	// Layers are the template's layers in its order, each with the value
	// the section's elements inject into it (none when no element names
	// it).
	Layers []Layer
}

// Layer is a template layer and what is injected into it.
type Layer struct {
	Name   string
	Values []string // one for a text or URL value, several for a media list
}

// TemplatePages validates a createFromTemplate sections parameter as
// TemplateSections does and returns its pages in order; their number is
// TemplateSections's PageCount (up to a sane bound: a blank section asking
// for more pages than maxPages is drawn with maxPages).
func TemplatePages(raw string, lib Library, maxPages int) ([]TemplatePage, *Invalid) {
	if _, bad := TemplateSections(raw, lib); bad != nil {
		return nil, bad
	}
	// Valid, so every shape below is the one TemplateSections accepted.
	v, _ := decodeJSON(raw, "sections")
	list, _ := v.([]any)
	var out []TemplatePage
	for _, sv := range list {
		m, _ := sv.(map[string]any)
		brk, _ := m["pageBreak"].(bool)
		first := len(out)
		switch m["sectionType"] {
		case SectionStatic:
			values := elementValues(m["elements"])
			entries, _ := m["templates"].([]any)
			for _, ev := range entries {
				em, _ := ev.(map[string]any)
				hash, _ := em["templateHash"].(string)
				tpl, _ := lib.Template(hash)
				layers := make([]Layer, 0, len(tpl.Layers))
				for _, l := range tpl.Layers {
					layers = append(layers, Layer{Name: l, Values: values[l]})
				}
				for _, idx := range selectedPages(em, tpl) {
					out = append(out, TemplatePage{Template: hash, Index: idx, Layers: layers})
				}
			}
		case SectionBlank:
			n := 1
			if pc, ok := integer(m["pageCount"]); ok {
				n = pc
			}
			n = min(n, max(maxPages, 0), math.MaxInt32)
			for range n {
				out = append(out, TemplatePage{Blank: true})
			}
		}
		if first < len(out) {
			out[first].SectionStart = true
			out[first].PageBreak = brk
		}
	}
	return out, nil
}

// selectedPages are the page indexes a template entry renders: every page
// when templatePages is omitted, else the integer indexes inside the
// template, in the order given ("invalid indexes are skipped").
func selectedPages(m map[string]any, tpl Template) []int {
	pv, given := lookup(m, "templatePages")
	if !given {
		all := make([]int, tpl.Pages)
		for i := range all {
			all[i] = i
		}
		return all
	}
	list, _ := pv.([]any)
	var out []int
	for _, e := range list {
		if idx, ok := pageIndex(e); ok && idx >= 0 && idx < tpl.Pages {
			out = append(out, idx)
		}
	}
	return out
}

// elementValues maps each element's name to its value(s).
func elementValues(v any) map[string][]string {
	out := map[string][]string{}
	list, _ := v.([]any)
	for _, ev := range list {
		m, _ := ev.(map[string]any)
		name, _ := m["name"].(string)
		switch val := m["value"].(type) {
		case string:
			out[name] = []string{val}
		case []any:
			for _, s := range val {
				if str, ok := s.(string); ok {
					out[name] = append(out[name], str)
				}
			}
		}
	}
	return out
}
