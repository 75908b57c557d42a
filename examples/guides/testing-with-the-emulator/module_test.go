// A Go test of this directory's configuration in the style of Terratest:
// the emulator starts in-process with flipbooktest, terraform applies the
// configuration with the emulator's environment, the test checks what the
// emulator holds, and checks that the configuration converges, also through
// a flaky network. With Terratest the
// terraform calls are terraform.InitAndApply(t, opts) and friends, with
// opts.EnvVars = srv.Env("ci-key"); the guide shows that version.
//
// Run with TF_ACC=1 (and terraform on PATH or in TF_ACC_TERRAFORM_PATH); the
// provider is built from this repository and installed by dev_overrides.
package testingwiththeemulator_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/flipbooktest"
)

func TestBrochureModule(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to run terraform against the emulator")
	}
	srv := flipbooktest.NewServer(t, flipbooktest.WithFixtureFile("fixture.json"), flipbooktest.WithGenerationDelay(0))
	tf := newTerraform(t, srv.Env("ci-key"))

	tf.run("apply", "-auto-approve", "-input=false", "-var=title=Module test")
	var brochure flipbooktest.Collection
	for _, c := range srv.Collections() {
		if c.Title == "Module test" {
			brochure = c
		}
	}
	if brochure.Hash == "" || brochure.PageCount != 3 || len(brochure.Permissions) != 1 || brochure.Permissions[0].Email != "partner@example.net" {
		t.Fatalf("the emulator holds %+v", srv.Collections())
	}
	if out := tf.run("output", "-raw", "direct_link"); !strings.HasSuffix(out, "/_emulator/view/"+brochure.Hash) {
		t.Fatalf("direct_link %q", out)
	}

	// Converged: a second plan has nothing to do.
	tf.run("plan", "-detailed-exitcode", "-input=false", "-var=title=Module test")

	// Through a flaky network (a third of the calls meet a 502 page or a
	// dropped connection) the provider retries and the plan stays empty.
	if err := srv.SetFaults(flipbooktest.Faults{Rate: 0.3, Kinds: []string{flipbooktest.FaultHTTP502, flipbooktest.FaultReset}}); err != nil {
		t.Fatal(err)
	}
	tf.run("plan", "-detailed-exitcode", "-input=false", "-var=title=Module test")
	if err := srv.SetFaults(flipbooktest.Faults{}); err != nil {
		t.Fatal(err)
	}
	faults := 0
	for _, byCode := range srv.Requests() {
		faults += byCode["fault"]
	}
	if faults == 0 {
		t.Fatalf("no call met a fault: %v", srv.Requests())
	}
	tf.run("destroy", "-auto-approve", "-input=false", "-var=title=Module test")
}

// terraform runs the CLI in a copy of this directory with the provider built
// from the repository.
type terraform struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func newTerraform(t *testing.T, env map[string]string) *terraform {
	t.Helper()
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no terraform CLI")
		}
	}
	plugins := t.TempDir()
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(plugins, "terraform-provider-flipbook"), "../../..") //nolint:gosec // G204: the test builds this repository
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(t.TempDir(), "terraformrc")
	cfg := "provider_installation {\n  dev_overrides {\n    \"flipbook/flipbook\" = \"" + plugins + "\"\n  }\n  direct {}\n}\n"
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"main.tf", "versions.tf"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf := &terraform{t: t, bin: bin, dir: dir, env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
	for k, v := range env {
		tf.env = append(tf.env, k+"="+v)
	}
	return tf
}

func (tf *terraform) try(args ...string) (string, error) {
	cmd := exec.CommandContext(tf.t.Context(), tf.bin, append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)...) //nolint:gosec // G204: the test's own terraform binary and arguments
	cmd.Dir = tf.dir
	cmd.Env = tf.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (tf *terraform) run(args ...string) string {
	tf.t.Helper()
	out, err := tf.try(args...)
	if err != nil {
		tf.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
