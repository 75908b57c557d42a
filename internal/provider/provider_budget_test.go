package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// budgetConfig reads the same collection from several data sources, which
// Terraform refreshes in parallel: a burst the service's per-second limit
// refuses unless the provider spreads the calls out.
func budgetConfig(e *testEmulator, providerExtra string) string {
	var b strings.Builder
	b.WriteString(e.providerConfig(providerExtra))
	for i := range 8 {
		fmt.Fprintf(&b, "data \"flipbook_collection\" \"c%d\" {\n  collection_hash = \"pub-private-1\"\n}\n", i)
	}
	return b.String()
}

// serviceRPS is the service's per-second limit in these tests. The budget
// is set to exactly that: a call occupies the budget until a second after
// its answer, so calls cannot arrive bunched however loaded the machine.
const serviceRPS = 4

func throttledFixture() *emulator.Fixture {
	f := emulator.DemoFixture()
	f.Limits.RequestsPerSecond = serviceRPS
	return f
}

func throttleCount(e *testEmulator) int {
	n := 0
	for _, byCode := range e.Emulator.Requests() {
		n += byCode["31"] + byCode["32"]
	}
	return n
}

// TestAccProvider_requestBudgetAvoidsThrottling proves that one budget is
// shared by every data source of a provider instance: with
// requests_per_second at the service's limit, no call is refused.
func TestAccProvider_requestBudgetAvoidsThrottling(t *testing.T) {
	e := newTestEmulator(t, throttledFixture())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: budgetConfig(e, fmt.Sprintf("requests_per_second = %d", serviceRPS)),
			Check: func(*terraform.State) error {
				if n := throttleCount(e); n != 0 {
					return fmt.Errorf("the service throttled %d calls although the provider's budget is its limit", n)
				}
				return nil
			},
		}},
	})
}

// TestAccProvider_throttlingWithoutBudgetIsRetried is the control for the
// test above: the same burst without a budget does meet the limit, and the
// retries still bring the apply to success.
func TestAccProvider_throttlingWithoutBudgetIsRetried(t *testing.T) {
	e := newTestEmulator(t, throttledFixture())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: budgetConfig(e, ""),
			Check: func(*terraform.State) error {
				if throttleCount(e) == 0 {
					return fmt.Errorf("the burst was never throttled, so the budget test above proves nothing")
				}
				return nil
			},
		}},
	})
}

// Every Configure of the plugin process gets the same budget for the same
// account, endpoint and limits, so what one graph walk learned of the
// service's limits the next one uses; another account has its own.
func TestSharedBudgetIsOnePerAccount(t *testing.T) {
	a := sharedBudget("http://127.0.0.1:1/api/v1/", "key-a", 0, 0)
	if sharedBudget("http://127.0.0.1:1/api/v1/", "key-a", 0, 0) != a {
		t.Error("a second Configure of the same account got another budget")
	}
	if sharedBudget("http://127.0.0.1:1/api/v1/", "key-b", 0, 0) == a {
		t.Error("another account shares the budget")
	}
	if ps, pm := sharedBudget("http://127.0.0.1:1/api/v1/", "key-c", 5, 60).Limits(); ps != 5 || pm != 60 {
		t.Errorf("limits %d/s %d/min, want the configured 5 and 60", ps, pm)
	}
}
