package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// budgetConfig reads the account's statistics from several data sources,
// which Terraform refreshes in parallel: a burst the service's per-second
// limit refuses unless the provider spreads the calls out. (Reads of one
// collection would share a call: internal/apiclient/views.go.)
func budgetConfig(e *testEmulator, providerExtra string) string {
	var b strings.Builder
	b.WriteString(e.providerConfig(providerExtra))
	for i := range 8 {
		fmt.Fprintf(&b, "data \"flipbook_user_stats\" \"s%d\" {}\n", i)
	}
	return b.String()
}

// serviceRPS is the service's per-second limit in these tests. The budget
// is set to exactly that: a call occupies the budget until a second after
// its answer, so calls cannot arrive bunched however loaded the machine.
const serviceRPS = 4

func throttledFixture(t *testing.T) *emulator.Fixture {
	f := testFixture(t)
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
	e := newTestEmulator(t, throttledFixture(t))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
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
	e := newTestEmulator(t, throttledFixture(t))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
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

// The registry hands the same account, endpoint and limits one budget, and
// any difference its own; every provider New builds shares the process's
// registry, and a test's registry is its own.
func TestBudgetRegistry(t *testing.T) {
	r := &budgetRegistry{}
	k := budgetKey{"https://api.example.com/v1/", "k", 3, 0}
	b := r.budget(k)
	if r.budget(k) != b {
		t.Error("the same key got a second budget")
	}
	for _, other := range []budgetKey{
		{"https://other.example.com/v1/", "k", 3, 0}, {k.baseURL, "k2", 3, 0}, {k.baseURL, "k", 4, 0}, {k.baseURL, "k", 3, 60},
	} {
		if r.budget(other) == b {
			t.Errorf("%+v shares the budget of %+v", other, k)
		}
	}
	if ps, pm := r.budget(budgetKey{k.baseURL, "k3", 5, 60}).Limits(); ps != 5 || pm != 60 {
		t.Errorf("limits %d/s %d/min, want the configured 5 and 60", ps, pm)
	}
	if (&budgetRegistry{}).budget(k) == b {
		t.Error("a fresh registry returned another registry's budget")
	}
	p1, ok1 := New("x")().(*flipbookProvider)
	p2, ok2 := New("y")().(*flipbookProvider)
	if !ok1 || !ok2 || p1.budgets != processBudgets || p2.budgets != processBudgets {
		t.Error("providers built by New do not share the process's budget registry")
	}
}
