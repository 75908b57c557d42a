package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
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

// testAccProviderFactories runs the provider in-process with a request
// budget registry of the test's own: tests run in parallel, and a shared
// registry would let one test's calls spend another's budget. Within the
// test, every provider shares the registry, as every provider of a plugin
// process shares processBudgets.
func testAccProviderFactories(t *testing.T) map[string]func() (tfprotov6.ProviderServer, error) {
	t.Helper()
	budgets := &budgetRegistry{}
	return map[string]func() (tfprotov6.ProviderServer, error){
		"flipbook": func() (tfprotov6.ProviderServer, error) {
			return providerserver.NewProtocol6WithError(&flipbookProvider{version: "test", budgets: budgets})()
		},
	}
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
	return demoProviderConfig(e.BaseURL, e.UploadURL, extra)
}

// demoProviderConfig is providerConfig for other endpoints, such as a proxy
// in front of the emulator.
func demoProviderConfig(baseURL, uploadURL, extra string) string {
	return fmt.Sprintf(`
provider "flipbook" {
  api_key    = "demo-key"
  api_secret = "demo-secret"
  base_url   = %q
  upload_url = %q
  %s
}
`, baseURL, uploadURL, extra)
}

// apiClient is a client of the emulator with the demo credentials, for
// changes made "outside Terraform" and for checking what the service holds.
func (e *testEmulator) apiClient(t *testing.T) *apiclient.Client {
	t.Helper()
	c, err := apiclient.New(apiclient.Config{BaseURL: e.BaseURL, UploadURL: e.UploadURL, APIKey: "demo-key", Secret: "demo-secret"})
	if err != nil {
		t.Fatalf("building the test client: %v", err)
	}
	return c
}

// fixtureWith is the demo fixture changed by edit, for one test.
func fixtureWith(edit func(f *emulator.Fixture)) *emulator.Fixture {
	f := emulator.DemoFixture()
	edit(f)
	return f
}

// msgRe matches the fragments in order, whatever line wrapping Terraform
// applied between their words.
func msgRe(fragments ...string) *regexp.Regexp {
	parts := make([]string, len(fragments))
	for i, f := range fragments {
		parts[i] = strings.Join(strings.Fields(regexp.QuoteMeta(f)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// expectNoAPICalls fails the test when the emulator saw any API call: a
// configuration the provider can refuse by itself must never reach the
// service.
func expectNoAPICalls(t *testing.T, e *testEmulator) {
	t.Helper()
	if reqs := e.Emulator.Requests(); len(reqs) != 0 {
		t.Errorf("a configuration that should have been refused before any call reached the API: %v", reqs)
	}
}

// serveBody serves what body returns at every path, as the remote file
// behind a file_url.
func serveBody(t *testing.T, body func() []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if _, err := w.Write(body()); err != nil {
			t.Error(err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Every attribute of every object, nested ones included, is described for
// the generated docs.
func TestEveryAttributeHasMarkdownDescription(t *testing.T) {
	server, err := testAccProviderFactories(t)["flipbook"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var check func(where string, attrs []*tfprotov6.SchemaAttribute)
	check = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			at := where + "." + a.Name
			// The timeouts package describes its own attributes, in plain text.
			plainOK := strings.Contains(at, ".timeouts.")
			if strings.TrimSpace(a.Description) == "" || (a.DescriptionKind != tfprotov6.StringKindMarkdown && !plainOK) {
				t.Errorf("%s has no MarkdownDescription", at)
			}
			if a.NestedType != nil {
				check(at, a.NestedType.Attributes)
			}
		}
	}
	schemas := map[string]*tfprotov6.Schema{"provider": resp.Provider}
	for kind, group := range map[string]map[string]*tfprotov6.Schema{
		"resource": resp.ResourceSchemas, "data": resp.DataSourceSchemas, "ephemeral": resp.EphemeralResourceSchemas,
	} {
		for name, s := range group {
			schemas[kind+" "+name] = s
		}
	}
	for name, a := range resp.ActionSchemas {
		schemas["action "+name] = a.Schema
	}
	if len(schemas) != 1+6+5+1+1 {
		t.Fatalf("found %d schemas, want the provider's and 13 objects'", len(schemas))
	}
	for name, s := range schemas {
		if strings.TrimSpace(s.Block.Description) == "" {
			t.Errorf("%s has no MarkdownDescription", name)
		}
		check(name, s.Block.Attributes)
	}
}
