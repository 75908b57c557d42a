package emulator

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// The player, GET /_emulator/view/{hash}, is the page directLink and the
// embed code point at. It draws every page of the collection, server-side,
// as plain HTML and CSS with no script and nothing fetched:
//
//   - a catalog: each page with its product cards (every column of the
//     feed, sku first), a heading where a group begins, and a mark where a
//     groupBy pageBreak started the page;
//   - a template collection: each template page with the elements' values
//     injected into its layers, and blank pages;
//   - added or fixture documents: their pages as numbered sheets.
//
// Pages are elements with data-page="N" (1-based, over the whole
// collection); products are elements with data-sku. Pages come in
// two-page spreads (the first page alone, as a cover), or one at a time
// when the singlePageView setting is on; startPage (what the embed code
// carries) picks the spread shown, and previous/next are links to the
// neighbouring spreads' first pages.

// playerMaxPages bounds what one page draws: a blank section may ask for
// any number of pages, and the generation does not refuse it.
const playerMaxPages = 2000

//go:embed player.html.tmpl
var playerHTML string

var playerTemplate = template.Must(template.New("player").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b },
}).Parse(playerHTML))

type playerView struct {
	Hash, Title  string
	Total        int // collectionPageCount
	Drawn        int // pages drawn (Total, or playerMaxPages)
	Notice       string
	Refresh      bool
	Private      bool
	Password     bool
	Background   string
	Transparent  bool
	RightToLeft  bool
	Spreads      []playerSpread
	Current      int // index into Spreads
	Prev, Next   int // startPage of the neighbouring spreads; 0 when none
	First, Last  int // pages of the current spread
	SinglePage   bool
	GeneratedVia string // "catalog", "template" or ""
}

type playerSpread struct {
	Index       int
	First, Last int
	Pages       []*playerPage
}

type playerPage struct {
	N    int
	Kind string // catalog, template, blank, document
	// Break is true when the page starts because of a page break the spec
	// names: a groupBy level with pageBreak, or a section with pageBreak.
	Break    bool
	Products []playerProduct
	// Template pages.
	Template string
	Index    int
	Layers   []engine.Layer
	// Document sheets.
	Document   string
	Sheet      int
	Sheets     int
	Converting bool
}

type playerProduct struct {
	SKU    string
	Groups []engine.GroupHeading
	Fields []playerField
}

type playerField struct{ Name, Value string }

// playerSource is what the player reads of a collection, copied by the
// store.
type playerSource struct {
	c          store.Collection
	items      []store.Item
	acct       *store.Account
	processing bool
}

func (e *Emulator) servePlayer(w http.ResponseWriter, r *http.Request) {
	now := e.now()
	ps, found := e.store.PlayerSource(r.PathValue("hash"), now)
	if !found {
		http.NotFound(w, r)
		return
	}
	src := playerSource{c: ps.C, items: ps.Items, acct: ps.Acct, processing: ps.Processing}
	v := src.view(now, r.URL.Query().Get("startPage"))
	var buf bytes.Buffer
	if err := playerTemplate.Execute(&buf, v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = buf.WriteTo(w)
}

func (s playerSource) view(now time.Time, startPage string) playerView {
	c := s.c
	v := playerView{
		Hash: c.Hash, Title: c.Title, Private: c.Private, Password: c.Password,
		Background: c.BackgroundHex, Transparent: c.Transparent,
		RightToLeft: boolSetting(c.Settings, "rightToLeftOrientation"),
		SinglePage:  boolSetting(c.Settings, "singlePageView"),
	}
	if c.Kind == "catalog" || c.Kind == "template" {
		v.GeneratedVia = c.Kind
	}
	switch {
	case s.processing:
		v.Notice = "This collection is being generated; the page reloads until it is ready."
		v.Refresh = true
		return v
	case c.GenFailed:
		v.Notice = "The generation of this collection failed: it has no pages."
		return v
	}
	pages := s.pages(now)
	for _, it := range s.items {
		v.Total += it.PageCount
	}
	v.Drawn = len(pages)
	if v.Total == 0 {
		v.Notice = "This collection has no pages."
		return v
	}
	if v.Drawn < v.Total {
		v.Notice = "Only the first " + strconv.Itoa(v.Drawn) + " of " + strconv.Itoa(v.Total) + " pages are drawn."
	}
	v.Spreads = spreads(pages, v.SinglePage)
	start, err := strconv.Atoi(startPage)
	if err != nil || start < 1 {
		start = 1
	}
	start = min(start, len(pages))
	for i, sp := range v.Spreads {
		if start >= sp.First && start <= sp.Last {
			v.Current = i
		}
	}
	cur := v.Spreads[v.Current]
	v.First, v.Last = cur.First, cur.Last
	if v.Current > 0 {
		v.Prev = v.Spreads[v.Current-1].First
	}
	if v.Current < len(v.Spreads)-1 {
		v.Next = v.Spreads[v.Current+1].First
	}
	return v
}

// spreads pairs pages as a book opens: page 1 alone on the right, then 2-3,
// 4-5 and so on; one page a spread in single-page view.
func spreads(pages []*playerPage, single bool) []playerSpread {
	var out []playerSpread
	for i := 0; i < len(pages); {
		n := 2
		if single || i == 0 {
			n = 1
		}
		n = min(n, len(pages)-i)
		out = append(out, playerSpread{Index: len(out), First: i + 1, Last: i + n, Pages: pages[i : i+n]})
		i += n
	}
	return out
}

// pages lists every page: the generated flipbook's, then each document's
// sheets.
func (s playerSource) pages(now time.Time) []*playerPage {
	var out []*playerPage
	docs := s.items
	if len(s.items) > 0 && (s.c.Kind == "catalog" || s.c.Kind == "template") {
		gen := s.items[0]
		docs = s.items[1:]
		if s.c.Kind == "catalog" {
			out = s.catalogPages()
		} else {
			out = s.templatePages(gen.PageCount)
		}
	}
	for _, it := range docs {
		for k := 1; k <= it.PageCount && len(out) < playerMaxPages; k++ {
			out = append(out, &playerPage{Kind: "document", Document: it.Title, Sheet: k, Sheets: it.PageCount, Converting: now.Before(it.ReadyAt)})
		}
	}
	if len(out) > playerMaxPages {
		out = out[:playerMaxPages]
	}
	for i, p := range out {
		p.N = i + 1
	}
	return out
}

// catalogPages evaluates the catalog again for its products and groups. The
// feeds come from the fixture and do not change while the emulator runs; if
// a state file kept a collection whose feed has changed since, the stored
// layout wins and its SKUs are looked up in today's feeds.
func (s playerSource) catalogPages() []*playerPage {
	cols := s.columnOrder()
	var out []*playerPage
	pages, bad := engine.CatalogPages(s.c.Sections, s.acct)
	if bad == nil && sameLayout(pages, s.c.Layout) {
		for _, p := range pages {
			pp := &playerPage{Kind: "catalog", Break: p.GroupBreak}
			for _, en := range p.Entries {
				pp.Products = append(pp.Products, playerProduct{SKU: en.Product.SKU(), Groups: en.Groups, Fields: fields(en.Product, cols)})
			}
			out = append(out, pp)
		}
		return out
	}
	bySKU := map[string]engine.Product{}
	for _, fd := range s.acct.Fixture().Feeds {
		f, _ := s.acct.Feed(fd.SourceHash)
		for _, p := range f.Products {
			if _, seen := bySKU[p.SKU()]; !seen {
				bySKU[p.SKU()] = p
			}
		}
	}
	for _, skus := range s.c.Layout {
		pp := &playerPage{Kind: "catalog"}
		for _, sku := range skus {
			p, ok := bySKU[sku]
			if !ok {
				p = engine.Product{"sku": sku}
			}
			pp.Products = append(pp.Products, playerProduct{SKU: sku, Fields: fields(p, cols)})
		}
		out = append(out, pp)
	}
	return out
}

func sameLayout(pages []engine.CatalogPage, layout [][]string) bool {
	if len(pages) != len(layout) {
		return false
	}
	for i, p := range pages {
		if len(p.Entries) != len(layout[i]) {
			return false
		}
		for j, e := range p.Entries {
			if e.Product.SKU() != layout[i][j] {
				return false
			}
		}
	}
	return true
}

// templatePages draws the template pages; if the sections no longer
// evaluate to the generated page count (a fixture changed under a state
// file), numbered sheets stand in for them.
func (s playerSource) templatePages(count int) []*playerPage {
	limit := min(count, playerMaxPages)
	pages, bad := engine.TemplatePages(s.c.Sections, s.acct, limit)
	var out []*playerPage
	if bad != nil || (len(pages) != count && len(pages) != limit) {
		for k := 1; k <= limit; k++ {
			out = append(out, &playerPage{Kind: "document", Document: s.c.Title, Sheet: k, Sheets: count})
		}
		return out
	}
	for _, p := range pages[:min(len(pages), limit)] {
		kind := "template"
		if p.Blank {
			kind = "blank"
		}
		out = append(out, &playerPage{Kind: kind, Break: p.PageBreak, Template: p.Template, Index: p.Index, Layers: p.Layers})
	}
	return out
}

// columnOrder ranks the account's feed columns in the order the feeds
// list them (a CSV header, or first appearance in the JSON).
func (s playerSource) columnOrder() map[string]int {
	rank := map[string]int{}
	for _, fd := range s.acct.Fixture().Feeds {
		for _, c := range fd.Columns() {
			if _, ok := rank[c]; !ok {
				rank[c] = len(rank)
			}
		}
	}
	return rank
}

// fields are a product's columns, sku first, then in feed order; columns
// the order does not know follow by name.
func fields(p engine.Product, rank map[string]int) []playerField {
	names := make([]string, 0, len(p))
	for k := range p {
		if k != "sku" {
			names = append(names, k)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		ri, iok := rank[names[i]]
		rj, jok := rank[names[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		}
		return names[i] < names[j]
	})
	out := make([]playerField, 0, len(p))
	if sku, ok := p["sku"]; ok {
		out = append(out, playerField{"sku", sku})
	}
	for _, k := range names {
		out = append(out, playerField{k, p[k]})
	}
	return out
}

func boolSetting(settings map[string]any, name string) bool {
	switch v := settings[name].(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(v)
		return b
	}
	return false
}
