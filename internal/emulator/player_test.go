package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// drawnPage is one data-page element of the player, as the HTML says.
type drawnPage struct {
	n       int
	visible bool // its spread is the one shown
	skus    []string
	groups  []string // "field=value" of the group headings on it
	layers  map[string][]string
	brk     bool
	html    string
}

var (
	reAttr   = func(name string) *regexp.Regexp { return regexp.MustCompile(name + `="([^"]*)"`) }
	rePage   = reAttr("data-page")
	reSKU    = reAttr("data-sku")
	reGroup  = regexp.MustCompile(`data-group-field="([^"]*)" data-group-value="([^"]*)"`)
	reLayer  = regexp.MustCompile(`(?s)data-layer="([^"]*)"><span class="layer-name">[^<]*</span>(.*?)</div>`)
	reValue  = regexp.MustCompile(`<span class="value">([^<]*)</span>`)
	reSpread = regexp.MustCompile(`<section class="spread"[^>]*>`)
)

// player fetches the player page and splits it into its pages.
func player(t *testing.T, srv *Server, hash, query string) (string, []drawnPage) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/_emulator/view/"+hash+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	body := buf.String()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("player %s: HTTP %d: %s", hash, resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	// Nothing is fetched: no script, stylesheet link, image or frame.
	for _, bad := range []string{"<script", "<link", "<img", "src=", "url(", "@import", "<iframe"} {
		if strings.Contains(body, bad) {
			t.Errorf("player page contains %q: it must not load anything", bad)
		}
	}
	var pages []drawnPage
	spreads := reSpread.FindAllStringIndex(body, -1)
	for i, loc := range spreads {
		end := len(body)
		if i+1 < len(spreads) {
			end = spreads[i+1][0]
		}
		visible := !strings.Contains(body[loc[0]:loc[1]], " hidden")
		for _, chunk := range strings.Split(body[loc[1]:end], "<article ")[1:] {
			m := rePage.FindStringSubmatch(chunk)
			n, _ := strconv.Atoi(m[1])
			p := drawnPage{n: n, visible: visible, brk: strings.Contains(chunk, `data-break="true"`), layers: map[string][]string{}, html: chunk}
			for _, s := range reSKU.FindAllStringSubmatch(chunk, -1) {
				p.skus = append(p.skus, s[1])
			}
			for _, g := range reGroup.FindAllStringSubmatch(chunk, -1) {
				p.groups = append(p.groups, g[1]+"="+g[2])
			}
			for _, l := range reLayer.FindAllStringSubmatch(chunk, -1) {
				var vals []string
				for _, v := range reValue.FindAllStringSubmatch(l[2], -1) {
					vals = append(vals, v[1])
				}
				p.layers[l[1]] = vals
			}
			pages = append(pages, p)
		}
	}
	for i, p := range pages {
		if p.n != i+1 {
			t.Fatalf("page %d is numbered %d", i+1, p.n)
		}
	}
	return body, pages
}

func visiblePages(pages []drawnPage) []int {
	var out []int
	for _, p := range pages {
		if p.visible {
			out = append(out, p.n)
		}
	}
	return out
}

// controlLayout reads a catalog's layout from GET /_emulator/collections.
func controlLayout(t *testing.T, srv *Server, hash string) [][]string {
	t.Helper()
	for _, v := range srv.Emulator.Collections() {
		if v.CollectionHash == hash {
			return v.Layout
		}
	}
	t.Fatalf("no collection %s", hash)
	return nil
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPlayerCatalog(t *testing.T) {
	srv, c := startTest(t, nil)
	sections := []map[string]any{{
		"sectionType": "feed",
		"sources":     []map[string]any{{"sourceHash": "feed-shoes"}},
		"templates":   []map[string]any{{"templateHash": "tpl-product"}},
		"filters":     []map[string]any{{"mode": "include", "conditions": []map[string]any{{"field": "category", "operator": "eq", "value": "running"}}}},
		"sortBy":      []map[string]any{{"field": "price", "order": "asc"}},
		"groupBy":     []map[string]any{{"field": "brand", "pageBreak": true}},
	}}
	env := c.post(map[string]string{"action": "collection.createCatalog", "title": "Running <shoes>", "sections": mustJSON(t, sections)})
	wantCode(t, env, 20, "OK")
	var out struct{ CollectionHash string }
	env.into(t, &out)
	hash := out.CollectionHash

	// While generating, the player says so and draws nothing.
	body, pages := player(t, srv, hash, "")
	if len(pages) != 0 || !strings.Contains(body, "being generated") || !strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("processing player drew %d pages:\n%s", len(pages), body)
	}

	col := c.waitFor(hash, func(col testCollection) bool { return col.CollectionStatus != "processing" })
	total, _ := strconv.Atoi(fmt.Sprint(col.CollectionPageCount))
	layout := controlLayout(t, srv, hash)
	body, pages = player(t, srv, hash, "")
	if len(pages) != total || total != len(layout) || total < 4 {
		t.Fatalf("player drew %d pages; the collection has %d, the layout %d", len(pages), total, len(layout))
	}
	if !strings.Contains(body, "<h1>Running &lt;shoes&gt;</h1>") {
		t.Error("the title is not shown, escaped")
	}
	if !strings.Contains(body, `data-page-count="`+strconv.Itoa(total)+`"`) {
		t.Error("the page count is not on the body")
	}
	var got [][]string
	for _, p := range pages {
		got = append(got, p.skus)
	}
	if !reflect.DeepEqual(got, layout) {
		t.Errorf("player SKUs %q, layout %q", got, layout)
	}
	// Every page starts a brand (pageBreak) with its heading; each group
	// has one heading, on its first page; a page that starts because its
	// predecessor was full carries no break mark.
	seen := map[string]bool{}
	for i, p := range pages {
		for _, g := range p.groups {
			if seen[g] {
				t.Errorf("group %s has a second heading on page %d", g, p.n)
			}
			seen[g] = true
		}
		starts := len(p.groups) > 0 && strings.Index(p.html, "data-group-field") < strings.Index(p.html, "data-sku")
		if i > 0 && p.brk != starts {
			t.Errorf("page %d: break mark %v, starts a group %v", p.n, p.brk, starts)
		}
	}
	for _, brand := range []string{"Acme", "Bolt", "Corsa"} {
		if !seen["brand="+brand] {
			t.Errorf("no heading for brand %s (headings %v)", brand, seen)
		}
	}
	// Product cards show the feed's columns in the feed's order, sku first.
	card := regexp.MustCompile(`data-sku="` + layout[0][0] + `"><dl>(.*?)</dl>`).FindStringSubmatch(body)
	if card == nil || !strings.HasPrefix(card[1], "<dt>sku</dt><dd>"+layout[0][0]+"</dd><dt>brand</dt>") || !strings.Contains(card[1], "<dt>color</dt>") {
		t.Errorf("product card %v", card)
	}

	// Two-page spreads: page 1 alone, then 2-3; startPage picks the spread.
	if v := visiblePages(pages); !reflect.DeepEqual(v, []int{1}) {
		t.Errorf("first spread %v, want [1]", v)
	}
	if !strings.Contains(body, `href="?startPage=2"`) || !strings.Contains(body, `<span class="prev disabled">`) {
		t.Error("the first spread has no next link to page 2, or a previous link")
	}
	body, pages = player(t, srv, hash, "?startPage=3")
	if v := visiblePages(pages); !reflect.DeepEqual(v, []int{2, 3}) {
		t.Errorf("startPage=3 shows %v, want [2 3]", v)
	}
	if !strings.Contains(body, `href="?startPage=1"`) || !strings.Contains(body, "Pages 2–3 of "+strconv.Itoa(total)) {
		t.Error("spread 2-3 has no previous link to page 1 or no page numbers")
	}
	for _, q := range []string{"?startPage=0", "?startPage=x", "?startPage=-4"} {
		if _, pages := player(t, srv, hash, q); !reflect.DeepEqual(visiblePages(pages), []int{1}) {
			t.Errorf("%s shows %v, want the first page", q, visiblePages(pages))
		}
	}
	_, pages = player(t, srv, hash, "?startPage=9999")
	if v := visiblePages(pages); v[len(v)-1] != total {
		t.Errorf("a startPage past the end shows %v, want the last spread", v)
	}

	// The embed code's URL opens at its startPage.
	env = c.get(map[string]string{"action": "collection.getEmbed", "collectionHash": hash, "startPage": "4"})
	var embed struct{ EmbedCode string }
	env.into(t, &embed)
	src := regexp.MustCompile(`src="([^"]*)"`).FindStringSubmatch(embed.EmbedCode)[1]
	_, pages = player(t, srv, hash, strings.TrimPrefix(src, srv.URL+"/_emulator/view/"+hash))
	if v := visiblePages(pages); !reflect.DeepEqual(v, []int{4, 5}) && !reflect.DeepEqual(v, []int{4}) {
		t.Errorf("the embed code's startPage=4 shows %v", v)
	}
}

func TestPlayerTemplateAndDocuments(t *testing.T) {
	srv, c := startTest(t, nil)
	sections := []map[string]any{
		{"sectionType": "static", "templates": []map[string]any{{"templateHash": "tpl-cover"}},
			"elements": []map[string]any{{"name": "headline", "value": "Spring <2026>"}, {"name": "gallery", "value": []string{"https://example.com/a.jpg", "https://example.com/b.jpg"}}}},
		{"sectionType": "blank", "pageCount": 2, "pageBreak": true},
		{"sectionType": "static", "templates": []map[string]any{{"templateHash": "tpl-article", "templatePages": []int{3, 9, 0}}}},
	}
	env := c.post(map[string]string{"action": "collection.createFromTemplate", "title": "Brochure", "sections": mustJSON(t, sections)})
	wantCode(t, env, 20, "OK")
	var out struct{ CollectionHash string }
	env.into(t, &out)
	hash := out.CollectionHash
	c.waitFor(hash, func(col testCollection) bool { return col.CollectionStatus != "processing" })

	_, pages := player(t, srv, hash, "")
	if len(pages) != 6 {
		t.Fatalf("drew %d pages, want 2 cover + 2 blank + 2 article", len(pages))
	}
	for _, i := range []int{0, 1} {
		p := pages[i]
		if !reflect.DeepEqual(p.layers["headline"], []string{"Spring &lt;2026&gt;"}) ||
			!reflect.DeepEqual(p.layers["gallery"], []string{"https://example.com/a.jpg", "https://example.com/b.jpg"}) ||
			p.layers["subtitle"] != nil || !strings.Contains(p.html, `data-layer="subtitle"`) {
			t.Errorf("cover page %d layers %v", p.n, p.layers)
		}
	}
	if !strings.Contains(pages[2].html, "blank page") || !pages[2].brk || !strings.Contains(pages[3].html, "blank page") || pages[3].brk {
		t.Errorf("pages 3-4 are not blank with a section break on 3:\n%s\n%s", pages[2].html, pages[3].html)
	}
	if !strings.Contains(pages[4].html, `data-template="tpl-article" data-template-page="3"`) || !strings.Contains(pages[5].html, `data-template-page="0"`) {
		t.Errorf("article pages are not 3 then 0 (index 9 skipped):\n%s", pages[4].html)
	}

	// An added document follows as numbered sheets.
	env = c.upload(map[string]string{"action": "flipbook.add", "collectionHash": hash, "title": "Price list"}, filePart{"prices.pdf", bytes.NewReader(minimalPDF(3))})
	wantCode(t, env, 20, "OK")
	body, pages := player(t, srv, hash, "?startPage=8")
	if len(pages) != 9 {
		t.Fatalf("drew %d pages after adding 3, want 9", len(pages))
	}
	for k, p := range pages[6:] {
		if !strings.Contains(p.html, "Price list") || !strings.Contains(p.html, "page "+strconv.Itoa(k+1)+" of 3") {
			t.Errorf("sheet %d: %s", p.n, p.html)
		}
	}
	if v := visiblePages(pages); !reflect.DeepEqual(v, []int{8, 9}) || strings.Contains(body, `class="next"`) {
		t.Errorf("last spread %v, or it has a next link", v)
	}
}

func TestPlayerFixtureCollectionsAndSettings(t *testing.T) {
	fx := fastFixture()
	a := &fx.Accounts[0]
	a.Collections = append(a.Collections,
		CollectionFixture{CollectionHash: "single", Title: "One at a time", PageCount: 3, Settings: map[string]any{"singlePageView": true, "backgroundColor": "#123456"}},
		CollectionFixture{CollectionHash: "empty", Title: "Nothing"},
		CollectionFixture{CollectionHash: "rtl", Title: "Right to left", PageCount: 3, Settings: map[string]any{"rightToLeftOrientation": true}})
	srv, _ := startTest(t, fx)

	body, pages := player(t, srv, "pub-private-1", "")
	if len(pages) == 0 || !strings.Contains(pages[0].html, "page 1 of") || !strings.Contains(body, ">private</span>") {
		t.Errorf("fixture document: %d pages, private badge missing?\n%s", len(pages), body)
	}
	body, pages = player(t, srv, "single", "?startPage=2")
	if len(pages) != 3 || !reflect.DeepEqual(visiblePages(pages), []int{2}) || !strings.Contains(body, "#123456") {
		t.Errorf("single-page view shows %v of %d pages", visiblePages(pages), len(pages))
	}
	if body, _ := player(t, srv, "rtl", ""); !strings.Contains(body, `<main class="book rtl">`) {
		t.Error("rightToLeftOrientation does not mark the book right to left")
	}
	if body, _ := player(t, srv, "single", ""); !strings.Contains(body, `<main class="book">`) {
		t.Error("a left-to-right book is marked right to left")
	}
	body, pages = player(t, srv, "empty", "")
	if len(pages) != 0 || !strings.Contains(body, "has no pages") {
		t.Errorf("empty collection drew %d pages", len(pages))
	}

	for _, hash := range []string{"nope", "draft-1"} {
		if hash == "draft-1" {
			if err := srv.Emulator.Delete(hash); err != nil {
				t.Fatal(err)
			}
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/_emulator/view/"+hash, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("player of %s: HTTP %d, want 404", hash, resp.StatusCode)
		}
	}
}

func TestPlayerGenerationFailed(t *testing.T) {
	srv, c := startTest(t, nil)
	if err := srv.Emulator.SetFaults(1, []string{"generation_failed"}); err != nil {
		t.Fatal(err)
	}
	env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]}]`})
	_ = srv.Emulator.SetFaults(0, nil)
	var out struct{ CollectionHash string }
	env.into(t, &out)
	c.waitFor(out.CollectionHash, func(col testCollection) bool { return col.CollectionStatus != "processing" })
	body, pages := player(t, srv, out.CollectionHash, "")
	if len(pages) != 0 || !strings.Contains(body, "generation of this collection failed") {
		t.Errorf("failed generation drew %d pages", len(pages))
	}
}
