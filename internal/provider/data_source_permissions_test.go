package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func TestAccPermissionsDataSource(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) {
		f.Accounts[0].Collections[0].Permissions = []emulator.PermissionFixture{
			{Type: "teammate", Group: "Support"},
			{Type: "teammate", Email: "Ana@Example.com"},
			{Type: "teammate"},
		}
	}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: emu.providerConfig("") + `
data "flipbook_permissions" "handbook" { collection_hash = "col-private" }
`,
				ConfigStateChecks: []statecheck.StateCheck{
					// In saved order, spelled as the service holds them.
					statecheck.ExpectKnownValue("data.flipbook_permissions.handbook", tfjsonpath.New("permissions"), knownvalue.ListExact([]knownvalue.Check{
						permissionValue("teammate", "", "Support"),
						permissionValue("teammate", "Ana@Example.com", ""),
						permissionValue("teammate", "", ""),
					})),
				},
			},
			{
				Config:      emu.providerConfig("") + `data "flipbook_permissions" "public" { collection_hash = "col-public" }`,
				ExpectError: msgRe("Error Reading Collection Permissions", "code 48", "not password-protected"),
			},
		},
	})
}
