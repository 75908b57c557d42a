package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

	binDir := t.TempDir()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the provider: %v", err)
	}
	build := exec.Command(gobin, "build", "-o", filepath.Join(binDir, "terraform-provider-flipbook"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, cliConfig, `provider_installation {
  dev_overrides {
    "flipbook/flipbook" = "`+binDir+`"
  }
  direct {}
}
`)

	fmtCmd := exec.Command(tf, "fmt", "-check", "-recursive", "-diff", filepath.Join(root, "examples"))
	if out, err := fmtCmd.CombinedOutput(); err != nil {
		t.Errorf("examples are not terraform fmt clean: %v\n%s", err, out)
	}

	var dirs []string
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
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
	if len(dirs) < 12 {
		t.Fatalf("found %d example directories, want one per provider, resource, data source and ephemeral resource", len(dirs))
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
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

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
