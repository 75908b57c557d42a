package engine

import "strconv"

// Filter operators.
const (
	OpIn       = "in"
	OpNotIn    = "nin"
	OpEq       = "eq"
	OpNe       = "ne"
	OpLt       = "lt"
	OpLte      = "lte"
	OpGt       = "gt"
	OpGte      = "gte"
	OpBetween  = "between"
	OpContains = "contains"
)

// catalogSection is a validated feed section, ready to evaluate.
type catalogSection struct {
	products []Product // every source's products, in source order
	perPage  int
	filters  []filterBlock
	sortBy   []sortKey
	groupBy  []groupKey
}

type filterBlock struct {
	exclude    bool
	any        bool
	conditions []condition
}

type condition struct {
	field  string
	op     string
	value  string              // eq, ne, contains
	set    map[string]struct{} // in, nin
	lo, hi float64             // lt/lte/gt/gte use lo; between uses both
}

type sortKey struct {
	field  string
	desc   bool
	custom map[string]int // value -> position; nil for asc/desc
}

type groupKey struct {
	field     string
	pageBreak bool
}

// CatalogSections validates collection.createCatalog's `sections`, then
// evaluates the catalog: which products of the feeds land on which page.
//
// Validation follows the spec's section and filter tables: sources and
// templates are required ("yes"), only the first template is used ("Only the
// first entry is used for product layout"), groupBy `field` is required,
// sortBy `order` is "asc", "desc" or a list, a filter block needs `mode` and
// `conditions`, and each operator takes the value shape of the operator table
// ("Numeric operators need numeric strings"). The choices where the spec is
// silent (empty lists, min greater than max, what a numeric string is) are
// listed in the README ("Where the spec is silent, the emulator …").
//
// Evaluation: see evaluate. The page count is the number of laid-out pages;
// a catalog whose filters leave no product has 0 pages and is not an error
// (the request was well formed; the server decides what to show for it).
func CatalogSections(raw string, lib Library) (Generation, *Invalid) {
	sections, bad := catalogSections(raw, lib)
	if bad != nil {
		return Generation{}, bad
	}
	layout := [][]string{}
	for _, s := range sections {
		layout = append(layout, s.evaluate()...)
	}
	return Generation{PageCount: len(layout), Layout: layout}, nil
}

// catalogSections validates the feed sections and returns them ready to
// evaluate.
func catalogSections(raw string, lib Library) ([]catalogSection, *Invalid) {
	c := checker{root: "sections"}
	list, ok := sectionList(&c, raw)
	if !ok {
		return nil, c.invalid()
	}
	sections := make([]catalogSection, 0, len(list))
	for i, v := range list {
		path := index("sections", i)
		m, ok := c.object(path, v)
		if !ok {
			continue
		}
		kind, _ := c.requiredString(path, m, "sectionType")
		switch kind {
		case SectionFeed:
			sections = append(sections, feedSection(&c, path, m, lib))
		case SectionStatic, SectionBlank:
			c.add(field(path, "sectionType"), "%s sections are not accepted by collection.createCatalog; only feed sections are", kind)
		case "":
		default:
			c.add(field(path, "sectionType"), "must be %q, got %q", SectionFeed, kind)
		}
	}
	if bad := c.invalid(); bad != nil {
		return nil, bad
	}
	return sections, nil
}

func feedSection(c *checker, path string, m map[string]any, lib Library) catalogSection {
	s := catalogSection{perPage: 1}

	c.requiredObjects(path, m, "sources", "sources must be provided", func(_ int, epath string, em map[string]any) {
		if hash, ok := c.requiredString(epath, em, "sourceHash"); ok {
			if feed, found := lib.Feed(hash); found {
				s.products = append(s.products, feed.Products...)
			} else {
				c.add(field(epath, "sourceHash"), "unknown feed %q", hash)
			}
		}
		c.unknownFields(epath, em, "sourceHash")
	})

	// Spec, section table: feed `templates` "Only the first entry is used
	// for product layout", so the entries after it are neither read nor
	// looked up.
	tpath := field(path, "templates")
	if tv, ok := lookup(m, "templates"); !ok {
		c.add(tpath, "templates must be provided")
	} else if list, ok := c.array(tpath, tv); ok && len(list) == 0 {
		c.add(tpath, "templates must be provided")
	} else if ok {
		epath := index(tpath, 0)
		if em, ok := c.object(epath, list[0]); ok {
			if tpl, found := knownTemplate(c, epath, em, lib); found && tpl.ProductsPerPage > 0 {
				s.perPage = tpl.ProductsPerPage
			}
			c.unknownFields(epath, em, "templateHash")
		}
	}

	if v, ok := lookup(m, "groupBy"); ok {
		s.groupBy = groupBy(c, field(path, "groupBy"), v)
	}
	if v, ok := lookup(m, "sortBy"); ok {
		s.sortBy = sortBy(c, field(path, "sortBy"), v)
	}
	if v, ok := lookup(m, "filters"); ok {
		s.filters = filters(c, field(path, "filters"), v)
	}
	c.unknownFields(path, m, "sectionType", "sources", "templates", "groupBy", "sortBy", "filters")
	return s
}

func groupBy(c *checker, path string, v any) []groupKey {
	var out []groupKey
	c.objects(path, v, func(_ int, epath string, m map[string]any) {
		f, _ := c.requiredString(epath, m, "field")
		out = append(out, groupKey{field: f, pageBreak: c.optionalBool(epath, m, "pageBreak", false)})
		c.unknownFields(epath, m, "field", "pageBreak")
	})
	return out
}

func sortBy(c *checker, path string, v any) []sortKey {
	var out []sortKey
	c.objects(path, v, func(_ int, epath string, m map[string]any) {
		k := sortKey{}
		k.field, _ = c.requiredString(epath, m, "field")
		opath := field(epath, "order")
		switch o := m["order"].(type) {
		case nil:
			c.add(opath, "is required")
		case string:
			switch o {
			case "asc":
			case "desc":
				k.desc = true
			default:
				c.add(opath, "must be \"asc\", \"desc\" or an array of values, got %q", o)
			}
		case []any:
			values := c.stringList(opath, o)
			if len(o) == 0 {
				c.add(opath, "a custom order must list at least one value")
			}
			k.custom = make(map[string]int, len(values))
			for pos, val := range values {
				if _, dup := k.custom[val]; !dup {
					k.custom[val] = pos
				}
			}
		default:
			c.add(opath, "must be \"asc\", \"desc\" or an array of values, got %s", jsonType(o))
		}
		out = append(out, k)
		c.unknownFields(epath, m, "field", "order")
	})
	return out
}

func filters(c *checker, path string, v any) []filterBlock {
	var out []filterBlock
	c.objects(path, v, func(_ int, epath string, m map[string]any) {
		var b filterBlock
		if mode, ok := c.requiredString(epath, m, "mode"); ok {
			switch mode {
			case "include":
			case "exclude":
				b.exclude = true
			default:
				c.add(field(epath, "mode"), "must be \"include\" or \"exclude\", got %q", mode)
			}
		}
		if mv, ok := lookup(m, "match"); ok {
			switch mv {
			case "all":
			case "any":
				b.any = true
			default:
				c.add(field(epath, "match"), "must be \"all\" or \"any\", got %s", describe(mv))
			}
		}
		c.requiredObjects(epath, m, "conditions", "conditions must be provided", func(_ int, cpath string, cm map[string]any) {
			if cond, ok := parseCondition(c, cpath, cm); ok {
				b.conditions = append(b.conditions, cond)
			}
		})
		out = append(out, b)
		c.unknownFields(epath, m, "mode", "match", "conditions")
	})
	return out
}

func parseCondition(c *checker, path string, m map[string]any) (condition, bool) {
	defer c.unknownFields(path, m, "field", "operator", "value")
	var cond condition
	before := c.found
	cond.field, _ = c.requiredString(path, m, "field")
	op, ok := c.requiredString(path, m, "operator")
	if ok && !knownOperator(op) {
		c.add(field(path, "operator"), "unknown operator %q", op)
		ok = false
	}
	cond.op = op
	vpath := field(path, "value")
	val, present := lookup(m, "value")
	if !present {
		c.add(vpath, "is required")
	}
	if !ok || !present {
		return cond, false
	}
	switch op {
	case OpIn, OpNotIn:
		list, ok := val.([]any)
		if !ok {
			c.add(vpath, "operator %q needs an array of strings, got %s", op, jsonType(val))
			break
		}
		values := c.stringList(vpath, list)
		if len(list) == 0 {
			c.add(vpath, "operator %q needs at least one value", op)
		}
		cond.set = make(map[string]struct{}, len(values))
		for _, s := range values {
			cond.set[s] = struct{}{}
		}
	case OpEq, OpNe, OpContains:
		s, ok := val.(string)
		if !ok {
			c.add(vpath, "operator %q needs a string, got %s", op, jsonType(val))
		}
		cond.value = s
	case OpLt, OpLte, OpGt, OpGte:
		s, ok := val.(string)
		n, numeric := number(s)
		if !ok || !numeric {
			c.add(vpath, "operator %q needs a numeric string, got %s", op, describe(val))
		}
		cond.lo = n
	case OpBetween:
		list, ok := val.([]any)
		if !ok || len(list) != 2 {
			c.add(vpath, "operator %q needs exactly two numeric strings [min, max], got %s", op, describeList(val))
			break
		}
		var bounds [2]float64
		good := true
		for k, e := range list {
			s, isString := e.(string)
			n, numeric := number(s)
			if !isString || !numeric {
				c.add(index(vpath, k), "must be a numeric string, got %s", describe(e))
				good = false
			}
			bounds[k] = n
		}
		if good && bounds[0] > bounds[1] {
			c.add(vpath, "min %s is greater than max %s", describe(list[0]), describe(list[1]))
		}
		cond.lo, cond.hi = bounds[0], bounds[1]
	}
	return cond, c.found == before
}

func knownOperator(op string) bool {
	switch op {
	case OpIn, OpNotIn, OpEq, OpNe, OpLt, OpLte, OpGt, OpGte, OpBetween, OpContains:
		return true
	}
	return false
}

func describeList(v any) string {
	if list, ok := v.([]any); ok {
		return strconv.Itoa(len(list)) + " values"
	}
	return jsonType(v)
}

// number parses a numeric string: a plain decimal number such as "12",
// "-3.5", ".5" or "1e3"; never NaN, an infinity, a hexadecimal form, digit
// separators or spaces around it.
func number(s string) (float64, bool) {
	if !isDecimal(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// isDecimal matches [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
// without a regular expression, as it runs per product and sort key.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	mantissa := digits()
	if i < len(s) && s[i] == '.' {
		i++
		mantissa += digits()
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
