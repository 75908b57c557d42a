package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTemplateSectionsToAPI(t *testing.T) {
	ctx := t.Context()
	models := []templateSectionModel{
		{
			Type:      types.StringValue("static"),
			PageBreak: types.BoolValue(false),
			Templates: []templateRefModel{
				{TemplateHash: types.StringValue("tpl-cover"), Pages: []int64{0, 1}},
				{TemplateHash: types.StringValue("tpl-back")},
			},
			Elements: []elementModel{
				{Name: types.StringValue("headline"), Value: types.StringValue("Spring 2026")},
				{Name: types.StringValue("gallery"), Value: types.StringNull(), Values: []string{"https://example.com/a.jpg"}},
			},
			PageCount: types.Int64Null(),
		},
		{Type: types.StringValue("blank"), PageBreak: types.BoolNull(), PageCount: types.Int64Value(2)},
		{Type: types.StringValue("blank"), PageBreak: types.BoolValue(true), PageCount: types.Int64Null()},
	}

	// Through the schema's list type and back, as Create reads the plan.
	elem := templateSectionsAttribute().NestedObject.Type()
	list, diags := types.ListValueFrom(ctx, elem, models)
	if diags.HasError() {
		t.Fatalf("ListValueFrom: %v", diags)
	}
	back, diags := sectionsFromList[templateSectionModel](ctx, list)
	if diags.HasError() {
		t.Fatalf("sectionsFromList: %v", diags)
	}

	got := jsonOf(t, templateSectionsToAPI(back))
	want := `[{"sectionType":"static","pageBreak":false,` +
		`"templates":[{"templateHash":"tpl-cover","templatePages":[0,1]},{"templateHash":"tpl-back"}],` +
		`"elements":[{"name":"headline","value":"Spring 2026"},{"name":"gallery","value":["https://example.com/a.jpg"]}]},` +
		`{"sectionType":"blank","pageCount":2},` +
		`{"sectionType":"blank","pageBreak":true}]`
	if got != want {
		t.Errorf("sections JSON\n got %s\nwant %s", got, want)
	}
}

func TestCatalogSectionsToAPI(t *testing.T) {
	ctx := t.Context()
	models := []catalogSectionModel{{
		Sources:      []string{"feed-shoes", "feed-boots"},
		TemplateHash: types.StringValue("tpl-product"),
		GroupBy:      []groupByModel{{Field: types.StringValue("brand"), PageBreak: types.BoolValue(true)}, {Field: types.StringValue("color"), PageBreak: types.BoolNull()}},
		SortBy: []sortByModel{
			{Field: types.StringValue("price"), Order: types.StringValue("desc")},
			{Field: types.StringValue("size"), Order: types.StringNull(), CustomOrder: []string{"S", "M", "L"}},
		},
		Filters: []filterModel{{
			Mode:  types.StringValue("include"),
			Match: types.StringValue("any"),
			Conditions: []conditionModel{
				{Field: types.StringValue("price"), Operator: types.StringValue("between"), Value: types.StringNull(), Values: []string{"10", "99.5"}},
				{Field: types.StringValue("sku"), Operator: types.StringValue("in"), Value: types.StringNull(), Values: []string{"A1", "B2"}},
				{Field: types.StringValue("brand"), Operator: types.StringValue("contains"), Value: types.StringValue("Ac")},
				{Field: types.StringValue("price"), Operator: types.StringValue("lt"), Value: types.StringValue("50")},
			},
		}, {
			Mode:       types.StringValue("exclude"),
			Match:      types.StringNull(),
			Conditions: []conditionModel{{Field: types.StringValue("color"), Operator: types.StringValue("eq"), Value: types.StringValue("red")}},
		}},
	}}
	elem := catalogSectionsAttribute().NestedObject.Type()
	list, diags := types.ListValueFrom(ctx, elem, models)
	if diags.HasError() {
		t.Fatalf("ListValueFrom: %v", diags)
	}
	back, diags := sectionsFromList[catalogSectionModel](ctx, list)
	if diags.HasError() {
		t.Fatalf("sectionsFromList: %v", diags)
	}
	got := jsonOf(t, catalogSectionsToAPI(back))
	want := `[{"sectionType":"feed","templates":[{"templateHash":"tpl-product"}],` +
		`"sources":[{"sourceHash":"feed-shoes"},{"sourceHash":"feed-boots"}],` +
		`"groupBy":[{"field":"brand","pageBreak":true},{"field":"color"}],` +
		`"sortBy":[{"field":"price","order":"desc"},{"field":"size","order":["S","M","L"]}],` +
		`"filters":[{"mode":"include","match":"any","conditions":[` +
		`{"field":"price","operator":"between","value":["10","99.5"]},` +
		`{"field":"sku","operator":"in","value":["A1","B2"]},` +
		`{"field":"brand","operator":"contains","value":"Ac"},` +
		`{"field":"price","operator":"lt","value":"50"}]},` +
		`{"mode":"exclude","conditions":[{"field":"color","operator":"eq","value":"red"}]}]}]`
	if got != want {
		t.Errorf("sections JSON\n got %s\nwant %s", got, want)
	}
}
