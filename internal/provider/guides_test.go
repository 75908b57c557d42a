package provider

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// TestGuideExamples applies the complete example of each guide
// (examples/guides/*, shown by docs/guides/*) with the real terraform CLI
// against an in-process emulator, so that no guide can rot: apply, an empty
// plan afterwards, what the guide says happens, and destroy.
func TestGuideExamples(t *testing.T) {
	g := newGuideEnv(t)
	t.Run("catalogs-as-code", func(t *testing.T) {
		t.Parallel()
		w := g.workspace(t, "catalogs-as-code")
		w.tf("apply", "-auto-approve", "-input=false")
		w.emptyPlan()
		first := w.output("catalog_hash").(string)
		pages := int(w.output("page_count").(float64))

		// The feed is the example's products.csv: the player draws its
		// pages, a page per brand.
		body := httpGet(t, w.output("direct_link").(string))
		if n := strings.Count(body, "data-page=\""); n != pages || pages < 4 {
			t.Errorf("the player draws %d pages, the catalog has %d", n, pages)
		}
		for _, brand := range []string{"Acme", "Bolt", "Corsa", "Dune"} {
			if !strings.Contains(body, `data-group-value="`+brand+`"`) {
				t.Errorf("no heading for brand %s in the player", brand)
			}
		}
		if strings.Contains(body, `data-sku="R04"`) || !strings.Contains(body, `data-sku="R05"`) {
			t.Error("the filter on running and trail shoes is not what the player shows")
		}

		// A new feed version regenerates the catalog; the old one stays.
		out := w.tf("apply", "-auto-approve", "-input=false", "-var", "feed_version=2026-12-01")
		second := w.output("catalog_hash").(string)
		if second == first || !strings.Contains(out, "replaced due to changes in replace_triggered_by") || !strings.Contains(out, "Flipbook Collection Kept In The Account") {
			t.Errorf("a new feed version did not replace the catalog with a warning (hash %s -> %s):\n%s", first, second, out)
		}
		w.emptyPlan("-var", "feed_version=2026-12-01")
		w.tf("destroy", "-auto-approve", "-input=false", "-var", "feed_version=2026-12-01")
		var kept []string
		for _, c := range w.srv.Emulator.Collections() {
			if c.Kind == "catalog" && !c.Deleted {
				kept = append(kept, c.CollectionHash)
			}
		}
		if !slices.Equal(kept, []string{first, second}) {
			t.Errorf("the account holds catalogs %v, want both generations %s and %s", kept, first, second)
		}
	})

	t.Run("access-lists-as-code", func(t *testing.T) {
		t.Parallel()
		w := g.workspace(t, "access-lists-as-code")
		out := w.tf("apply", "-auto-approve", "-input=false")
		if !strings.Contains(out, "3 imported") {
			t.Errorf("the import blocks did not adopt three lists:\n%s", out)
		}
		w.emptyPlan()
		want := map[string][]emulator.PermissionView{
			"handbook-sales":      {{Type: "teammate", Group: "Sales"}, {Type: "teammate", Email: "ana@example.com"}},
			"handbook-support":    {{Type: "otp", Email: "contractor@example.net"}, {Type: "otp", Email: "auditor@example.org"}},
			"price-list-partners": {{Type: "sso", Group: "Partners"}},
		}
		for _, c := range w.srv.Emulator.Collections() {
			if c.Kind == "template" {
				want[c.CollectionHash] = []emulator.PermissionView{{Type: "teammate"}}
			}
		}
		if len(want) != 4 {
			t.Fatalf("the onboarding collection was not generated")
		}
		for _, c := range w.srv.Emulator.Collections() {
			if w, ok := want[c.CollectionHash]; ok && !sameEntries(c.Permissions, w) {
				t.Errorf("%s holds %+v, want %+v", c.CollectionHash, c.Permissions, w)
			}
		}

		// Code 48: a public collection has no access list.
		public := g.workspace(t, "access-lists-as-code")
		public.write("main.tf", `resource "flipbook_collection_permissions" "public" {
  collection_hash = "brochure-public"
  permissions     = [{ type = "teammate" }]
}
`)
		out, err := public.tfErr("apply", "-auto-approve", "-input=false")
		if err == nil || !strings.Contains(out, "48") || !strings.Contains(out, "published private") {
			t.Errorf("a list on a public collection: err %v\n%s", err, out)
		}
		w.tf("destroy", "-auto-approve", "-input=false")
	})

	t.Run("embed-codes", func(t *testing.T) {
		t.Parallel()
		w := g.workspace(t, "embed-codes")
		w.tf("apply", "-auto-approve", "-input=false")
		w.emptyPlan()
		code := w.output("catalog_embed_code").(string)
		if !strings.Contains(code, `width="100%" height="100%"`) || !strings.Contains(code, "startPage=2") {
			t.Errorf("catalog embed code %s is not responsive or does not open on page 2", code)
		}
		html := w.output("catalog_page_html").(string)
		link := w.output("catalog_direct_link").(string)
		if !strings.Contains(html, code) || !strings.Contains(html, "aspect-ratio: 16 / 9") || !strings.Contains(html, `href="`+link+`"`) {
			t.Errorf("the page passed on lacks the embed code, the ratio or the link:\n%s", html)
		}
		if side := w.output("sidebar_embed_code").(string); !strings.Contains(side, `width="320" height="240"`) {
			t.Errorf("sidebar embed %s", side)
		}
		if h := w.output("handbook_direct_link").(string); !strings.HasSuffix(h, "/_emulator/view/pub-private-1") {
			t.Errorf("handbook link %s", h)
		}
		// The embed code opens the player on the spread of page 2.
		src := regexp.MustCompile(`src="([^"]*)"`).FindStringSubmatch(code)
		if src == nil {
			t.Fatalf("no src in %s", code)
		}
		body := httpGet(t, strings.ReplaceAll(src[1], "&amp;", "&"))
		shown := regexp.MustCompile(`<section class="spread" data-spread="\d+" aria-label="Pages (\d+) to (\d+)">`).FindStringSubmatch(body)
		if shown == nil || shown[1] != "2" {
			t.Errorf("the embedded player does not show page 2 first: %v", shown)
		}
		w.tf("destroy", "-auto-approve", "-input=false")
	})

	t.Run("testing-with-the-emulator", func(t *testing.T) {
		t.Parallel()
		w := g.workspace(t, "testing-with-the-emulator")
		w.env = append(w.env, "FLIPBOOK_API_KEY=ci-key", "FLIPBOOK_API_SECRET=ci-secret")
		out := w.tf("test", "-no-color")
		if !strings.Contains(out, "Success! 3 passed, 0 failed.") {
			t.Errorf("terraform test:\n%s", out)
		}
		// The guide's CI job, as a CI system would run it: its own
		// emulator process, terraform test, apply, plans with and without
		// faults, destroy.
		if _, err := exec.LookPath("curl"); err != nil {
			t.Fatalf("ci.sh needs curl: %v", err)
		}
		ci := exec.Command("bash", "ci.sh")
		ci.Dir = w.dir
		ci.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+g.cliConfig, "CHECKPOINT_DISABLE=1", "SKIP_INIT=1",
			"TERRAFORM="+g.terraform, "FLIPBOOK_EMULATOR="+filepath.Join(g.bin, "flipbook-emulator"))
		b, err := ci.CombinedOutput()
		if err != nil {
			t.Fatalf("ci.sh: %v\n%s", err, b)
		}
		for _, want := range []string{"Success! 3 passed", "No changes.", `"fault"`, "Destroy complete!"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("ci.sh output lacks %q:\n%s", want, b)
			}
		}
	})
}

// guideEnv is what every guide's run shares: the binaries and the CLI
// configuration that points terraform at them.
type guideEnv struct {
	terraform, root, bin, cliConfig string
}

func newGuideEnv(t *testing.T) *guideEnv {
	t.Helper()
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("needs TF_ACC=1 and the terraform CLI (set by make test)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := cliProviderDir(t) // built once for every CLI test
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, cliConfig, `provider_installation {
  dev_overrides {
    "flipbook/flipbook" = "`+bin+`"
  }
  direct {}
}
`)
	return &guideEnv{terraform: tf, root: root, bin: bin, cliConfig: cliConfig}
}

// guideWorkspace is a copy of one guide's example with its own emulator
// (the example's fixture.json, else the demo fixture).
type guideWorkspace struct {
	t   *testing.T
	g   *guideEnv
	dir string
	srv *emulator.Server
	env []string
}

func (g *guideEnv) workspace(t *testing.T, name string) *guideWorkspace {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(g.root, "examples", "guides", name))); err != nil {
		t.Fatal(err)
	}
	fx := emulator.DemoFixture()
	if _, err := os.Stat(filepath.Join(dir, "fixture.json")); err == nil {
		if fx, err = emulator.LoadFixture(filepath.Join(dir, "fixture.json")); err != nil {
			t.Fatal(err)
		}
	}
	delay := testGenerationDelay
	srv, err := emulator.Start(emulator.Options{Fixture: fx, GenerationDelay: &delay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	key, secret := fx.Accounts[0].APIKey, fx.Accounts[0].Secret
	w := &guideWorkspace{t: t, g: g, dir: dir, srv: srv, env: append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+g.cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"FLIPBOOK_API_KEY="+key, "FLIPBOOK_API_SECRET="+secret,
		"FLIPBOOK_BASE_URL="+srv.BaseURL, "FLIPBOOK_UPLOAD_URL="+srv.UploadURL)}
	// Local modules are linked by `terraform get`; `terraform init` would
	// also look for the provider, which dev_overrides provides.
	w.tf("get")
	return w
}

func (w *guideWorkspace) write(name, content string) {
	w.t.Helper()
	for _, e := range []string{"main.tf", "outputs.tf"} {
		_ = os.Remove(filepath.Join(w.dir, e))
	}
	writeFile(w.t, filepath.Join(w.dir, name), content)
}

func (w *guideWorkspace) tfErr(args ...string) (string, error) {
	w.t.Helper()
	if args[0] != "test" {
		args = append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)
	}
	start := time.Now()
	cmd := exec.Command(w.g.terraform, args...) //nolint:gosec // G204: the terraform CLI the test suite is pointed at, with the test's own arguments
	cmd.Dir = w.dir
	cmd.Env = w.env
	b, err := cmd.CombinedOutput()
	w.t.Logf("terraform %s: %s", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return string(b), err
}

func (w *guideWorkspace) tf(args ...string) string {
	w.t.Helper()
	out, err := w.tfErr(args...)
	if err != nil {
		w.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// emptyPlan proves that the applied configuration converged.
func (w *guideWorkspace) emptyPlan(vars ...string) {
	w.t.Helper()
	out, err := w.tfErr(append([]string{"plan", "-input=false", "-detailed-exitcode"}, vars...)...)
	if err != nil {
		w.t.Fatalf("the plan after apply is not empty (%v):\n%s", err, out)
	}
}

func (w *guideWorkspace) output(name string) any {
	w.t.Helper()
	var v any
	if err := json.Unmarshal([]byte(w.tf("output", "-json", name)), &v); err != nil {
		w.t.Fatalf("output %s: %v", name, err)
	}
	return v
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: HTTP %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// sameEntries compares access lists as sets.
func sameEntries(got, want []emulator.PermissionView) bool {
	if len(got) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}
