package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The API client shares one read of a collection among the objects of an
// operation (internal/apiclient/views.go). A change made outside Terraform
// between two operations is still seen by the next one, through the real
// CLI, with the provider in this test process (where the request budgets
// live across steps): the data source and the background resource read the
// same collection, and the status changed outside is what the next plan
// shows.
func TestAccCollectionViews_outsideChangeSeenByNextPlan(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const hash = "col-private"
	cfg := backgroundConfig(emu, hash, "") + `
data "flipbook_collection" "d" {
  collection_hash = flipbook_collection_background.test.collection_hash
}
`
	status := func(want string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.flipbook_collection.d", tfjsonpath.New("status"), knownvalue.StringExact(want))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{status("unlisted")}},
			{
				PreConfig: func() {
					public := "public"
					if err := emu.Emulator.SetAccess(hash, nil, nil, &public); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{status("public")},
			},
			{
				PreConfig: func() {
					if _, err := emu.Emulator.Publish(hash); err != nil {
						t.Fatal(err)
					}
				},
				// Publishing replaced the hash: the next plan reads the old
				// one again and the service no longer knows it (46).
				Config:      cfg,
				ExpectError: regexp.MustCompile(`code\s+46`),
			},
		},
	})
}
