package engine

import (
	"slices"
	"strings"
)

// evaluate lays out one feed section's products, one []string of SKUs per
// page. The steps, in order:
//
//  1. Filter blocks apply in the order given, each to what the previous ones
//     left: include keeps the products that match the block, exclude removes
//     them. A block matches when all of its conditions hold ("all") or at
//     least one does ("any").
//  2. sortBy sorts stably (ties keep the source order), first key primary;
//     see compareKey.
//  3. groupBy gathers products with equal values of a field, outermost level
//     first, groups in the order in which their first product appears after
//     sorting (so sorting by the grouped field orders the groups too), the
//     products of a group keeping their sorted order.
//  4. Layout fills pages with perPage SKUs in order. A group level with
//     pageBreak closes the current page (if it holds any product) before the
//     first product of each of its groups; a level's group changes when its
//     own value or that of an outer level changes.
//
// Each section starts on a new page; a section without products adds none.
func (s catalogSection) evaluate() [][]string {
	pages := s.pages()
	out := make([][]string, len(pages))
	for i, p := range pages {
		out[i] = make([]string, len(p.Entries))
		for j, e := range p.Entries {
			out[i][j] = e.Product.SKU()
		}
	}
	return out
}

// pages runs steps 1 to 4 and keeps, with each page, its products and the
// groups that begin on it.
func (s catalogSection) pages() []CatalogPage {
	kept := make([]Product, 0, len(s.products))
	for _, p := range s.products {
		if s.passes(p) {
			kept = append(kept, p)
		}
	}
	if len(s.sortBy) > 0 {
		kept = s.sort(kept)
	}
	if len(s.groupBy) > 0 {
		kept = s.group(kept, 0)
	}
	return s.layout(kept)
}

func (s catalogSection) passes(p Product) bool {
	for _, b := range s.filters {
		if b.matches(p) == b.exclude {
			return false
		}
	}
	return true
}

func (b filterBlock) matches(p Product) bool {
	for _, c := range b.conditions {
		if c.holds(p) == b.any {
			return b.any
		}
	}
	return !b.any
}

// holds tells whether a product meets one condition. A missing column reads
// as "". Numeric operators hold only when the product's value is itself a
// numeric string; contains is case-sensitive, like eq.
func (c condition) holds(p Product) bool {
	v := p[c.field]
	switch c.op {
	case OpEq:
		return v == c.value
	case OpNe:
		return v != c.value
	case OpContains:
		return strings.Contains(v, c.value)
	case OpIn, OpNotIn:
		_, found := c.set[v]
		return found == (c.op == OpIn)
	}
	n, ok := number(v)
	if !ok {
		return false
	}
	switch c.op {
	case OpLt:
		return n < c.lo
	case OpLte:
		return n <= c.lo
	case OpGt:
		return n > c.lo
	case OpGte:
		return n >= c.lo
	case OpBetween:
		return n >= c.lo && n <= c.hi
	}
	return false
}

// sortValue is one product's precomputed value for one sort key.
type sortValue struct {
	text    string
	num     float64
	numeric bool
	rank    int // position in a custom order; len(order) when not listed
}

// sort orders products stably by the sort keys. Each product's values are
// computed once, and the input position breaks remaining ties, which makes the
// faster unstable sort give exactly the stable order.
func (s catalogSection) sort(products []Product) []Product {
	type row struct {
		pos    int
		values []sortValue
	}
	rows := make([]row, len(products))
	all := make([]sortValue, len(products)*len(s.sortBy))
	for i, p := range products {
		vals := all[i*len(s.sortBy) : (i+1)*len(s.sortBy)]
		for k, key := range s.sortBy {
			text := p[key.field]
			n, numeric := number(text)
			rank := len(key.custom)
			if key.custom != nil {
				if pos, ok := key.custom[text]; ok {
					rank = pos
				}
			}
			vals[k] = sortValue{text: text, num: n, numeric: numeric, rank: rank}
		}
		rows[i] = row{pos: i, values: vals}
	}
	slices.SortFunc(rows, func(a, b row) int {
		for k, key := range s.sortBy {
			if c := compareKey(key, a.values[k], b.values[k]); c != 0 {
				return c
			}
		}
		return a.pos - b.pos
	})
	out := make([]Product, len(rows))
	for i, r := range rows {
		out[i] = products[r.pos]
	}
	return out
}

// compareKey compares two values of one sort key. With a custom order, listed
// values come in list order and every unlisted value ties after them (so later
// keys, then their earlier order, decide among them). With asc/desc, two
// numeric strings compare as numbers, two other strings byte-wise, and a
// numeric string sorts before a non-numeric one: this keeps the order
// transitive when a column mixes numbers and text (comparing "10", "9" and
// "1a" pairwise otherwise forms a cycle). desc reverses the whole order.
func compareKey(key sortKey, a, b sortValue) int {
	if key.custom != nil {
		return a.rank - b.rank
	}
	c := 0
	switch {
	case a.numeric && b.numeric:
		if a.num < b.num {
			c = -1
		} else if a.num > b.num {
			c = 1
		}
	case a.numeric:
		c = -1
	case b.numeric:
		c = 1
	default:
		c = strings.Compare(a.text, b.text)
	}
	if key.desc {
		return -c
	}
	return c
}

// group gathers products by the value of groupBy level, groups in order of
// first appearance, and recurses into each group for the next level.
func (s catalogSection) group(products []Product, level int) []Product {
	if level == len(s.groupBy) {
		return products
	}
	f := s.groupBy[level].field
	var order []string
	buckets := map[string][]Product{}
	for _, p := range products {
		v := p[f]
		if _, seen := buckets[v]; !seen {
			order = append(order, v)
		}
		buckets[v] = append(buckets[v], p)
	}
	out := make([]Product, 0, len(products))
	for _, v := range order {
		out = append(out, s.group(buckets[v], level+1)...)
	}
	return out
}

func (s catalogSection) layout(products []Product) []CatalogPage {
	var pages []CatalogPage
	var page CatalogPage
	flush := func() {
		if len(page.Entries) > 0 {
			pages = append(pages, page)
			page = CatalogPage{}
		}
	}
	for i, p := range products {
		var begins []GroupHeading
		if i == 0 {
			begins = s.headings(nil, p)
		} else {
			if s.breaksBefore(products[i-1], p) {
				flush()
				page.GroupBreak = true
			}
			begins = s.headings(products[i-1], p)
		}
		if len(page.Entries) == s.perPage {
			flush()
		}
		page.Entries = append(page.Entries, CatalogEntry{Groups: begins, Product: p})
	}
	flush()
	return pages
}

// breaksBefore tells whether a group level with pageBreak starts a new group
// at cur: the first level whose value differs, or any level inside it, has
// pageBreak.
func (s catalogSection) breaksBefore(prev, cur Product) bool {
	changed := false
	for _, g := range s.groupBy {
		changed = changed || prev[g.field] != cur[g.field]
		if changed && g.pageBreak {
			return true
		}
	}
	return false
}
