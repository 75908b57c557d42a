package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func TestAccUserStatsDataSource(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) {
		quota := 40
		f.Accounts[0].UploadsPerMonth = &quota
		f.Accounts[0].UploadsThisMonth = 13
		f.Accounts[0].Stats = &emulator.UserStatsFixture{Impressions: 900, Views: 300, TimeSpent: 7200, Downloads: 12}
	}))
	addr := "data.flipbook_user_stats.me"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: emu.providerConfig("") + `data "flipbook_user_stats" "me" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("impressions"), knownvalue.Int64Exact(900)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("views"), knownvalue.Int64Exact(300)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("time_spent"), knownvalue.Int64Exact(7200)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("downloads"), knownvalue.Int64Exact(12)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("api_uploads_left"), knownvalue.Int64Exact(27)),
			},
		}},
	})
}
