package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func TestAccStatsDataSource(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) {
		f.Accounts[0].Collections[0].Stats = &emulator.FlipbookStatsFixture{Views: 321, TimeSpent: 45, Downloads: 6}
	}))
	addr := "data.flipbook_stats.handbook"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				// The fixture's one-item collection: its item is fb-<hash>.
				Config: emu.providerConfig("") + `
data "flipbook_stats" "handbook" {
  collection_hash = "col-private"
  flipbook_hash   = "fb-col-private"
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("views"), knownvalue.Int64Exact(321)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("time_spent"), knownvalue.Int64Exact(45)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("downloads"), knownvalue.Int64Exact(6)),
				},
			},
			{
				Config: emu.providerConfig("") + `
data "flipbook_stats" "missing" {
  collection_hash = "col-private"
  flipbook_hash   = "no-such-flipbook"
}`,
				ExpectError: msgRe("Error Reading Flipbook Statistics", "with data.flipbook_stats.missing", "flipbook_hash", "code 47"),
			},
		},
	})
}
