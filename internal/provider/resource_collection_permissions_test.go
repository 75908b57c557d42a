package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// permissionsText renders an access list order-insensitively, for
// comparisons.
func permissionsText(ps []apiclient.Permission) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s|%s|%s", p.Type, p.Email, p.Group))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// checkServicePermissions checks the access list the emulator holds.
func checkServicePermissions(c *apiclient.Client, hash string, want ...apiclient.Permission) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := c.GetPermissions(context.Background(), hash)
		if err != nil {
			return err
		}
		if permissionsText(got) != permissionsText(want) {
			return fmt.Errorf("service holds [%s], want [%s]", permissionsText(got), permissionsText(want))
		}
		return nil
	}
}

func permissionValue(typ, email, group string) knownvalue.Check {
	opt := func(s string) knownvalue.Check {
		if s == "" {
			return knownvalue.Null()
		}
		return knownvalue.StringExact(s)
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"type": knownvalue.StringExact(typ), "email": opt(email), "group": opt(group),
	})
}

func permissionsConfig(e *testEmulator, hash, extra string, entries ...string) string {
	return e.providerConfig("") + fmt.Sprintf(`
resource "flipbook_collection_permissions" "test" {
  collection_hash = %q
  %s
  permissions = [%s]
}
`, hash, extra, strings.Join(entries, ",\n    "))
}

func TestAccCollectionPermissions_lifecycle(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	ana := `{ type = "teammate", email = "Ana@Example.com" }`
	sales := `{ type = "teammate", group = "Sales" }`

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		CheckDestroy:             checkServicePermissions(api, hash),
		Steps: []resource.TestStep{
			{
				Config: permissionsConfig(emu, hash, "", ana, sales),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(hash)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "Ana@Example.com", ""),
						permissionValue("teammate", "", "Sales"),
					})),
				},
				Check: checkServicePermissions(api, hash,
					apiclient.Permission{Type: "teammate", Email: "Ana@Example.com"},
					apiclient.Permission{Type: "teammate", Group: "Sales"}),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The same list with the email in other letter case, saved
				// outside Terraform, is no change.
				PreConfig: func() {
					setOutside(t, api, hash, apiclient.Permission{Type: "teammate", Email: "ana@example.com"},
						apiclient.Permission{Type: "teammate", Group: "Sales"})
				},
				Config: permissionsConfig(emu, hash, "", ana, sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// A row added and a row removed outside Terraform are drift,
				// and the apply puts the configured list back.
				PreConfig: func() {
					setOutside(t, api, hash, apiclient.Permission{Type: "teammate", Email: "ana@example.com"},
						apiclient.Permission{Type: "teammate", Email: "ben@example.com"})
				},
				Config: permissionsConfig(emu, hash, "", ana, sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkServicePermissions(api, hash,
					apiclient.Permission{Type: "teammate", Email: "Ana@Example.com"},
					apiclient.Permission{Type: "teammate", Group: "Sales"}),
			},
			{
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        hash,
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
			},
			{
				// An import {} block with the same configuration plans no
				// change: the imported list equals the configured one.
				Config:          permissionsConfig(emu, hash, "", ana, sales),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				// A new list with notify_via_email emails whom it grants.
				Config: permissionsConfig(emu, hash, "notify_via_email = true", `{ type = "teammate", group = "Support" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Support"}),
					checkNotified(emu, "ben@example.com", "chloe@example.com"),
				),
			},
			{
				// Changing only notify_via_email sends nothing, so nobody is
				// emailed again.
				Config: permissionsConfig(emu, hash, "notify_via_email = false", `{ type = "teammate", group = "Support" }`),
				Check:  checkNotified(emu, "ben@example.com", "chloe@example.com"),
			},
			{
				// otp: every entry one type; a change of type replaces the list.
				Config: permissionsConfig(emu, hash, "", `{ type = "otp", email = "guest@partner.org" }`),
				Check:  checkServicePermissions(api, hash, apiclient.Permission{Type: "otp", Email: "guest@partner.org"}),
			},
			{
				Config: permissionsConfig(emu, hash, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{})),
				},
				Check: checkServicePermissions(api, hash),
			},
			{
				Config: permissionsConfig(emu, hash, "", `{ type = "sso", group = "Partners" }`, `{ type = "sso" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("sso", "", "Partners"),
						permissionValue("sso", "", ""),
					})),
				},
				Check: checkServicePermissions(api, hash,
					apiclient.Permission{Type: "sso", Group: "Partners"}, apiclient.Permission{Type: "sso"}),
			},
		},
	})
}

// A lost answer with notify_via_email: the provider reads the list back,
// finds it saved and does not send it again, so nobody is emailed twice.
// Without notification the list is simply sent again.
func TestAccCollectionPermissions_lostAnswer(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	support := `{ type = "teammate", group = "Support" }`
	lose := func() {
		if err := emu.Emulator.SetFaultsOn([]string{apiclient.ActionSetPermissions}, 1, []string{"reset_after"}); err != nil {
			t.Fatal(err)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				PreConfig: lose,
				Config:    permissionsConfig(emu, hash, "notify_via_email = true", support),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Support"}),
					checkNotified(emu, "ben@example.com", "chloe@example.com"),
					func(*terraform.State) error {
						if got := emu.Emulator.Requests()[apiclient.ActionSetPermissions]; got["fault"] != 1 || len(got) != 1 {
							return fmt.Errorf("setPermissions counters %v, want one send whose answer was lost", got)
						}
						return nil
					},
				),
			},
			{
				// Without notification: sent again within the retry budget
				// (every send loses its answer here, so after three sends
				// the error says what was tried).
				PreConfig: lose,
				Config: emu.providerConfig("max_retries = 2") + `
resource "flipbook_collection_permissions" "test" {
  collection_hash = "` + hash + `"
  permissions     = [{ type = "teammate", email = "ana@example.com" }]
}
`,
				ExpectError: msgRe("outcome unknown", "it was sent", "times"),
			},
			{
				PreConfig: func() {
					if err := emu.Emulator.SetFaults(0, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: permissionsConfig(emu, hash, "", `{ type = "teammate", email = "ana@example.com" }`),
				Check:  checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Email: "ana@example.com"}),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func setOutside(t *testing.T, api *apiclient.Client, hash string, perms ...apiclient.Permission) {
	t.Helper()
	if _, err := api.SetPermissions(t.Context(), hash, perms); err != nil {
		t.Fatalf("changing permissions outside Terraform: %v", err)
	}
}

// checkNotified checks who the service emailed, in any order: each test
// has its own emulator, and sets one collection's list.
func checkNotified(emu *testEmulator, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var got []string
		for _, n := range emu.Emulator.Notifications() {
			got = append(got, n.Email)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			return fmt.Errorf("notified %v, want %v", got, want)
		}
		return nil
	}
}

func TestAccCollectionPermissions_validation(t *testing.T) {
	emu := newTestEmulator(t, nil)
	cases := []struct {
		entries []string
		want    string
	}{
		{[]string{`{ type = "teammate" }`, `{ type = "sso" }`}, `mixes (teammate, sso|sso, teammate)`},
		{[]string{`{ type = "user", email = "ana@example.com" }`}, `teammate, otp, sso.*"user"`},
		{[]string{`{ type = "teammate", email = "ana@example.com", group = "Sales" }`}, `both email and group`},
		{[]string{`{ type = "otp" }`}, `requires an email`},
		{[]string{`{ type = "otp", email = "ana@example.com", group = "Sales" }`}, `takes no group`},
		{[]string{`{ type = "sso", email = "ana@example.com" }`}, `takes no email`},
		{[]string{`{ type = "teammate", group = "" }`}, `empty\s+group`},
		{[]string{`{ type = "teammate", email = "" }`}, `empty\s+email`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      permissionsConfig(emu, "col-private", "", c.entries...),
			ExpectError: regexp.MustCompile(`(?s)Invalid Permission.*` + c.want),
		})
	}
	steps = append(steps, resource.TestStep{
		Config:      permissionsConfig(emu, "", "", `{ type = "teammate" }`),
		ExpectError: msgRe("Invalid Attribute Value Length", "collection_hash", "at least 1"),
	})
	// The spec defines no e-mail format and does not say whether duplicates
	// compare e-mails ignoring case: these plan, with a warning at most.
	for _, entries := range [][]string{
		{`{ type = "teammate", email = "ana@example" }`},
		{`{ type = "teammate", email = "ana@example.com" }`, `{ type = "teammate", email = "ANA@example.com" }`},
	} {
		steps = append(steps, resource.TestStep{Config: permissionsConfig(emu, "col-private", "", entries...),
			PlanOnly: true, ExpectNonEmptyPlan: true})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviderFactories(t), Steps: steps})
	expectNoAPICalls(t, emu)
}

// Issue: "anything with one @, a non-empty local part and a domain containing
// a dot plans cleanly". These addresses are applied and read back.
func TestAccCollectionPermissions_emailForms(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	emails := []string{"ana+news@example.xn--p1ai", "jörg@müller.de", "ZOE@EXAMPLE.COM", "o'brien@example.ie"}
	var entries []string
	var want []apiclient.Permission
	for _, e := range emails {
		entries = append(entries, fmt.Sprintf(`{ type = "otp", email = %q }`, e))
		want = append(want, apiclient.Permission{Type: "otp", Email: e})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: permissionsConfig(emu, hash, "", entries...),
				Check:  checkServicePermissions(api, hash, want...),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// An address the service refuses is shown with the service's own message on
// the entry it names. The refusal is the emulator's reading of "bad email
// format" (README, "Where the spec is silent, the emulator …": a domain
// without a dot is refused); the provider itself only warns.
func TestAccCollectionPermissions_serviceRefusesEmail(t *testing.T) {
	emu := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config:      permissionsConfig(emu, "col-private", "", `{ type = "otp", email = "ana@example" }`),
			ExpectError: msgRe("Error Setting Collection Permissions", "Invalid email at index 0", "code 40"),
		}},
	})
}

// Issue 17: an e-mail with no "@" at all is refused at plan, on the entry's
// email, before any call (it used to be warned and refused mid-apply).
func TestAccCollectionPermissions_emailWithoutAt(t *testing.T) {
	emu := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: permissionsConfig(emu, "col-private", "", `{ type = "otp", email = "not-an-email" }`),
			ExpectError: msgRe("Error: Invalid Permission", "with flipbook_collection_permissions.test",
				`permissions = [{ type = "otp", email = "not-an-email" }]`, `"not-an-email" is not an email address: it has no "@"`),
		}},
	})
	expectNoAPICalls(t, emu)
}

// Entries skipped on an update: the apply succeeds, the state keeps them in
// permissions and lists them in skipped_permissions, and removing them from
// the configuration, the saved list already matching, sends nothing.
func TestAccCollectionPermissions_skippedEntries(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	sales := `{ type = "teammate", group = "Sales" }`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: permissionsConfig(emu, hash, "", sales), Check: checkSetCalls(emu, 1)},
			{
				// eve has not accepted her invitation and there is no group
				// Nope: the service saves only Sales and says nothing.
				Config: permissionsConfig(emu, hash, "", sales, `{ type = "teammate", email = "eve@example.com" }`,
					`{ type = "teammate", group = "Nope" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skipped_permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "eve@example.com", ""),
						permissionValue("teammate", "", "Nope"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetSizeExact(3)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"}),
					checkSetCalls(emu, 2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The list that names only Sales is what the collection
				// holds: an update of the state, and no call sends a list.
				Config: permissionsConfig(emu, hash, "", sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "", "Sales"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skipped_permissions"), knownvalue.SetExact([]knownvalue.Check{})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"}),
					checkSetCalls(emu, 2)),
			},
		},
	})
}

// checkSetCalls checks how many collection.setPermissions calls the
// emulator answered, whatever the answer.
func checkSetCalls(emu *testEmulator, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := 0
		for _, n := range emu.Emulator.Requests()[apiclient.ActionSetPermissions] {
			got += n
		}
		if got != want {
			return fmt.Errorf("collection.setPermissions was called %d times, want %d (%v)", got, want,
				emu.Emulator.Requests()[apiclient.ActionSetPermissions])
		}
		return nil
	}
}

func TestAccCollectionPermissions_notEligible(t *testing.T) {
	emu := newTestEmulator(t, nil)
	wantErr := msgRe("Error Setting Collection Permissions", "code 48", "not editable", "private", "password-protected")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: permissionsConfig(emu, "col-public", "", `{ type = "teammate" }`), ExpectError: wantErr},
			{Config: permissionsConfig(emu, "col-password", "", `{ type = "teammate" }`), ExpectError: wantErr},
			{Config: permissionsConfig(emu, "col-draft", "", `{ type = "teammate" }`), ExpectError: wantErr},
		},
	})
}

func TestAccCollectionPermissions_planFeatures(t *testing.T) {
	emu := newTestEmulator(t, nil)
	cfg := fmt.Sprintf(`
provider "flipbook" {
  api_key    = "stranger-key"
  api_secret = "stranger-secret"
  base_url   = %q
  upload_url = %q
}
resource "flipbook_collection_permissions" "test" {
  collection_hash = "stranger-private"
  permissions     = [{ type = "otp", email = "guest@partner.org" }]
}
`, emu.BaseURL, emu.UploadURL)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: msgRe("Error Setting Collection Permissions", "code 40", "OTP permissions are not available on your plan"),
		}},
	})
}

func TestAccCollectionPermissions_ssoNotEnabled(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) { f.Accounts[0].SSOEnabled = false }))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config:      permissionsConfig(emu, "col-private", "", `{ type = "sso", group = "Partners" }`),
			ExpectError: msgRe("Error Setting Collection Permissions", "code 40", "SSO is not enabled for this workspace"),
		}},
	})
}

// Issue 17, situation 4: an entry skipped when the access list is created
// never taints. Removing it from the configuration, the saved list already
// matching, is an update that sends nothing; a replacement of the list of
// the same collection (a taint, as an older provider version left after a
// skipped entry, or -replace, which plans the same way) never sends an
// empty list, with or without create_before_destroy.
func TestAccCollectionPermissions_skippedOnCreate(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	sales := `{ type = "teammate", group = "Sales" }`
	eve := `{ type = "teammate", email = "eve@example.com" }`
	notify := "notify_via_email = true"
	salesOnly := checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"})
	// ana and ben are Sales's accepted readers; eve has not accepted.
	salesNotified := checkNotified(emu, "ana@example.com", "ben@example.com")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		CheckDestroy:             checkServicePermissions(api, hash),
		Steps: []resource.TestStep{
			{
				Config: permissionsConfig(emu, hash, notify, sales, eve),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skipped_permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "eve@example.com", ""),
					})),
				},
				// Not tainted: the next plan is empty, not a replacement.
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(salesOnly, salesNotified, checkSetCalls(emu, 1)),
			},
			{
				Config: permissionsConfig(emu, hash, notify, sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(salesOnly, salesNotified, checkSetCalls(emu, 1)),
			},
			{
				// Replaced with notify_via_email: the saved list is already
				// the planned one, so nothing is sent, emptied or e-mailed.
				Taint:  []string{addr},
				Config: permissionsConfig(emu, hash, notify, sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(salesOnly, salesNotified, checkSetCalls(emu, 1)),
			},
			{
				// Without notification the list is sent once, as it is:
				// one call, so no empty one before it.
				Taint:  []string{addr},
				Config: permissionsConfig(emu, hash, "", sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(salesOnly, salesNotified, checkSetCalls(emu, 2)),
			},
			{
				// create_before_destroy: the new object sets the list, and
				// the old one's destroy leaves it alone.
				Taint:  []string{addr},
				Config: permissionsConfig(emu, hash, "lifecycle {\n create_before_destroy = true\n }", sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreateBeforeDestroy)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(salesOnly, salesNotified, checkSetCalls(emu, 3)),
			},
		},
	})
}

// Issue 17, situation 3: notify_via_email and an entry the service skips.
// One apply sends the list and e-mails the readers it grants; later plans
// are empty and later applies send nothing and e-mail nobody (the
// notifications stay at 2, where they went 2, 4, 6). The skipped entry stays
// visible in skipped_permissions, and the postcondition the warning advises
// fails the run while it is skipped. A drift of the saved list is put back.
func TestAccCollectionPermissions_skippedConverges(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	support := `{ type = "teammate", group = "Support" }`
	eve := `{ type = "teammate", email = "eve@example.com" }`
	cfg := permissionsConfig(emu, hash, "notify_via_email = true", support, eve)
	supportOnly := checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Support"})
	// The postcondition exactly as the warning and the docs give it.
	withPostcondition := permissionsConfig(emu, hash, "notify_via_email = true\n"+postconditionAdvice, support, eve)
	step := func(notified ...string) resource.TestStep {
		return resource.TestStep{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(supportOnly, checkSetCalls(emu, 1), checkNotified(emu, notified...)),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skipped_permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "eve@example.com", ""),
					})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(supportOnly, checkSetCalls(emu, 1),
					checkNotified(emu, "ben@example.com", "chloe@example.com")),
			},
			step("ben@example.com", "chloe@example.com"),
			step("ben@example.com", "chloe@example.com"),
			{
				Config:      withPostcondition,
				ExpectError: msgRe("Resource postcondition failed", "Access list entries were skipped."),
			},
			{
				// The resource page's example, its lifecycle block as shown.
				Config:      permissionsConfig(emu, hash, "notify_via_email = true\n"+exampleLifecycle(t), support, eve),
				ExpectError: msgRe("Resource postcondition failed", "The service skipped access list entries:", "eve@example.com"),
			},
			{
				// Drift: Support removed in the web application. The apply
				// puts it back, and its readers, who lost access, are told.
				PreConfig: func() { setOutside(t, api, hash, apiclient.Permission{Type: "teammate", Email: "dan@example.com"}) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(supportOnly, checkSetCalls(emu, 3),
					checkNotified(emu, "ben@example.com", "chloe@example.com", "ben@example.com", "chloe@example.com")),
			},
		},
	})
}

// A collection still being generated answers 38; the resource waits until
// generation ends instead of failing.
func TestAccCollectionPermissions_waitsWhileInProgress(t *testing.T) {
	// Parallel first, so that the generation starts only when the test
	// really runs (resource.Test below, since ParallelTest would pause it).
	t.Parallel()
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	emu.Emulator.SetGenerationDelay(5 * time.Second)
	hash, err := api.CreateFromTemplate(t.Context(), apiclient.CreateFromTemplateInput{
		Title:    "Generating",
		Sections: []apiclient.Section{{Type: apiclient.SectionStatic, Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-cover"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: permissionsConfig(emu, hash, "", `{ type = "teammate", group = "Sales" }`),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"}),
				func(*terraform.State) error {
					if n := emu.Emulator.Requests()[apiclient.ActionSetPermissions]["38"]; n == 0 {
						return fmt.Errorf("setPermissions never met code 38 (requests %v): the test did not exercise the wait",
							emu.Emulator.Requests()[apiclient.ActionSetPermissions])
					}
					return nil
				},
			),
		}},
	})
}

// A collection made public outside Terraform has no access list any more:
// refresh drops the resource (with a warning) and the plan creates it again,
// which would then fail with the 48 explanation.
func TestAccCollectionPermissions_collectionMadePublic(t *testing.T) {
	emu := newTestEmulator(t, nil)
	cfg := permissionsConfig(emu, "col-private", "", `{ type = "teammate", group = "Sales" }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					private := false
					if err := emu.Emulator.SetAccess("col-private", &private, nil, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// Changing only the letter case of an email in the configuration is no
// change (the service compares emails without case): the state keeps the
// spelling it had. Another email is still a change.
func TestAccCollectionPermissions_emailCaseInConfig(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: permissionsConfig(emu, hash, "", `{ type = "teammate", email = "ana@example.com" }`)},
			{
				Config: permissionsConfig(emu, hash, "", `{ type = "teammate", email = "Ana@Example.com" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "ana@example.com", ""),
					})),
				},
			},
			{
				Config: permissionsConfig(emu, hash, "", `{ type = "teammate", email = "Ben@Example.com" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "Ben@Example.com", ""),
					})),
				},
				Check: checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Email: "Ben@Example.com"}),
			},
		},
	})
}

// Destroy empties the access list. A collection the service no longer knows
// (46) has none left, silently; 43 (deleted, another account's, or other
// credentials) may leave the list in place, so it warns.
func TestCollectionPermissionsDelete(t *testing.T) {
	emu := newTestEmulator(t, nil)
	if _, err := emu.Emulator.Publish("col-draft"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, hash string
		before     func() error
		warn       bool
	}{
		{name: "emptied", hash: "col-private"},
		{name: "gone after publishing (46)", hash: "col-draft"},
		{name: "another account's (43)", hash: "stranger-private", warn: true},
		{name: "deleted (43)", hash: "col-private", before: func() error { return emu.Emulator.Delete("col-private") }, warn: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				if err := tc.before(); err != nil {
					t.Fatal(err)
				}
			}
			r := newCollectionPermissionsResource()
			state := attachedState(t, configuredResource(t, r, emu), []string{"id", "collection_hash"}, "", tc.hash)
			resp := fwresource.DeleteResponse{State: state}
			r.Delete(t.Context(), fwresource.DeleteRequest{State: state}, &resp)
			if !tc.warn {
				if len(resp.Diagnostics) != 0 {
					t.Fatalf("want no diagnostics, got %v", resp.Diagnostics)
				}
				return
			}
			w := onlyWarning(t, resp.Diagnostics)
			if w.Summary() != "Access List Not Removed" {
				t.Errorf("summary %q", w.Summary())
			}
			for _, want := range []string{tc.hash, "code 43", "still", "deleted", "another account", "api_key", "removed"} {
				if !strings.Contains(w.Detail(), want) {
					t.Errorf("warning %q does not mention %q", w.Detail(), want)
				}
			}
		})
	}
}

// Spec, collection.setPermissions rule 6: "When all entries are skipped,
// nothing is saved and `permissions` is an empty array". The collection keeps
// the list it had: the apply fails and says so (the provider never empties a
// list for you), the state holds the list really kept, and the error's
// advice, permissions = [], removes every row. On a collection with no list,
// nothing is kept: the skipped entries are a warning like any other.
func TestAccCollectionPermissions_allSkippedKeepsList(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const hash = "col-private"
	addr := "flipbook_collection_permissions.test"
	sales := `{ type = "teammate", group = "Sales" }`
	nope := `{ type = "teammate", group = "Nope" }`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: permissionsConfig(emu, hash, "", sales)},
			{
				Config: permissionsConfig(emu, hash, "", nope),
				ExpectError: msgRe("Every Access List Entry Skipped", "skipped all 1", "col-private keeps the list it had",
					`group = "Nope"`, "write permissions = [] to remove every private access row"),
				Check: checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"}),
			},
			{
				Config: permissionsConfig(emu, hash, "", sales),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "", "Sales"),
					})),
				},
				Check: checkServicePermissions(api, hash, apiclient.Permission{Type: "teammate", Group: "Sales"}),
			},
			{
				Config: permissionsConfig(emu, hash, ""),
				Check:  checkServicePermissions(api, hash),
			},
			{
				// Nothing to keep: the list the service holds (none) is the
				// configured one less the skipped entry.
				Config: permissionsConfig(emu, hash, "", nope),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skipped_permissions"), knownvalue.SetExact([]knownvalue.Check{
						permissionValue("teammate", "", "Nope"),
					})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkServicePermissions(api, hash),
			},
		},
	})
}

// exampleLifecycle is the lifecycle block of the resource page's example of
// a run that fails on skipped entries, as the page shows it.
func exampleLifecycle(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/resources/flipbook_collection_permissions/fail-on-skipped.tf")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "  lifecycle {")
	if !ok {
		t.Fatal("the example has no lifecycle block")
	}
	block = strings.TrimSuffix(strings.TrimRight(block, " \n"), "}")
	return "lifecycle {" + block
}

// The contract with the move of a published collection (issue 17, item 1):
// an update whose planned collection_hash differs from the state's targets
// the planned collection. Its saved list is read; a list that is already the
// planned one is not sent, and otherwise only the entries it lacks are
// notified.
func TestCollectionPermissionsUpdateTargetsPlannedHash(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	const target = "col-private"
	if _, err := api.SetPermissions(t.Context(), target, []apiclient.Permission{{Type: "teammate", Group: "Sales"}}); err != nil {
		t.Fatal(err)
	}
	r := newCollectionPermissionsResource()
	empty := configuredResource(t, r, emu)
	model := func(hash string, entries ...permissionEntry) tfsdk.State {
		s := attachedState(t, tfsdk.State{Schema: empty.Schema, Raw: empty.Raw.Copy()}, []string{"id", "collection_hash"}, "", hash)
		var diags diag.Diagnostics
		for name, v := range map[string]attr.Value{
			"notify_via_email":    types.BoolValue(true),
			"permissions":         setFromEntries(entries, &diags),
			"skipped_permissions": emptyPermissionsSet(),
		} {
			diags.Append(s.SetAttribute(t.Context(), path.Root(name), v)...)
		}
		if diags.HasError() {
			t.Fatal(diags)
		}
		return s
	}
	sales, support := permEntry("teammate", "", "Sales"), permEntry("teammate", "", "Support")
	update := func(plan tfsdk.State) {
		t.Helper()
		resp := fwresource.UpdateResponse{State: tfsdk.State{Schema: plan.Schema, Raw: plan.Raw.Copy()}}
		r.Update(t.Context(), fwresource.UpdateRequest{Plan: tfsdk.Plan(plan), State: model("col-temporary", sales)}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		var got types.String
		resp.State.GetAttribute(t.Context(), path.Root("collection_hash"), &got)
		if got.ValueString() != target {
			t.Errorf("state names %s, want the planned %s", got, target)
		}
	}
	update(model(target, sales))
	if err := checkSetCalls(emu, 1)(nil); err != nil { // the call that set it up
		t.Errorf("the planned list was already saved: %v", err)
	}
	if err := checkNotified(emu)(nil); err != nil {
		t.Error(err)
	}
	update(model(target, sales, support))
	if err := checkSetCalls(emu, 2)(nil); err != nil {
		t.Error(err)
	}
	// Support's readers; Sales was on the list and is not e-mailed again.
	if err := checkNotified(emu, "ben@example.com", "chloe@example.com")(nil); err != nil {
		t.Error(err)
	}
}
