package emulator

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPlayerInBrowser drives a real headless Chromium over the player of a
// catalog and of a template collection: what a reader sees, not just what
// the HTML holds. It runs under `make test-browser` (FLIPBOOK_BROWSER_TEST=1),
// which installs Debian's chromium when it is missing; there a missing
// browser fails the test instead of skipping it.
//
// FLIPBOOK_CHROMIUM names the browser (default /usr/bin/chromium), and
// FLIPBOOK_SCREENSHOT_DIR where the screenshots go (default a temporary
// directory); the docs show the ones written to assets/screenshots.
func TestPlayerInBrowser(t *testing.T) {
	if os.Getenv("FLIPBOOK_BROWSER_TEST") == "" {
		t.Skip("set FLIPBOOK_BROWSER_TEST=1 (make test-browser) to drive headless Chromium")
	}
	chromium := os.Getenv("FLIPBOOK_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(chromium); err != nil {
		t.Fatalf("no browser at %s (make test-browser installs Debian's chromium): %v", chromium, err)
	}
	shots := os.Getenv("FLIPBOOK_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o750); err != nil {
		t.Fatal(err)
	}

	srv, c := startTest(t, nil)
	catalogHash := createAndWait(t, c, "collection.createCatalog", "Running shoes", []map[string]any{{
		"sectionType": "feed",
		"sources":     []map[string]any{{"sourceHash": "feed-shoes"}},
		"templates":   []map[string]any{{"templateHash": "tpl-product"}},
		"filters":     []map[string]any{{"mode": "include", "conditions": []map[string]any{{"field": "category", "operator": "in", "value": []string{"running", "trail"}}}}},
		"sortBy":      []map[string]any{{"field": "price", "order": "asc"}},
		"groupBy":     []map[string]any{{"field": "brand", "pageBreak": true}},
	}})
	templateHash := createAndWait(t, c, "collection.createFromTemplate", "Spring brochure", []map[string]any{
		{"sectionType": "static", "templates": []map[string]any{{"templateHash": "tpl-cover"}},
			"elements": []map[string]any{{"name": "headline", "value": "Spring 2026"}, {"name": "subtitle", "value": "New running shoes"}}},
		{"sectionType": "blank", "pageCount": 1},
		{"sectionType": "static", "templates": []map[string]any{{"templateHash": "tpl-article", "templatePages": []int{0, 1}}},
			"elements": []map[string]any{{"name": "title", "value": "Made to run"}}},
	})
	layout := controlLayout(t, srv, catalogHash)

	dir := t.TempDir() // a fresh profile each run
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1200, 760),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	defer cancel()
	start := time.Now()
	// The first call starts the browser; it carries no timeout, since that
	// would stop the browser with it.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	t.Logf("browser started in %s", time.Since(start).Round(time.Millisecond))
	ctx, cancelTimeout := context.WithTimeout(bctx, 2*time.Minute)
	defer cancelTimeout()

	visible := func(t *testing.T, page int) bool {
		t.Helper()
		return eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('[data-page="%d"]').checkVisibility()`, page))
	}
	text := func(t *testing.T, sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}
	screenshot := func(t *testing.T, name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		writePNG(t, filepath.Join(shots, name), png)
	}

	t.Run("catalog", func(t *testing.T) {
		do(t, ctx,
			chromedp.Navigate(directLinkOf(t, c, catalogHash)),
			chromedp.WaitVisible(chromedp.CSS(`[data-page="1"]`)),
		)
		pages := eval[int](t, ctx, `document.querySelectorAll('[data-page]').length`)
		if pages != len(layout) || pages < 3 {
			t.Fatalf("the browser counts %d pages, the catalog has %d", pages, len(layout))
		}
		skus := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-page="2"] [data-sku]'), e => e.dataset.sku)`)
		if !reflect.DeepEqual(skus, layout[1]) {
			t.Errorf("SKUs on page 2: %v, the layout says %v", skus, layout[1])
		}
		if !visible(t, 1) || visible(t, 2) {
			t.Errorf("before a turn page 1 visible=%v, page 2 visible=%v; want the cover alone", visible(t, 1), visible(t, 2))
		}

		// A page turn: Next shows the spread 2-3, with page 2's group heading.
		do(t, ctx,
			chromedp.Click(chromedp.CSS(`a.next`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-page="2"]`)),
		)
		heading := text(t, `[data-page="2"] h2.group`)
		brand := productBrand(t, layout[1][0])
		if heading != "brand: "+brand {
			t.Errorf("page 2 heading %q, want %q (the brand of %s)", heading, "brand: "+brand, layout[1][0])
		}
		if where := text(t, ".where"); visible(t, 1) || !visible(t, 3) || where != "Pages 2–3 of "+strconv.Itoa(pages) {
			t.Errorf("after the turn: page 1 visible=%v, page 3 visible=%v, position %q", visible(t, 1), visible(t, 3), where)
		}
		screenshot(t, "player-catalog.png")

		// And back.
		do(t, ctx,
			chromedp.Click(chromedp.CSS(`a.prev`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-page="1"]`)),
		)
		if visible(t, 2) {
			t.Error("Previous did not turn back to the cover")
		}
	})

	t.Run("template", func(t *testing.T) {
		var embed struct{ EmbedCode string }
		c.get(map[string]string{"action": "collection.getEmbed", "collectionHash": templateHash, "startPage": "2", "responsive": "true"}).into(t, &embed)
		src := regexp.MustCompile(`src="([^"]*)"`).FindStringSubmatch(embed.EmbedCode)
		if src == nil {
			t.Fatalf("embed code without src: %s", embed.EmbedCode)
		}
		do(t, ctx,
			chromedp.Navigate(src[1]),
			chromedp.WaitVisible(chromedp.CSS(`[data-page="2"]`)),
		)
		if pages := eval[int](t, ctx, `document.querySelectorAll('[data-page]').length`); pages != 5 {
			t.Errorf("the browser counts %d pages, want 2 cover + 1 blank + 2 article", pages)
		}
		shown := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-page]')).filter(e => e.checkVisibility()).map(e => e.dataset.page)`)
		if !reflect.DeepEqual(shown, []string{"2", "3"}) {
			t.Errorf("startPage=2 shows pages %v, want [2 3]", shown)
		}
		if h, b := text(t, `[data-page="2"] [data-layer="headline"] .value`), text(t, `[data-page="3"] .blank-mark`); h != "Spring 2026" || b != "blank page" {
			t.Errorf("page 2 headline %q, page 3 %q", h, b)
		}
		screenshot(t, "player-template.png")

		do(t, ctx,
			chromedp.Click(chromedp.CSS(`a.next`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-page="4"]`)),
		)
		if title, where := text(t, `[data-page="4"] [data-layer="title"] .value`), text(t, ".where"); title != "Made to run" || where != "Pages 4–5 of 5" {
			t.Errorf("after the turn: title %q, position %q", title, where)
		}
	})
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func createAndWait(t *testing.T, c *testClient, action, title string, sections any) string {
	t.Helper()
	env := c.post(map[string]string{"action": action, "title": title, "sections": mustJSON(t, sections)})
	wantCode(t, env, 20, "OK")
	var out struct{ CollectionHash string }
	env.into(t, &out)
	c.waitFor(out.CollectionHash, func(col testCollection) bool { return col.CollectionStatus != "processing" })
	return out.CollectionHash
}

func directLinkOf(t *testing.T, c *testClient, hash string) string {
	t.Helper()
	env := c.get(map[string]string{"action": "collection.getCollection", "collectionHash": hash})
	var col struct{ DirectLink string }
	env.into(t, &col)
	if col.DirectLink == "" {
		t.Fatal("no directLink")
	}
	return col.DirectLink
}

// productBrand reads a product's brand from the demo fixture's feed.
func productBrand(t *testing.T, sku string) string {
	t.Helper()
	for _, p := range DemoFixture().Accounts[0].Feeds[0].Products {
		if p["sku"] == sku {
			return fmt.Sprint(p["brand"])
		}
	}
	t.Fatalf("no product %s in the demo feed", sku)
	return ""
}

func writePNG(t *testing.T, path string, png []byte) {
	t.Helper()
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
		t.Fatalf("the screenshot is not a PNG of a drawn page (%d bytes)", len(png))
	}
	if err := os.WriteFile(path, png, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s (%d bytes)", path, len(png))
}
