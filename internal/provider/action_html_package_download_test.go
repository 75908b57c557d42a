package provider

import (
	"archive/zip"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// Actions need Terraform 1.14; OpenTofu 1.12 has none and reports 1.12.
var actionCLIs = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// packageActionConfig declares the action; a trigger names a terraform_data
// whose creation invokes it (a new name per step that fails, since a
// resource created before the action failed is not created again).
func packageActionConfig(e *testEmulator, hash, dest, trigger string) string {
	cfg := e.providerConfig("") + fmt.Sprintf(`
action "flipbook_html_package_download" "handbook" {
  config {
    collection_hash = %q
    path            = %q
    timeouts        = { invoke = "1m" }
  }
}
`, hash, dest)
	if trigger != "" {
		cfg += `
resource "terraform_data" "` + trigger + `" {
  input = "v1"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.flipbook_html_package_download.handbook]
    }
  }
}
`
	}
	return cfg
}

// checkPackageZIP checks that dest is a valid ZIP holding the emulator's
// index.html.
func checkPackageZIP(dest string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		r, err := zip.OpenReader(dest)
		if err != nil {
			return fmt.Errorf("%s is not a ZIP archive: %w", dest, err)
		}
		defer r.Close()
		for _, f := range r.File {
			if f.Name == "index.html" {
				return nil
			}
		}
		return fmt.Errorf("%s has no index.html among %d entries", dest, len(r.File))
	}
}

// noTempFiles checks that no temporary file was left next to dest.
func noTempFiles(t *testing.T, dest string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("temporary files left beside %s: %v", dest, left)
	}
}

func TestAccHTMLPackageDownloadAction_trigger(t *testing.T) {
	emu := newTestEmulator(t, nil)
	dest := filepath.Join(t.TempDir(), "out", "handbook.zip") // "out" does not exist yet
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		TerraformVersionChecks:   actionCLIs,
		Steps: []resource.TestStep{
			{
				Config: packageActionConfig(emu, "col-private", dest, "publish"),
				Check: resource.ComposeTestCheckFunc(checkPackageZIP(dest), func(s *terraform.State) error {
					if n := emu.Emulator.Requests()[apiclient.ActionDownloadHTML]["20"]; n == 0 {
						return fmt.Errorf("the action never called downloadHTML")
					}
					// The action keeps nothing in state: the link least of all.
					for name, r := range s.RootModule().Resources {
						for k, v := range r.Primary.Attributes {
							if strings.Contains(v, "/_emulator/packages/") {
								return fmt.Errorf("%s.%s holds a package link", name, k)
							}
						}
					}
					return nil
				}),
			},
		},
	})
	noTempFiles(t, dest)
}

func TestAccHTMLPackageDownloadAction_errors(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	dir := t.TempDir()
	dest := filepath.Join(dir, "handbook.zip")

	// A collection whose generation failed has a FAILED package.
	emu.Emulator.SetGenerationDelay(0)
	if err := emu.Emulator.SetFaults(1, []string{"generation_failed"}); err != nil {
		t.Fatal(err)
	}
	failed, err := api.CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{Title: "Broken",
		Sections: []apiclient.Section{{Type: apiclient.SectionStatic, Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-cover"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dest, []byte("the previous package"), 0o600); err != nil {
		t.Fatal(err)
	}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		TerraformVersionChecks:   actionCLIs,
		Steps: []resource.TestStep{
			{
				Config:      packageActionConfig(emu, "", dest, ""),
				ExpectError: regexp.MustCompile(`(?s)collection_hash.*at least 1`),
			},
			{
				Config:      packageActionConfig(emu, "col-private", "", ""),
				ExpectError: regexp.MustCompile(`(?s)path.*at least 1`),
			},
			{
				// FAILED leaves the previous file in place.
				Config:      packageActionConfig(emu, failed, dest, "failed"),
				ExpectError: msgRe("HTML Package Generation Failed", failed, "nothing was written"),
			},
			{
				Config:      packageActionConfig(emu, "no-such-collection", dest, "missing"),
				ExpectError: msgRe("Error Generating HTML Package", "code 46"),
			},
			{
				Config:      packageActionConfig(emu, "col-private", dir, "directory"),
				ExpectError: msgRe("Path Is A Directory", dir),
			},
		},
	})
	if b, err := os.ReadFile(dest); err != nil || string(b) != "the previous package" {
		t.Errorf("a failed action changed %s: %q, %v", dest, b, err)
	}
	noTempFiles(t, dest)
}

// TestAccHTMLPackageDownloadAction_invoke runs the action the way a user
// does, with `terraform apply -invoke`, against the provider built as a
// binary, and reads every byte Terraform printed and logged for the link.
func TestAccHTMLPackageDownloadAction_invoke(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("needs TF_ACC=1 and the terraform CLI (set by make test)")
	}
	if v := cliVersion(t, tf); !atLeast(v, 1, 14) {
		t.Skipf("Terraform CLI version %s is below 1.14.0, the first with actions: skipping test", v)
	}
	t.Parallel()
	emu := newTestEmulator(t, nil)
	cliConfig := devOverridesConfig(t, buildProvider(t))
	work := t.TempDir()
	dest := filepath.Join(work, "handbook.zip")
	writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    flipbook = { source = "flipbook/flipbook" }
  }
}
`+packageActionConfig(emu, "col-private", "handbook.zip", ""))
	logFile := filepath.Join(t.TempDir(), "terraform.log")

	cmd := exec.Command(tf, "apply", "-invoke=action.flipbook_html_package_download.handbook", "-auto-approve", "-no-color")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TF_LOG=TRACE", "TF_LOG_PATH="+logFile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s", err, out)
	}
	if err := checkPackageZIP(dest)(nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Requesting the HTML package of collection col-private",
		"Waiting for the HTML package of collection col-private: PROCESSING", // the emulator builds it in a second
		"Wrote the HTML package",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output shows no progress %q:\n%s", want, out)
		}
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "collection.downloadHTML") {
		t.Fatalf("the trace log shows no downloadHTML call: the check below would prove nothing")
	}
	state, _ := os.ReadFile(filepath.Join(work, "terraform.tfstate")) // may not exist: nothing is managed
	for what, text := range map[string]string{"output": string(out), "log": string(logs), "state": string(state)} {
		if strings.Contains(text, "/_emulator/packages/") {
			t.Errorf("the package link appears in Terraform's %s", what)
		}
	}
	noTempFiles(t, dest)
}

// cliVersion is the version the CLI at tf reports, such as "1.16.4".
func cliVersion(t *testing.T, tf string) string {
	t.Helper()
	out, err := exec.Command(tf, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", tf, err)
	}
	m := regexp.MustCompile(`(?m)^(?:Terraform|OpenTofu) v(\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s version printed no version:\n%s", tf, out)
	}
	return string(m[1])
}

// atLeast reports whether version v is major.minor or later.
func atLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// buildProvider builds the provider binary into a new directory and returns
// that directory.
func buildProvider(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the provider: %v", err)
	}
	binDir := t.TempDir()
	build := exec.Command(gobin, "build", "-o", filepath.Join(binDir, "terraform-provider-flipbook"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	return binDir
}

// devOverridesConfig writes a CLI configuration that takes the provider
// from binDir, and returns its path.
func devOverridesConfig(t *testing.T, binDir string) string {
	t.Helper()
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, cliConfig, `provider_installation {
  dev_overrides {
    "flipbook/flipbook" = "`+binDir+`"
  }
  direct {}
}
`)
	return cliConfig
}

// The action's page is written by hand (the CLI that renders the docs knows
// no actions): every attribute, nested ones included, must be listed there
// with the description the schema gives it.
func TestActionDocsListEveryArgument(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "actions", "html_package_download.md"))
	if err != nil {
		t.Fatal(err)
	}
	var resp action.SchemaResponse
	newHTMLPackageDownloadAction().Schema(t.Context(), action.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	n := 0
	var check func(attrs map[string]actionschema.Attribute)
	check = func(attrs map[string]actionschema.Attribute) {
		for name, a := range attrs {
			n++
			desc := a.GetMarkdownDescription()
			if desc == "" {
				desc = a.GetDescription()
			}
			if line := "- `" + name + "` ("; !strings.Contains(string(page), line) ||
				!strings.Contains(string(page), ") "+desc) {
				t.Errorf("the action's page does not list %q with its schema description %q", name, desc)
			}
			if nested, ok := a.(actionschema.SingleNestedAttribute); ok {
				check(nested.Attributes)
			}
		}
	}
	check(resp.Schema.Attributes)
	if n != 4 {
		t.Errorf("checked %d attributes, want 4 (collection_hash, path, timeouts, timeouts.invoke)", n)
	}
}

// failFirstPackageGET answers the first download of a package with 503 and
// passes everything else to the network.
type failFirstPackageGET struct {
	failed bool
}

func (f *failFirstPackageGET) RoundTrip(r *http.Request) (*http.Response, error) {
	if !f.failed && strings.Contains(r.URL.Path, "/_emulator/packages/") {
		f.failed = true
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: io.NopCloser(strings.NewReader("busy")),
			Header: http.Header{}, Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// A download that fails is tried again with a fresh link: the package
// exists, so asking again costs one call and creates nothing.
func TestHTMLPackageDownloadRetriesAFailedDownload(t *testing.T) {
	emu := newTestEmulator(t, nil)
	flaky := &failFirstPackageGET{}
	client, err := apiclient.New(apiclient.Config{BaseURL: emu.BaseURL, UploadURL: emu.UploadURL, APIKey: testAPIKey,
		Secret: testSecret, HTTPClient: &http.Client{Transport: flaky}})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "handbook.zip")

	a := newHTMLPackageDownloadAction()
	configurable, ok := a.(action.ActionWithConfigure)
	if !ok {
		t.Fatal("the action has no Configure")
	}
	var cresp action.ConfigureResponse
	configurable.Configure(t.Context(), action.ConfigureRequest{ProviderData: &providerData{client: client}}, &cresp)
	var sresp action.SchemaResponse
	a.Schema(t.Context(), action.SchemaRequest{}, &sresp)
	if d := append(cresp.Diagnostics, sresp.Diagnostics...); d.HasError() {
		t.Fatal(d)
	}
	typ := sresp.Schema.Type().TerraformType(t.Context())
	values := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, nil)}
	for attr, v := range map[string]string{"collection_hash": "col-private", "path": dest} {
		if d := values.SetAttribute(t.Context(), path.Root(attr), v); d.HasError() {
			t.Fatal(d)
		}
	}
	var progress []string
	resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	a.Invoke(t.Context(), action.InvokeRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: values.Raw}}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("invoke failed: %v\nprogress: %q", resp.Diagnostics, progress)
	}
	if !flaky.failed {
		t.Fatal("the first download was never attempted: the test proves nothing")
	}
	if err := checkPackageZIP(dest)(nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(progress, "\n"), "HTTP 503); requesting a new link") {
		t.Errorf("progress does not report the retry: %q", progress)
	}
	if n := emu.Emulator.Requests()[apiclient.ActionDownloadHTML]["20"]; n < 2 {
		t.Errorf("downloadHTML answered %d times, want a second call for a fresh link", n)
	}
}
