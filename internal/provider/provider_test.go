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

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/flipbook/terraform-provider-flipbook/flipbooktest"
	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
	"github.com/flipbook/terraform-provider-flipbook/internal/flipbooktestbridge"
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
	code := m.Run()
	removeCLIProvider()
	os.Exit(code)
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
	apiKey, secret string // the fixture's first account
}

// testGenerationDelay keeps generation asynchronous, as in the service, while
// keeping the suite fast.
const testGenerationDelay = 300 * time.Millisecond

func newTestEmulator(t *testing.T, fixture *emulator.Fixture) *testEmulator {
	t.Helper()
	if fixture == nil {
		fixture = testFixture(t)
	}
	srv := flipbooktest.NewServer(t, flipbooktest.WithGenerationDelay(testGenerationDelay), flipbooktestbridge.WithFixture(fixture))
	return &testEmulator{Server: flipbooktestbridge.Server(srv), apiKey: fixture.Accounts[0].APIKey, secret: fixture.Accounts[0].Secret}
}

// newDemoEmulator runs the emulator's demo fixture, for the tests that prove
// the shipped examples apply to the world a user tries them against.
func newDemoEmulator(t *testing.T) *testEmulator {
	t.Helper()
	return newTestEmulator(t, emulator.DemoFixture())
}

// providerConfig is the provider block for this emulator with its fixture's
// first account; extra is HCL added inside the block.
func (e *testEmulator) providerConfig(extra string) string {
	return providerConfigFor(e.BaseURL, e.UploadURL, e.apiKey, e.secret, extra)
}

// testProviderConfig is providerConfig for other endpoints, such as a proxy
// in front of an emulator of the test fixture.
func testProviderConfig(baseURL, uploadURL, extra string) string {
	return providerConfigFor(baseURL, uploadURL, testAPIKey, testSecret, extra)
}

func providerConfigFor(baseURL, uploadURL, apiKey, secret, extra string) string {
	return fmt.Sprintf(`
provider "flipbook" {
  api_key    = %q
  api_secret = %q
  base_url   = %q
  upload_url = %q
  %s
}
`, apiKey, secret, baseURL, uploadURL, extra)
}

// apiClient is a client of the emulator with its fixture's first account,
// for changes made "outside Terraform" and for checking what the service
// holds.
func (e *testEmulator) apiClient(t *testing.T) *apiclient.Client {
	t.Helper()
	c, err := apiclient.New(apiclient.Config{BaseURL: e.BaseURL, UploadURL: e.UploadURL, APIKey: e.apiKey, Secret: e.secret})
	if err != nil {
		t.Fatalf("building the test client: %v", err)
	}
	return c
}

// testFixturePath is the provider tests' own emulator world. It began as a
// copy of the emulator's demo fixture, with its own credentials and
// collection hashes, and changes only with these tests, so the demo is free
// to change. Its template and feed hashes are those the shared spec-rule
// table (internal/specrules/spec_input_rules.json) names.
const testFixturePath = "testdata/fixture.json"

// The test fixture's first account.
const (
	testAPIKey = "test-key"
	testSecret = "test-secret"
)

// testFixture is a fresh copy of the test fixture.
func testFixture(t *testing.T) *emulator.Fixture {
	t.Helper()
	f, err := emulator.LoadFixture(testFixturePath)
	if err != nil {
		t.Fatalf("loading the test fixture: %v", err)
	}
	return f
}

// fixtureWith is the test fixture changed by edit, for one test.
func fixtureWith(t *testing.T, edit func(f *emulator.Fixture)) *emulator.Fixture {
	t.Helper()
	f := testFixture(t)
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

// expectDiagnostic fails unless d has the summary and its detail names every
// fact: a hash, a code, an attribute, or a short key phrase. The sentences
// around them are the provider's wording, free to improve; the summary and
// the facts are what a user acts on.
func expectDiagnostic(t *testing.T, d diag.Diagnostic, summary string, facts ...string) {
	t.Helper()
	if d.Summary() != summary {
		t.Errorf("summary %q, want %q", d.Summary(), summary)
	}
	for _, f := range facts {
		if !strings.Contains(d.Detail(), f) {
			t.Errorf("%q: detail %q does not mention %q", summary, d.Detail(), f)
		}
	}
}
