package provider

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// This file is a workspace driven through the real terraform CLI (whichever
// TF_ACC_TERRAFORM_PATH names: Terraform 1.11, 1.16 or OpenTofu) with the
// provider binary under dev_overrides, for the paths terraform-plugin-testing
// cannot walk: Ctrl-C, `terraform state rm`, `terraform import` of an address
// and the exact words a user types after reading a diagnostic.

// cliProvider is the provider and emulator binaries, built once per test
// binary for every test that drives the real CLI (these and the guides').
var cliProvider struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// cliProviderDir builds terraform-provider-flipbook and flipbook-emulator
// into a directory of their own (removed by TestMain) and returns it.
func cliProviderDir(t *testing.T) string {
	t.Helper()
	cliProvider.once.Do(func() {
		// Shared by every test of the binary (t.TempDir would go with the
		// first test); TestMain removes it.
		cliProvider.dir, cliProvider.err = os.MkdirTemp("", "flipbook-cli-provider-") //nolint:usetesting // see above
		if cliProvider.err != nil {
			return
		}
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			cliProvider.err = err
			return
		}
		for _, target := range [][2]string{{"terraform-provider-flipbook", "."}, {"flipbook-emulator", "./cmd/flipbook-emulator"}} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(cliProvider.dir, target[0]), target[1]) //nolint:gosec // G204: the test builds the repository's own packages
			cmd.Dir = root
			if cliProvider.out, cliProvider.err = cmd.CombinedOutput(); cliProvider.err != nil {
				return
			}
		}
	})
	if cliProvider.err != nil {
		t.Fatalf("building the provider and the emulator: %v\n%s", cliProvider.err, cliProvider.out)
	}
	return cliProvider.dir
}

// removeCLIProvider is TestMain's cleanup.
func removeCLIProvider() {
	if cliProvider.dir != "" {
		_ = os.RemoveAll(cliProvider.dir)
	}
}

// cliWorkspace is one Terraform working directory against one emulator.
type cliWorkspace struct {
	t   *testing.T
	e   *testEmulator
	dir string
	env []string
}

func newCLIWorkspace(t *testing.T, e *testEmulator) *cliWorkspace {
	t.Helper()
	if os.Getenv("TF_ACC") == "" || os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Skip("needs TF_ACC=1 and the terraform CLI (set by make test)")
	}
	bin := cliProviderDir(t)
	dir := t.TempDir()
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, `provider_installation {
  dev_overrides {
    "flipbook/flipbook" = "`+bin+`"
  }
  direct {}
}
`)
	w := &cliWorkspace{t: t, e: e, dir: dir}
	w.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	w.setAccount(e.apiKey, e.secret)
	return w
}

// setAccount points the provider at another account of the emulator, as a
// user with other credentials in the environment would.
func (w *cliWorkspace) setAccount(key, secret string) {
	kept := w.env[:0:0]
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "FLIPBOOK_") {
			kept = append(kept, kv)
		}
	}
	w.env = append(kept, "FLIPBOOK_API_KEY="+key, "FLIPBOOK_API_SECRET="+secret,
		"FLIPBOOK_BASE_URL="+w.e.BaseURL, "FLIPBOOK_UPLOAD_URL="+w.e.UploadURL)
}

// config replaces the workspace's configuration with main.tf.
func (w *cliWorkspace) config(main string) {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), `terraform {
  required_providers {
    flipbook = { source = "flipbook/flipbook" }
  }
}

`+main)
}

func (w *cliWorkspace) command(args ...string) *exec.Cmd {
	sub := 1 // -no-color goes after the subcommand: `state rm -no-color ADDR`
	if args[0] == "state" {
		sub = 2
	}
	args = append(args[:sub:sub], append([]string{"-no-color"}, args[sub:]...)...)
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), args...) //nolint:gosec // G204: the CLI the suite is pointed at, with the test's own arguments
	cmd.Dir = w.dir
	cmd.Env = w.env
	return cmd
}

// run runs one terraform command and returns its output and error.
func (w *cliWorkspace) run(args ...string) (string, error) {
	w.t.Helper()
	start := time.Now()
	out, err := w.command(args...).CombinedOutput()
	w.t.Logf("terraform %s: %s (%v)", strings.Join(args, " "), time.Since(start).Round(time.Millisecond), err)
	return string(out), err
}

// must runs a command that has to succeed.
func (w *cliWorkspace) must(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// fails runs a command that has to fail and returns its output.
func (w *cliWorkspace) fails(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err == nil {
		w.t.Fatalf("terraform %s succeeded; it must fail:\n%s", strings.Join(args, " "), out)
	}
	return out
}

func (w *cliWorkspace) apply(args ...string) string {
	w.t.Helper()
	return w.must(append([]string{"apply", "-input=false", "-auto-approve"}, args...)...)
}

// emptyPlan proves that the workspace converged.
func (w *cliWorkspace) emptyPlan() {
	w.t.Helper()
	out, err := w.run("plan", "-input=false", "-detailed-exitcode")
	if err != nil {
		w.t.Fatalf("the plan is not empty (%v):\n%s", err, out)
	}
}

// interrupt starts a command and sends it SIGINT, as Ctrl-C does, once
// ready reports true; it returns the command's output once it has exited.
func (w *cliWorkspace) interrupt(ready func() bool, args ...string) (string, error) {
	w.t.Helper()
	cmd := w.command(args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for !ready() {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			w.t.Fatalf("terraform %s never got ready to interrupt:\n%s", strings.Join(args, " "), out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		w.t.Fatal(err)
	}
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		w.t.Fatalf("terraform %s did not stop within 60 s of Ctrl-C:\n%s", strings.Join(args, " "), out.String())
	}
	return "", nil
}

// stateJSON is `terraform show -json` of the state.
type stateJSON struct {
	Values struct {
		RootModule struct {
			Resources []struct {
				Address string         `json:"address"`
				Values  map[string]any `json:"values"`
				Tainted bool           `json:"tainted"`
			} `json:"resources"`
		} `json:"root_module"`
	} `json:"values"`
}

// resource returns the state values of address; nil when it is not in state.
func (w *cliWorkspace) resource(address string) (map[string]any, bool) {
	w.t.Helper()
	var s stateJSON
	if err := json.Unmarshal([]byte(w.must("show", "-json")), &s); err != nil {
		w.t.Fatal(err)
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == address {
			return r.Values, r.Tainted
		}
	}
	return nil, false
}

// stateString is one string attribute of address in the state.
func (w *cliWorkspace) stateString(address, attr string) string {
	w.t.Helper()
	v, _ := w.resource(address)
	if v == nil {
		w.t.Fatalf("%s is not in the state", address)
	}
	s, _ := v[attr].(string)
	return s
}

// ownCollections are the collections of the test account, deleted ones
// included.
func (e *testEmulator) ownCollections() []emulator.CollectionView {
	var out []emulator.CollectionView
	for _, c := range e.Emulator.Collections() {
		if c.APIKey == e.apiKey {
			out = append(out, c)
		}
	}
	return out
}

// generatedCollections counts the collections the API generated for the
// test account.
func (e *testEmulator) generatedCollections() int {
	n := 0
	for _, c := range e.ownCollections() {
		if len(c.Sections) > 0 {
			n++
		}
	}
	return n
}

// collection is one collection's view; the test fails when it is unknown.
func (e *testEmulator) collection(t *testing.T, hash string) emulator.CollectionView {
	t.Helper()
	c, err := e.Emulator.Collection(hash)
	if err != nil {
		t.Fatalf("collection %s: %v", hash, err)
	}
	return c
}

// lazyVariable is a configuration variable whose value is read when the
// step runs, for a value only an earlier step's PreConfig learns (the hash
// publishing issues).
type lazyVariable struct{ value *string }

func (v lazyVariable) MarshalJSON() ([]byte, error) { return json.Marshal(*v.value) }
