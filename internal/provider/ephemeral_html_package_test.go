package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// withEcho adds the echo provider, which copies an ephemeral value into the
// state of its echo resource so that a test can look at it.
func withEcho(t *testing.T) map[string]func() (tfprotov6.ProviderServer, error) {
	f := map[string]func() (tfprotov6.ProviderServer, error){"echo": echoprovider.NewProviderServer()}
	for k, v := range testAccProviderFactories(t) {
		f[k] = v
	}
	return f
}

func htmlPackageConfig(e *testEmulator, hash string) string {
	return e.providerConfig("") + fmt.Sprintf(`
ephemeral "flipbook_html_package" "x" {
  collection_hash = %q
  timeouts        = { open = "1m" }
}
provider "echo" {
  data = ephemeral.flipbook_html_package.x
}
resource "echo" "test" {}
`, hash)
}

func TestAccHTMLPackageEphemeral(t *testing.T) {
	emu := newTestEmulator(t, nil)
	urlRe := regexp.MustCompile(`^http://127\.0\.0\.1:\d+/_emulator/packages/[0-9a-f]{32}\.zip$`)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: withEcho(t),
		Steps: []resource.TestStep{{
			Config: htmlPackageConfig(emu, "col-private"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("COMPLETE")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("resource_url"), knownvalue.StringRegexp(urlRe)),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("collection_hash"), knownvalue.StringExact("col-private")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				// Polled until complete: the package takes a moment.
				func(*terraform.State) error {
					if n := emu.Emulator.Requests()[apiclient.ActionDownloadHTML]["20"]; n < 2 {
						return fmt.Errorf("downloadHTML called %d times; the package was not waited for", n)
					}
					return nil
				},
				checkOnlyEchoHoldsURL,
			),
		}},
	})
}

// checkOnlyEchoHoldsURL checks that the link appears in the state only where
// the test copied it: the ephemeral resource itself leaves nothing behind.
func checkOnlyEchoHoldsURL(s *terraform.State) error {
	echo, ok := s.RootModule().Resources["echo.test"]
	if !ok {
		return fmt.Errorf("echo.test not in state")
	}
	url := echo.Primary.Attributes["data.resource_url"]
	if url == "" {
		return fmt.Errorf("echo.test holds no URL: %v", echo.Primary.Attributes)
	}
	for name, rs := range s.RootModule().Resources {
		if name == "echo.test" {
			continue
		}
		if strings.Contains(name, "html_package") {
			return fmt.Errorf("the ephemeral resource left %s in the state", name)
		}
		for k, v := range rs.Primary.Attributes {
			if strings.Contains(v, url) {
				return fmt.Errorf("%s.%s holds the package URL", name, k)
			}
		}
	}
	return nil
}

func TestAccHTMLPackageEphemeral_failedAndWaiting(t *testing.T) {
	t.Parallel()
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	sections := []apiclient.Section{{Type: apiclient.SectionStatic, Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-cover"}}}}

	// A collection whose generation failed has a FAILED package.
	emu.Emulator.SetGenerationDelay(0)
	if err := emu.Emulator.SetFaults(1, []string{"generation_failed"}); err != nil {
		t.Fatal(err)
	}
	failed, err := api.CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{Title: "Broken", Sections: sections})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	// A collection still generating answers 38 until it is done.
	emu.Emulator.SetGenerationDelay(5 * time.Second)
	generating, err := api.CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{Title: "Slow", Sections: sections})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: withEcho(t),
		Steps: []resource.TestStep{
			{
				Config: htmlPackageConfig(emu, generating),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("COMPLETE")),
				},
				Check: func(*terraform.State) error {
					if n := emu.Emulator.Requests()[apiclient.ActionDownloadHTML]["38"]; n == 0 {
						return fmt.Errorf("downloadHTML never met code 38: the test did not exercise the wait")
					}
					return nil
				},
			},
		},
	})
	// A case of its own: the echo resource keeps the data it was created
	// with. FAILED is a result, not an error: status says so and there is
	// no link (the warning is checked in TestHTMLPackageFailedWarns).
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: withEcho(t),
		Steps: []resource.TestStep{{
			Config: htmlPackageConfig(emu, failed),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("FAILED")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("resource_url"), knownvalue.Null()),
			},
		}},
	})
}

// The emulator's package_failed fault: a healthy, published collection
// whose package generation ends FAILED, through the real CLI. The next open
// starts a new package and gets a link.
func TestAccHTMLPackageEphemeral_packageFailed(t *testing.T) {
	t.Parallel()
	emu := newTestEmulator(t, nil)
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: withEcho(t),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := emu.Emulator.SetFaults(1, []string{"package_failed"}); err != nil {
					t.Fatal(err)
				}
			},
			Config: htmlPackageConfig(emu, "col-private"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("FAILED")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("resource_url"), knownvalue.Null()),
			},
		}},
	})
	if err := emu.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	resp, m := openHTMLPackage(t, emu, "col-private", "1m")
	if resp.Diagnostics.HasError() || m.Status.ValueString() != "COMPLETE" || m.ResourceURL.IsNull() {
		t.Errorf("after the failed package: status %s, link %s, %v", m.Status, m.ResourceURL, resp.Diagnostics)
	}
}

// openHTMLPackage runs Open against the emulator with the given
// collection_hash and open timeout.
func openHTMLPackage(t *testing.T, emu *testEmulator, hash, timeout string) (ephemeral.OpenResponse, htmlPackageModel) {
	t.Helper()
	e := newHTMLPackageEphemeral()
	configurable, ok := e.(ephemeral.EphemeralResourceWithConfigure)
	if !ok {
		t.Fatal("the ephemeral resource has no Configure")
	}
	var cresp ephemeral.ConfigureResponse
	configurable.Configure(t.Context(), ephemeral.ConfigureRequest{ProviderData: &providerData{client: emu.apiClient(t)}}, &cresp)
	var sresp ephemeral.SchemaResponse
	e.Schema(t.Context(), ephemeral.SchemaRequest{}, &sresp)
	if d := append(cresp.Diagnostics, sresp.Diagnostics...); d.HasError() {
		t.Fatal(d)
	}
	typ := sresp.Schema.Type().TerraformType(t.Context())
	// Config has no setters; a State over the same schema builds the value.
	values := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, nil)}
	if d := values.SetAttribute(t.Context(), path.Root("collection_hash"), hash); d.HasError() {
		t.Fatal(d)
	}
	if d := values.SetAttribute(t.Context(), path.Root("timeouts").AtName("open"), timeout); d.HasError() {
		t.Fatal(d)
	}
	config := tfsdk.Config{Schema: sresp.Schema, Raw: values.Raw}
	resp := ephemeral.OpenResponse{Result: tfsdk.EphemeralResultData{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, nil)}}
	e.Open(t.Context(), ephemeral.OpenRequest{Config: config}, &resp)
	var m htmlPackageModel
	if !resp.Result.Raw.IsNull() {
		if d := resp.Result.Get(t.Context(), &m); d.HasError() {
			t.Fatal(d)
		}
	}
	return resp, m
}

// A FAILED package is returned with status FAILED, no link and a warning
// that names the collection and says what to do.
func TestHTMLPackageFailedWarns(t *testing.T) {
	emu := newTestEmulator(t, nil)
	emu.Emulator.SetGenerationDelay(0)
	if err := emu.Emulator.SetFaults(1, []string{"generation_failed"}); err != nil {
		t.Fatal(err)
	}
	failed, err := emu.apiClient(t).CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{Title: "Broken",
		Sections: []apiclient.Section{{Type: apiclient.SectionStatic, Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-cover"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	resp, m := openHTMLPackage(t, emu, failed, "1m")
	w := onlyWarning(t, resp.Diagnostics)
	if w.Summary() != "HTML Package Generation Failed" {
		t.Errorf("summary %q", w.Summary())
	}
	for _, want := range []string{failed, "FAILED", "resource_url is null", "web application", `status == "COMPLETE"`} {
		if !strings.Contains(w.Detail(), want) {
			t.Errorf("warning %q does not mention %q", w.Detail(), want)
		}
	}
	if m.Status.ValueString() != "FAILED" || !m.ResourceURL.IsNull() {
		t.Errorf("status %s, resource_url %s; want FAILED and null", m.Status, m.ResourceURL)
	}
}

// Failures other than a FAILED package stay errors: here the wait outlasts
// the open timeout while the collection is still being generated.
func TestHTMLPackageTimeoutIsError(t *testing.T) {
	emu := newTestEmulator(t, nil)
	emu.Emulator.SetGenerationDelay(time.Minute)
	slow, err := emu.apiClient(t).CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{Title: "Slow",
		Sections: []apiclient.Section{{Type: apiclient.SectionStatic, Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-cover"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := openHTMLPackage(t, emu, slow, "2s")
	if !resp.Diagnostics.HasError() || resp.Diagnostics.Errors()[0].Summary() != "Error Generating HTML Package" ||
		!strings.Contains(resp.Diagnostics.Errors()[0].Detail(), slow) {
		t.Fatalf("want an error naming %s, got %v", slow, resp.Diagnostics)
	}
	if !resp.Result.Raw.IsNull() {
		t.Error("a failed open must return no result")
	}
}
