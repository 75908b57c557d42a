package provider

import (
	"sync"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// budgetKey names one request budget: the same account at the same endpoint
// with the same limits draws on one budget.
type budgetKey struct {
	baseURL, apiKey      string
	perSecond, perMinute int
}

// budgetRegistry hands out one apiclient.Budget per budgetKey and keeps it
// for the registry's life. It is safe for concurrent use.
//
// Why it outlives Configure: Terraform configures the provider afresh for
// every graph walk (plan, apply, refresh) within one plugin process, and a
// budget per Configure would let one walk's burst land right after the
// previous walk's and meet the service's limit (README, "Configuration").
type budgetRegistry struct {
	mu      sync.Mutex
	budgets map[budgetKey]*apiclient.Budget
}

// processBudgets is the registry of the plugin process: every provider that
// New builds shares it, so budgets last as long as the process. Tests give
// each test a registry of its own instead (testAccProviderFactories), so
// that no test's calls spend another test's budget.
var processBudgets = &budgetRegistry{}

// budget returns the registry's budget for k, creating it on first use.
func (r *budgetRegistry) budget(k budgetKey) *apiclient.Budget {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.budgets == nil {
		r.budgets = map[budgetKey]*apiclient.Budget{}
	}
	b, ok := r.budgets[k]
	if !ok {
		b = apiclient.NewBudget(k.perSecond, k.perMinute)
		r.budgets[k] = b
	}
	return b
}
