package engine

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// Section types.
const (
	SectionStatic = "static"
	SectionBlank  = "blank"
	SectionFeed   = "feed"
)

// TemplateSections validates collection.createFromTemplate's `sections` and
// counts the pages the generation produces.
//
// The spec's words this follows (collection.createFromTemplate and the
// section table): sections is a "non-empty array of static/blank sections
// with at least one static; feed sections rejected"; a static section's
// templates are "yes, non-empty"; templatePages "invalid indexes are
// skipped", so an entry that is not an index (negative, past the last page,
// not an integer) is skipped, never an error; an element's "name matches the
// layer label", and the spec gives no error for a name that matches none, so
// such an element is ignored. The choices where the spec is silent are listed
// in the README ("Where the spec is silent, the emulator …").
func TemplateSections(raw string, lib Library) (Generation, *Invalid) {
	c := checker{root: "sections"}
	list, ok := sectionList(&c, raw)
	if !ok {
		return Generation{}, c.invalid()
	}
	pages := 0
	haveStatic := false
	for i, v := range list {
		path := index("sections", i)
		m, ok := c.object(path, v)
		if !ok {
			continue
		}
		kind, _ := c.requiredString(path, m, "sectionType")
		switch kind {
		case SectionStatic:
			haveStatic = true
			pages = addPages(pages, staticSection(&c, path, m, lib))
		case SectionBlank:
			pages = addPages(pages, blankSection(&c, path, m))
		case SectionFeed:
			c.add(field(path, "sectionType"), "feed sections are not accepted by collection.createFromTemplate")
		case "":
		default:
			c.add(field(path, "sectionType"), "must be %q or %q, got %q", SectionStatic, SectionBlank, kind)
		}
	}
	if !haveStatic {
		c.add("sections", "must include at least one static section")
	}
	if bad := c.invalid(); bad != nil {
		return Generation{}, bad
	}
	return Generation{PageCount: pages}, nil
}

// sectionList decodes the sections parameter: a non-empty JSON array.
func sectionList(c *checker, raw string) ([]any, bool) {
	v, err := decodeJSON(raw, "sections")
	var dup *duplicateField
	if errors.As(err, &dup) {
		c.add(dup.path, "duplicate field")
		return nil, false
	}
	var limit *limitExceeded
	if errors.As(err, &limit) {
		c.add(limit.path, "%s", limit.what)
		return nil, false
	}
	if err != nil {
		c.add("sections", "must be valid JSON: %v", err)
		return nil, false
	}
	list, ok := c.array("sections", v)
	if !ok {
		return nil, false
	}
	if len(list) == 0 {
		c.add("sections", "must be a non-empty array of sections")
		return nil, false
	}
	return list, true
}

func staticSection(c *checker, path string, m map[string]any, lib Library) int {
	c.optionalBool(path, m, "pageBreak", false)
	pages := 0
	// Spec, section table: static `templates` "yes, non-empty".
	c.requiredObjects(path, m, "templates", "a static section needs at least one template", func(_ int, epath string, em map[string]any) {
		tpl, found := knownTemplate(c, epath, em, lib)
		pages = addPages(pages, templatePages(c, epath, em, tpl, found))
		c.unknownFields(epath, em, "templateHash", "templatePages")
	})
	if ev, ok := lookup(m, "elements"); ok {
		elements(c, field(path, "elements"), ev)
	}
	c.unknownFields(path, m, "sectionType", "pageBreak", "templates", "elements")
	return pages
}

// knownTemplate reads templateHash and resolves it.
func knownTemplate(c *checker, path string, m map[string]any, lib Library) (Template, bool) {
	hash, ok := c.requiredString(path, m, "templateHash")
	if !ok {
		return Template{}, false
	}
	tpl, found := lib.Template(hash)
	if !found {
		c.add(field(path, "templateHash"), "unknown template %q", hash)
	}
	return tpl, found
}

// templatePages counts the pages one template entry renders.
func templatePages(c *checker, path string, m map[string]any, tpl Template, found bool) int {
	pv, ok := lookup(m, "templatePages")
	if !ok {
		return tpl.Pages
	}
	ppath := field(path, "templatePages")
	list, ok := c.array(ppath, pv)
	if !ok {
		return 0
	}
	n := 0
	for _, e := range list {
		// Spec, section table: "invalid indexes are skipped" (an entry that
		// is not an integer is no index either).
		idx, ok := pageIndex(e)
		if ok && found && idx >= 0 && idx < tpl.Pages {
			n++
		}
	}
	return n
}

// pageIndex reads a templatePages entry: a JSON number with an integral
// value (2, 2.0, 2e0). Anything else is not an index.
func pageIndex(v any) (int, bool) {
	if i, ok := integer(v); ok {
		return i, true
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// elements checks the layer values of a static section. Spec, section
// table: "`name` matches the layer label; `value` is text, a URL, or a list of
// media URLs". A name that matches no layer, or one given twice, is not an
// error: the spec names none.
func elements(c *checker, path string, v any) {
	c.objects(path, v, func(_ int, epath string, m map[string]any) {
		c.requiredString(epath, m, "name")
		vpath := field(epath, "value")
		switch val := m["value"].(type) {
		case nil:
			c.add(vpath, "is required")
		case string:
		case []any:
			c.stringList(vpath, val)
		default:
			c.add(vpath, "must be a string or an array of strings, got %s", jsonType(val))
		}
		c.unknownFields(epath, m, "name", "value")
	})
}

func blankSection(c *checker, path string, m map[string]any) int {
	c.optionalBool(path, m, "pageBreak", false)
	pages := 1
	if v, ok := lookup(m, "pageCount"); ok {
		n, isInt := integer(v)
		if !isInt || n < 1 {
			c.add(field(path, "pageCount"), "must be an integer of at least 1, got %s", describe(v))
		} else {
			pages = n
		}
	}
	c.unknownFields(path, m, "sectionType", "pageBreak", "pageCount")
	return pages
}

// addPages saturates instead of overflowing, so that an absurd pageCount is
// left for the server's page limit to refuse rather than wrapping around.
func addPages(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// describe names a JSON value in a message: numbers and strings by their
// text, anything else by its type.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case interface{ String() string }:
		return x.String()
	}
	return jsonType(v)
}
