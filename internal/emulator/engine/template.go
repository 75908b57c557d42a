package engine

import (
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
// Choices where the spec is silent:
//   - templatePages must be an array of JSON integers (1.5, "1" or 1e0 are
//     type errors). An index outside 0..pages-1, negative ones included, is an
//     invalid index and is skipped as the spec says. Each remaining index
//     renders one page, so a repeated index renders that page again. An empty
//     array selects no page; only an omitted (or null) templatePages means all.
//   - Every templateHash must name a template of the account.
//   - An element's name must be the label of a layer of one of the section's
//     templates (a misspelt name would otherwise be dropped without a trace),
//     and a name may appear once per section. value is a string or an array of
//     strings.
//   - pageCount of a blank section is an integer >= 1 (default 1).
//   - pageBreak only says where a section starts; sections always begin on a
//     page of their own here, so it adds no page.
//   - Fields not listed in the spec for the section's type are errors.
func TemplateSections(raw string, lib Library) (Generation, *Invalid) {
	var c checker
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
	layers := map[string]bool{}
	known := 0
	n := c.requiredObjects(path, m, "templates", "a static section needs at least one template", func(_ int, epath string, em map[string]any) {
		tpl, found := knownTemplate(c, epath, em, lib)
		if found {
			known++
		}
		for _, l := range tpl.Layers {
			layers[l] = true
		}
		pages = addPages(pages, templatePages(c, epath, em, tpl, found))
		c.unknownFields(epath, em, "templateHash", "templatePages")
	})
	resolved := n > 0 && known == n // every template entry named a known template
	if ev, ok := lookup(m, "elements"); ok {
		elements(c, field(path, "elements"), ev, layers, resolved)
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
	for k, e := range list {
		idx, ok := integer(e)
		if !ok {
			c.add(index(ppath, k), "must be an integer page index, got %s", describe(e))
			continue
		}
		if found && idx >= 0 && idx < tpl.Pages {
			n++
		}
	}
	return n
}

// elements checks the layer values of a static section. Layer names are only
// checked when the section's templates could be read, so that one bad
// template does not also flag every element.
func elements(c *checker, path string, v any, layers map[string]bool, checkLayers bool) {
	names := map[string]bool{}
	c.objects(path, v, func(_ int, epath string, m map[string]any) {
		name, ok := c.requiredString(epath, m, "name")
		if ok {
			switch {
			case names[name]:
				c.add(field(epath, "name"), "duplicate element %q", name)
			case checkLayers && !layers[name]:
				c.add(field(epath, "name"), "no template of this section has a layer %q", name)
			}
			names[name] = true
		}
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
