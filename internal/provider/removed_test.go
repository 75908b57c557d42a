package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// expectForget checks that the plan forgets addr: removed from the state,
// with no destroy sent to the provider.
type expectForget struct{ addr string }

func (c expectForget) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == c.addr {
			if !rc.Change.Actions.Forget() {
				resp.Error = fmt.Errorf("%s is planned to %v, want forget", c.addr, rc.Change.Actions)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("the plan has no change for %s", c.addr)
}

// The docs show a removed block with destroy = false for each resource the
// API cannot delete; it must let go of the resource and leave the object in
// the service.
func TestAccRemovedBlock_document(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const col = "col-private"
	pdf := writeTestPDF(t, t.TempDir(), "manual.pdf", 2)
	var flipbook string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_7_0)},
		Steps: []resource.TestStep{
			{
				Config: documentConfig(emu, col, fmt.Sprintf("file = %q", pdf)),
				Check: func(s *terraform.State) error {
					flipbook = s.RootModule().Resources["flipbook_document.test"].Primary.ID
					return nil
				},
			},
			{
				Config: emu.providerConfig("") + `
removed {
  from = flipbook_document.test
  lifecycle {
    destroy = false
  }
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{expectForget{"flipbook_document.test"}},
				},
				Check: func(s *terraform.State) error {
					if _, ok := s.RootModule().Resources["flipbook_document.test"]; ok {
						return fmt.Errorf("the document is still in state")
					}
					c, err := emu.apiClient(t).GetCollection(t.Context(), col)
					if err != nil {
						return err
					}
					for _, it := range c.CollectionItems {
						if it.FlipbookHash == flipbook {
							return nil
						}
					}
					return fmt.Errorf("flipbook %s is gone from collection %s", flipbook, col)
				},
			},
		},
	})
}
