package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

func backgroundConfig(e *testEmulator, hash, triggers string) string {
	return e.providerConfig("") + fmt.Sprintf(`
resource "flipbook_collection_background" "test" {
  collection_hash = %q
  %s
}
`, hash, triggers)
}

// checkNoBackgroundImage checks the emulator's record, which (unlike the
// API) knows whether an image is set.
func checkNoBackgroundImage(emu *testEmulator, hash string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		v, err := emu.Emulator.Collection(hash)
		if err != nil {
			return err
		}
		if v.BackgroundImage {
			return fmt.Errorf("collection %s still has a background image", hash)
		}
		return nil
	}
}

func TestAccCollectionBackground_lifecycle(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const hash = "col-private"
	addr := "flipbook_collection_background.test"
	if v, err := emu.Emulator.Collection(hash); err != nil || !v.BackgroundImage {
		t.Fatalf("fixture collection %s should start with a background image (%v)", hash, err)
	}
	calls := func() int { return emu.Emulator.Requests()[apiclient.ActionDeleteBackgroundImage]["20"] }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: backgroundConfig(emu, hash, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(hash)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("background_color"), knownvalue.StringExact("#FFFFFF")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("transparent_background"), knownvalue.Bool(false)),
				},
				Check: checkNoBackgroundImage(emu, hash),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// An import {} block with the same configuration plans no change.
				Config:          backgroundConfig(emu, hash, ""),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				// A new trigger value removes the image again.
				Config: backgroundConfig(emu, hash, `triggers = { campaign = "spring" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(*terraform.State) error {
					if n := calls(); n != 2 {
						return fmt.Errorf("deleteBackgroundImage called %d times, want 2", n)
					}
					return nil
				},
			},
		},
	})
}

// Publishing gives the collection a new hash: the plan stops with the words
// to write, and the new hash written into collection_hash moves the resource
// in place without another deleteBackgroundImage.
func TestAccCollectionBackground_collectionGone(t *testing.T) {
	emu := newTestEmulator(t, nil)
	cfg := backgroundConfig(emu, "col-draft", "")
	var published string
	moved := emu.providerConfig("") + `
variable "published" { type = string }

resource "flipbook_collection_background" "test" {
  collection_hash = var.published
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					h, err := emu.Emulator.Publish("col-draft")
					if err != nil {
						t.Fatal(err)
					}
					published = h
				},
				Config:      cfg,
				ExpectError: msgRe("Flipbook Collection Hash No Longer Exists", `set collection_hash = "<new hash>"`),
			},
			{
				Config:          moved,
				ConfigVariables: config.Variables{"published": lazyVariable{&published}},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("flipbook_collection_background.test", plancheck.ResourceActionUpdate)},
				},
				Check: func(*terraform.State) error {
					if n := calls(emu, "collection.deleteBackgroundImage"); n != 1 {
						return fmt.Errorf("deleteBackgroundImage called %d times, want 1", n)
					}
					return nil
				},
			},
			{
				// A hash the service does not know stops the plan: nothing is
				// replaced onto it.
				Config:      backgroundConfig(emu, "no-such-collection", ""),
				ExpectError: msgRe("Collection Hash Not Found", "code 46", "write in collection_hash the hash"),
			},
		},
	})
}
