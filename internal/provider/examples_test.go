package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestExamplesValidate proves that every configuration under examples/ is
// accepted by the real terraform CLI against the built provider binary, and
// is terraform fmt clean, so the docs never show an example that fails.
func TestExamplesValidate(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		t.Skip("needs TF_ACC=1 and the terraform CLI (set by make test)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}

	cliConfig := devOverridesConfig(t, buildProvider(t))
	cli := cliVersion(t, tf)

	fmtCmd := exec.Command(tf, "fmt", "-check", "-recursive", "-diff", filepath.Join(root, "examples"))
	if out, err := fmtCmd.CombinedOutput(); err != nil {
		t.Errorf("examples are not terraform fmt clean: %v\n%s", err, out)
	}

	var dirs []string
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == filepath.Join(root, "examples", "guides") {
			return filepath.SkipDir // TestGuideExamples applies them
		}
		if !d.IsDir() && strings.HasSuffix(p, ".tf") {
			dir := filepath.Dir(p)
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range wantedExampleFiles(t) {
		if _, err := os.Stat(filepath.Join(root, want)); err != nil {
			t.Errorf("missing example %s: every object the provider registers gets one (tfplugindocs shows it)", want)
		}
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			if need, ok := exampleNeeds[filepath.ToSlash(rel)]; ok && !atLeast(cli, need[0], need[1]) {
				t.Skipf("needs Terraform %d.%d or later; this CLI is %s", need[0], need[1], cli)
			}
			t.Parallel()
			work := t.TempDir()
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.IsDir() {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(work, e.Name()), string(b))
			}
			cmd := exec.Command(tf, "validate", "-no-color")
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("terraform validate %s: %v\n%s", rel, err, out)
			}
		})
	}
}

// exampleNeeds is the CLI version an example directory needs beyond the
// provider's own minimum (1.11): import by identity needs 1.12 (OpenTofu
// 1.12 too), actions 1.14 (OpenTofu 1.12 has none; it reports 1.12).
var exampleNeeds = map[string][2]int{
	"examples/import-by-identity":                     {1, 12},
	"examples/actions/flipbook_html_package_download": {1, 14},
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// wantedExampleFiles lists the files tfplugindocs reads for each object the
// provider registers, so that a new object cannot ship without an example.
func wantedExampleFiles(t *testing.T) []string {
	t.Helper()
	ctx := t.Context()
	p, ok := New("test")().(*flipbookProvider)
	if !ok {
		t.Fatal("New does not build a *flipbookProvider")
	}
	want := []string{"examples/provider/provider.tf"}
	for _, f := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "flipbook"}, &resp)
		dir := filepath.Join("examples", "resources", resp.TypeName)
		want = append(want, filepath.Join(dir, "resource.tf"), filepath.Join(dir, "import.sh"))
	}
	for _, f := range p.DataSources(ctx) {
		var resp datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "flipbook"}, &resp)
		want = append(want, filepath.Join("examples", "data-sources", resp.TypeName, "data-source.tf"))
	}
	for _, f := range p.EphemeralResources(ctx) {
		var resp ephemeral.MetadataResponse
		f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "flipbook"}, &resp)
		want = append(want, filepath.Join("examples", "ephemeral-resources", resp.TypeName, "ephemeral-resource.tf"))
	}
	for _, f := range p.Actions(ctx) {
		var resp action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "flipbook"}, &resp)
		want = append(want, filepath.Join("examples", "actions", resp.TypeName, "action.tf"))
	}
	if len(want) != 1+2*6+5+1+1 {
		t.Fatalf("the provider registers %d example files' worth of objects, want the provider's and its 13 objects' (6 resources with import examples, 5 data sources, 1 ephemeral resource, 1 action)", len(want))
	}
	return want
}
