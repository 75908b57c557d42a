package provider

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// TestMain pins terraform-plugin-testing to the local terraform binary: no
// registry is reachable, so it must never try to download one.
func TestMain(m *testing.M) {
	os.Unsetenv("TF_ACC_TERRAFORM_VERSION")
	if os.Getenv("TF_ACC") != "" && os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		bin, err := exec.LookPath("terraform")
		if err != nil {
			bin = "/usr/local/bin/terraform"
		}
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintln(os.Stderr, "acceptance tests need the terraform CLI (>= 1.11): none on PATH or at /usr/local/bin/terraform; "+
				"install it or set TF_ACC_TERRAFORM_PATH. Tests never download one.")
			os.Exit(1)
		}
		os.Setenv("TF_ACC_TERRAFORM_PATH", bin)
	}
	os.Exit(m.Run())
}

// testAccProtoV6ProviderFactories runs the provider in-process.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"flipbook": providerserver.NewProtocol6WithError(New("test")()),
}

// testEmulator is one in-process emulator per test, so tests run in parallel
// without seeing each other's collections or request counts.
type testEmulator struct {
	*emulator.Server
}

// testGenerationDelay keeps generation asynchronous, as in the service, while
// keeping the suite fast.
const testGenerationDelay = 300 * time.Millisecond

func newTestEmulator(t *testing.T, fixture *emulator.Fixture) *testEmulator {
	t.Helper()
	if fixture == nil {
		fixture = emulator.DemoFixture()
	}
	delay := testGenerationDelay
	srv, err := emulator.Start(emulator.Options{Fixture: fixture, GenerationDelay: &delay})
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(srv.Close)
	return &testEmulator{Server: srv}
}

// providerConfig is the provider block for this emulator with the demo
// fixture's credentials; extra is HCL added inside the block.
func (e *testEmulator) providerConfig(extra string) string {
	return fmt.Sprintf(`
provider "flipbook" {
  api_key    = "demo-key"
  api_secret = "demo-secret"
  base_url   = %q
  upload_url = %q
  %s
}
`, e.BaseURL, e.UploadURL, extra)
}
