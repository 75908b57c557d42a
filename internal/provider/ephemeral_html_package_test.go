package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
func withEcho() map[string]func() (tfprotov6.ProviderServer, error) {
	f := map[string]func() (tfprotov6.ProviderServer, error){"echo": echoprovider.NewProviderServer()}
	for k, v := range testAccProtoV6ProviderFactories {
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
		ProtoV6ProviderFactories: withEcho(),
		Steps: []resource.TestStep{{
			Config: htmlPackageConfig(emu, "pub-private-1"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("COMPLETE")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("resource_url"), knownvalue.StringRegexp(urlRe)),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("collection_hash"), knownvalue.StringExact("pub-private-1")),
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
		ProtoV6ProviderFactories: withEcho(),
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
			{
				Config:      htmlPackageConfig(emu, failed),
				ExpectError: msgRe("HTML Package Generation Failed", "status FAILED"),
			},
			{
				// Last, because the post-test destroy opens the ephemeral
				// resource of the last configuration again.
				Config: htmlPackageConfig(emu, generating),
			},
		},
	})
}
