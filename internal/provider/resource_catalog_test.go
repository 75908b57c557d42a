package provider

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const shoesAddr = "flipbook_catalog.shoes"

func catalog(sections string) string {
	return `
resource "flipbook_catalog" "shoes" {
  title    = "Shoes 2026"
  folder   = "Catalogs"
  sections = [` + sections + `]
}
`
}

// trailByPrice lays out the test fixture's trail shoes, dearest first, six to a
// page (tpl-product).
const trailByPrice = `{
  sources       = ["feed-shoes"]
  template_hash = "tpl-product"
  sort_by       = [{ field = "price", order = "desc" }]
  filters       = [{ mode = "include", conditions = [{ field = "category", operator = "eq", value = "trail" }] }]
}`

// The test fixture's trail shoes by price, descending.
var trailByPriceLayout = [][]string{
	{"B18", "B30", "B08", "B20", "B32", "B05"},
	{"B17", "B29", "B07", "B19", "B31", "B06"},
}

// groupedBrands keeps B01-B04 and the shoes of 100 or more, sorts them by a
// custom size order and starts a page for each brand.
const groupedBrands = `{
  sources       = ["feed-shoes"]
  template_hash = "tpl-product"
  group_by      = [{ field = "brand", page_break = true }]
  sort_by       = [{ field = "size", custom_order = ["L", "M", "S"] }]
  filters = [{
    mode  = "include"
    match = "any"
    conditions = [
      { field = "sku", operator = "in", values = ["B01", "B02", "B03", "B04"] },
      { field = "price", operator = "gte", value = "100" },
    ]
  }, {
    mode       = "exclude"
    conditions = [{ field = "price", operator = "between", values = ["0", "20"] }]
  }]
}`

// Size order L, M, S gives B03 B18 B30 B02 B35 B04 B13 (B01 at 19.99 is
// excluded); brands in order of first appearance: Corsa, Bolt, Dune, Acme.
var groupedBrandsLayout = [][]string{{"B03", "B35"}, {"B18", "B30", "B02"}, {"B04"}, {"B13"}}

const groupedBrandsSections = `[{
  "sectionType": "feed",
  "sources": [{"sourceHash": "feed-shoes"}],
  "templates": [{"templateHash": "tpl-product"}],
  "groupBy": [{"field": "brand", "pageBreak": true}],
  "sortBy": [{"field": "size", "order": ["L", "M", "S"]}],
  "filters": [
    {"mode": "include", "match": "any", "conditions": [
      {"field": "sku", "operator": "in", "value": ["B01", "B02", "B03", "B04"]},
      {"field": "price", "operator": "gte", "value": "100"}]},
    {"mode": "exclude", "conditions": [{"field": "price", "operator": "between", "value": ["0", "20"]}]}
  ]
}]`

func expectLayout(e *testEmulator, want [][]string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		cols := generated(e, "catalog")
		if len(cols) == 0 {
			return fmt.Errorf("no catalog generated")
		}
		c := cols[len(cols)-1]
		if id := s.RootModule().Resources[shoesAddr].Primary.ID; id != c.CollectionHash {
			return fmt.Errorf("state id %s, newest catalog %s", id, c.CollectionHash)
		}
		if !reflect.DeepEqual(c.Layout, want) {
			return fmt.Errorf("layout %v, want %v", c.Layout, want)
		}
		return nil
	}
}

func TestAccCatalog_lifecycle(t *testing.T) {
	e := newTestEmulator(t, nil)
	differs := statecheck.CompareValue(compare.ValuesDiffer())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: e.providerConfig("") + catalog(trailByPrice),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(hashPattern)),
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("status"), knownvalue.StringExact("unlisted")),
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("page_count"), knownvalue.Int64Exact(2)),
					differs.AddStateValue(shoesAddr, tfjsonpath.New("id")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(expectLayout(e, trailByPriceLayout), func(*terraform.State) error {
					if c := latest(t, e, "catalog"); c.Title != "Shoes 2026" || c.Folder != "Catalogs" {
						return fmt.Errorf("title %q folder %q", c.Title, c.Folder)
					}
					return nil
				}),
			},
			{
				ResourceName:            shoesAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"title", "folder", "sections"},
			},
			{
				Config: e.providerConfig("") + catalog(groupedBrands),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(shoesAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(int64(len(groupedBrandsLayout)))),
					differs.AddStateValue(shoesAddr, tfjsonpath.New("id")),
				},
				Check: resource.ComposeTestCheckFunc(expectLayout(e, groupedBrandsLayout), func(*terraform.State) error {
					return sameJSON(t, latest(t, e, "catalog").Sections, groupedBrandsSections)
				}),
			},
		},
	})
}

// An imported catalog adopts its first configuration in place.
func TestAccCatalog_adoptAfterImport(t *testing.T) {
	e := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: e.providerConfig("") + catalog(trailByPrice)},
			{
				// Forget the catalog, as if it had been made outside Terraform.
				Config: e.providerConfig(""),
				Check: func(*terraform.State) error {
					if n := len(generated(e, "catalog")); n != 1 {
						return fmt.Errorf("destroy must keep the catalog in the account, found %d", n)
					}
					return nil
				},
			},
			{
				Config:             e.providerConfig("") + catalog(trailByPrice),
				ResourceName:       shoesAddr,
				ImportState:        true,
				ImportStatePersist: true,
				ImportStateIdFunc:  func(*terraform.State) (string, error) { return latest(t, e, "catalog").CollectionHash, nil },
			},
			{
				Config: e.providerConfig("") + catalog(trailByPrice),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(shoesAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(shoesAddr, tfjsonpath.New("sections").AtSliceIndex(0).AtMapKey("template_hash"),
						knownvalue.StringExact("tpl-product")),
				},
				Check: expectLayout(e, trailByPriceLayout),
			},
		},
	})
	if n := calls(e, "collection.createCatalog"); n != 1 {
		t.Errorf("createCatalog called %d times, want 1: adoption must not regenerate", n)
	}
}

// A create whose answer is lost cannot be confirmed (the API lists no
// collections): the error names the catalog's title and folder and says how
// to adopt it; following that advice adopts the one catalog created.
func TestAccCatalog_lostAnswerNamesTheCatalog(t *testing.T) {
	e := newTestEmulator(t, nil)
	cfg := e.providerConfig("") + catalog(trailByPrice)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := e.Emulator.SetFaultsOn([]string{"collection.createCatalog"}, 1, []string{"reset_after"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ExpectError: msgRe("Catalog May Exist Without Being In State", `"Shoes 2026"`, `"Catalogs"`,
					"not send the request again", "terraform import flipbook_catalog.<name> <collection-hash>"),
			},
			{
				PreConfig: func() {
					if err := e.Emulator.SetFaults(0, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				ResourceName:       shoesAddr,
				ImportState:        true,
				ImportStatePersist: true,
				ImportStateIdFunc: func(*terraform.State) (string, error) {
					c := latest(t, e, "catalog")
					if c.Title != "Shoes 2026" || c.Folder != "Catalogs" {
						return "", fmt.Errorf("the lost create made %q in %q", c.Title, c.Folder)
					}
					return c.CollectionHash, nil
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(shoesAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
	if n := len(generated(e, "catalog")); n != 1 || calls(e, "collection.createCatalog") != 1 {
		t.Errorf("%d catalogs after %d creates, want one of each", n, calls(e, "collection.createCatalog"))
	}
}

func TestAccCatalog_validation(t *testing.T) {
	e := newTestEmulator(t, nil)
	section := func(extra string) string {
		return e.providerConfig("") + catalog(`{
  sources       = ["feed-shoes"]
  template_hash = "tpl-product"
  `+extra+`
}`)
	}
	cond := func(c string) string {
		return section(`filters = [{ mode = "include", conditions = [` + c + `] }]`)
	}
	cases := []struct{ name, config, want string }{
		{"no sections", e.providerConfig("") + catalog(""), `at\s+least\s+1\s+elements`},
		{"bad folder", e.providerConfig("") + strings.Replace(catalog(trailByPrice), `"Catalogs"`, `"Catalogs/"`, 1), `Invalid\s+Folder`},
		{"no sources", e.providerConfig("") + catalog(`{ sources = [], template_hash = "tpl-product" }`), `at\s+least\s+1\s+elements`},
		{"missing template_hash", e.providerConfig("") + catalog(`{ sources = ["feed-shoes"] }`), `template_hash.*required`},
		{"sort without order", section(`sort_by = [{ field = "price" }]`), `No\s+attribute\s+specified`},
		{"sort with both orders", section(`sort_by = [{ field = "size", order = "asc", custom_order = ["S"] }]`), `2\s+attributes\s+specified`},
		{"sort order invalid", section(`sort_by = [{ field = "price", order = "up" }]`), `value\s+must\s+be\s+one\s+of`},
		{"filter mode invalid", section(`filters = [{ mode = "keep", conditions = [{ field = "sku", operator = "eq", value = "B01" }] }]`), `value\s+must\s+be\s+one\s+of`},
		{"filter match invalid", section(`filters = [{ mode = "include", match = "some", conditions = [{ field = "sku", operator = "eq", value = "B01" }] }]`), `value\s+must\s+be\s+one\s+of`},
		{"unknown operator", cond(`{ field = "sku", operator = "like", value = "B" }`), `value\s+must\s+be\s+one\s+of`},
		{"in with value", cond(`{ field = "sku", operator = "in", value = "B01" }`), `takes\s+values,\s+not\s+value`},
		{"nin without values", cond(`{ field = "sku", operator = "nin" }`), `"nin"\s+needs\s+values`},
		{"eq with values", cond(`{ field = "sku", operator = "eq", values = ["B01"] }`), `takes\s+value,\s+not\s+values`},
		{"contains without value", cond(`{ field = "brand", operator = "contains" }`), `"contains"\s+needs\s+value`},
		{"lt not numeric", cond(`{ field = "price", operator = "lt", value = "cheap" }`), `numeric\s+string.*"cheap"`},
		{"between one value", cond(`{ field = "price", operator = "between", values = ["10"] }`), `exactly\s+two\s+numeric\s+strings`},
		{"between not numeric", cond(`{ field = "price", operator = "between", values = ["10", "lots"] }`), `Invalid\s+Numeric\s+Value.*"lots"`},
	}
	// Rules the spec does not state: planned, with a warning on the attribute.
	planned := []string{
		e.providerConfig("") + catalog(`{ sources = [""], template_hash = "tpl-product" }`),
		e.providerConfig("") + catalog(`{ sources = ["feed-shoes"], template_hash = "" }`),
		section(`group_by = [{ field = "" }]`),
		section(`sort_by = [{ field = "size", custom_order = [] }]`),
		section(`filters = [{ mode = "include", conditions = [] }]`),
		cond(`{ field = "sku", operator = "in", values = [] }`),
		cond(`{ field = "price", operator = "between", values = ["99", "10"] }`),
	}
	var steps []resource.TestStep
	for _, tc := range cases {
		steps = append(steps, resource.TestStep{Config: tc.config, PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)` + tc.want)})
	}
	for _, cfg := range planned {
		steps = append(steps, resource.TestStep{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviderFactories(t), Steps: steps})
	expectNoAPICalls(t, e)
}

func TestAccCatalog_example(t *testing.T) {
	e := newDemoEmulator(t)
	const addr = "flipbook_catalog.example"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: e.providerConfig("") + readExample(t, "resources/flipbook_catalog/resource.tf"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(hashPattern)),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraform.State) error {
				c := latest(t, e, "catalog")
				if len(c.Layout) == 0 || len(c.Layout) != c.PageCount {
					return fmt.Errorf("the example catalog laid out %v over %d pages", c.Layout, c.PageCount)
				}
				return nil
			},
		}},
	})
}
