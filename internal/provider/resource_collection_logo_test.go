package provider

import (
	"context"
	"fmt"
	"image/color"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func logoConfig(e *testEmulator, body string) string {
	return e.providerConfig("") + fmt.Sprintf(`
resource "flipbook_collection_logo" "test" {
  collection_hash = "col-private"
  %s
}
`, body)
}

// checkServiceLogo checks that the service shows the state's logo_image.
func checkServiceLogo(api *apiclient.Client) resource.TestCheckFunc {
	const addr = "flipbook_collection_logo.test"
	return func(s *terraform.State) error {
		col, err := api.GetCollection(context.Background(), "col-private")
		if err != nil {
			return err
		}
		if got, want := col.Settings.LogoImage, s.RootModule().Resources[addr].Primary.Attributes["logo_image"]; got != want {
			return fmt.Errorf("service shows logo %q, state holds %q", got, want)
		}
		return nil
	}
}

// checkClickURL checks the click URL the emulator recorded (the API never
// returns it).
func checkClickURL(emu *testEmulator, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		v, err := emu.Emulator.Collection("col-private")
		if err != nil {
			return err
		}
		if v.LogoURL != want {
			return fmt.Errorf("service recorded click URL %q, want %q", v.LogoURL, want)
		}
		return nil
	}
}

func TestAccCollectionLogo_lifecycle(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	dir := t.TempDir()
	logo := writeTestPNG(t, dir, "logo.png", 8, 8, color.RGBA{R: 255, A: 255})
	blueSHA := sha256Hex(t, writeTestPNG(t, t.TempDir(), "blue.png", 8, 8, color.RGBA{B: 255, A: 255}))
	addr := "flipbook_collection_logo.test"
	logoChanges := statecheck.CompareValue(compare.ValuesDiffer())
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`)
	srv := serveBody(t, func() []byte { return svg })

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: logoConfig(emu, fmt.Sprintf("file = %q\nclick_url = \"https://example.com/\"", logo)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("col-private")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, logo))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("logo_image"), knownvalue.StringRegexp(regexp.MustCompile(`\.png$`))),
					logoChanges.AddStateValue(addr, tfjsonpath.New("logo_image")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(checkServiceLogo(api), checkClickURL(emu, "https://example.com/")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"file", "file_sha256", "click_url"},
			},
			{
				// New content on disk sets the logo again, in place.
				PreConfig: func() { writeTestPNG(t, dir, "logo.png", 8, 8, color.RGBA{B: 255, A: 255}) },
				Config:    logoConfig(emu, fmt.Sprintf("file = %q\nclick_url = \"https://example.com/\"", logo)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(blueSHA)),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{logoChanges.AddStateValue(addr, tfjsonpath.New("logo_image"))},
				Check:             checkServiceLogo(api),
			},
			{
				// A logo replaced outside Terraform is drift, set back by apply.
				PreConfig: func() {
					other := writeTestPNG(t, t.TempDir(), "other.png", 2, 2, color.Black)
					if _, err := api.SetLogo(t.Context(), apiclient.SetLogoInput{CollectionHash: "col-private",
						File: &apiclient.Upload{Name: "other.png", Body: mustOpen(t, other)}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: logoConfig(emu, fmt.Sprintf("file = %q\nclick_url = \"https://example.com/\"", logo)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkServiceLogo(api),
			},
			{
				// Another click URL is an update too.
				Config: logoConfig(emu, fmt.Sprintf("file = %q\nclick_url = \"https://example.org/shop\"", logo)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkClickURL(emu, "https://example.org/shop"),
			},
			{
				Config: logoConfig(emu, fmt.Sprintf("file_url = %q", srv.URL+"/logo.svg")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("logo_image"), knownvalue.StringRegexp(regexp.MustCompile(`\.svg$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.Null()),
				},
				Check: checkServiceLogo(api),
			},
		},
	})
}

func TestAccCollectionLogo_planTimeChecks(t *testing.T) {
	emu := newTestEmulator(t, nil)
	dir := t.TempDir()
	logo := writeTestPNG(t, dir, "logo.png", 2, 2, color.White)
	pdf := writeTestPDF(t, dir, "logo.pdf", 1)
	big := writeSparseFile(t, dir, "big.png", []byte("\x89PNG\r\n\x1a\n"), 100<<20+1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			// Not a rule of the service: a file the provider cannot read cannot be sent.
			{Config: logoConfig(emu, `file = "does-not-exist.png"`),
				ExpectError: msgRe("File Not Found", `"does-not-exist.png" does not exist`)},
			// Spec, collection.setLogo: "at least one must be sent, otherwise code 30".
			{Config: logoConfig(emu, ""),
				ExpectError: msgRe("Missing Attribute Configuration", "[file,file_url]")},
			// "Maximum size and allowed types for logo images: not shown": planned, with a warning.
			{Config: logoConfig(emu, fmt.Sprintf("file = %q", pdf)), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: logoConfig(emu, fmt.Sprintf("file = %q", big)), PlanOnly: true, ExpectNonEmptyPlan: true},
			// "when both are sent only `file` is used": planned, with a warning.
			{Config: logoConfig(emu, fmt.Sprintf("file = %q\nfile_url = \"https://example.com/a.png\"", logo)),
				PlanOnly: true, ExpectNonEmptyPlan: true},
			// The spec types logoUrl as a string: any click URL is planned (with a warning).
			{Config: logoConfig(emu, `file_url = "https://example.com/a.png"
click_url = "javascript:alert(1)"`),
				PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
	expectNoAPICalls(t, emu)
}

// Spec, Limits: "Maximum size and allowed types for logo images: not shown".
// A logo of another type, or larger than the service takes, is sent; the
// service's answer is shown on file. These steps depend on the
// emulator's own choice (README, "Where the spec is silent, the emulator …":
// logos are PNG, JPEG, GIF, WebP or SVG within the upload size limit).
func TestAccCollectionLogo_guessedLimits(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) { f.Limits.MaxUploadBytes = 1 << 20 }))
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "logo.png", 1)
	big := writeSparseFile(t, dir, "big.png", []byte("\x89PNG\r\n\x1a\n"), 2<<20)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: logoConfig(emu, fmt.Sprintf("file = %q", pdf)),
				ExpectError: msgRe("Logo Image Not Accepted", "with flipbook_collection_logo.test", "code 45")},
			{Config: logoConfig(emu, fmt.Sprintf("file = %q", big)),
				ExpectError: msgRe("Logo Image Too Large", "with flipbook_collection_logo.test", "code 34")},
		},
	})
	if n := emu.Emulator.Requests()["collection.setLogo"]; n["45"] != 1 || n["34"] != 1 {
		t.Errorf("setLogo answers %v, want one 45 and one 34: both logos must reach the service", n)
	}
}
