package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
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

func TestCollectionAttrsFill(t *testing.T) {
	col := &apiclient.Collection{
		CollectionHash:      "c1",
		CollectionStatus:    "some-future-status",
		CollectionPageCount: apiclient.Int{Value: 7, Valid: true},
		CoverImage:          "https://cdn.example/c1.jpg",
		CreatedDate:         "2026-11-22 04:00:00",
		DirectLink:          "https://flip.example/c1",
		CollectionItems: []apiclient.CollectionItem{{
			FlipbookHash: "f1", FlipbookTitle: "Spring", FlipbookPageCount: apiclient.Int{Value: 7, Valid: true},
			Extension: "pdf", ConvertStatus: "COMPLETE",
		}},
	}
	var m collectionAttrsModel
	if diags := m.fill(col); diags.HasError() {
		t.Fatal(diags)
	}
	if m.Status.ValueString() != "some-future-status" {
		t.Errorf("status %s: an unknown status must be kept verbatim", m.Status)
	}
	if m.PageCount.ValueInt64() != 7 || m.CreatedDate.ValueString() != "2026-11-22 04:00:00" {
		t.Errorf("page_count %s created_date %s", m.PageCount, m.CreatedDate)
	}
	if !m.Description.IsNull() || !m.PublishDate.IsNull() {
		t.Errorf("absent description %s / publish_date %s must be null, not empty", m.Description, m.PublishDate)
	}
	items := m.Items.Elements()
	if len(items) != 1 {
		t.Fatalf("items %v", m.Items)
	}
	item, ok := items[0].(types.Object)
	if !ok {
		t.Fatalf("item is a %T", items[0])
	}
	want := map[string]attr.Value{
		"flipbook_hash": types.StringValue("f1"), "title": types.StringValue("Spring"), "description": types.StringNull(),
		"page_count": types.Int64Value(7), "extension": types.StringValue("pdf"), "convert_status": types.StringValue("COMPLETE"),
	}
	for k, v := range want {
		if got := item.Attributes()[k]; !v.Equal(got) {
			t.Errorf("item %s = %v, want %v", k, got, v)
		}
	}

	// A count the service left out is null, never a made-up 0.
	m.fill(&apiclient.Collection{CollectionHash: "c2"})
	if !m.PageCount.IsNull() || len(m.Items.Elements()) != 0 || m.Items.IsNull() {
		t.Errorf("page_count %s items %s", m.PageCount, m.Items)
	}
}

func TestNullUnknowns(t *testing.T) {
	m := collectionAttrsModel{
		Status: types.StringUnknown(), PageCount: types.Int64Unknown(), Description: types.StringUnknown(),
		CoverImage: types.StringUnknown(), DirectLink: types.StringValue("kept"), CreatedDate: types.StringUnknown(),
		PublishDate: types.StringUnknown(), Items: types.ListUnknown(itemObjectType),
	}
	m.nullUnknowns()
	for name, v := range map[string]attr.Value{"status": m.Status, "page_count": m.PageCount, "description": m.Description,
		"cover_image": m.CoverImage, "created_date": m.CreatedDate, "publish_date": m.PublishDate, "items": m.Items} {
		if !v.IsNull() {
			t.Errorf("%s = %s, want null", name, v)
		}
	}
	if m.DirectLink.ValueString() != "kept" {
		t.Errorf("a known value must stay: %s", m.DirectLink)
	}
}

func TestSettingsValue(t *testing.T) {
	obj, diags := settingsValue(apiclient.Settings{
		CollectionWidth:  apiclient.Int{Value: 800, Valid: true},
		CollectionStatus: "unlisted",
		EnableDownload:   apiclient.Bool{Value: false, Valid: true},
		AutoFlip:         apiclient.Bool{Value: true, Valid: true},
		AutoFlipDelay:    apiclient.Int{Value: 5, Valid: true},
		TooltipsLanguage: "Português do Brasil",
		LogoURL:          "https://deprecated.example",
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	a := obj.Attributes()
	if len(a) != len(settingsAttrTypes) {
		t.Fatalf("settings has %d attributes, want %d", len(a), len(settingsAttrTypes))
	}
	checks := map[string]attr.Value{
		"collection_width":  types.Int64Value(800),
		"collection_status": types.StringValue("unlisted"),
		"enable_download":   types.BoolValue(false),
		"auto_flip":         types.BoolValue(true),
		"auto_flip_delay":   types.Int64Value(5),
		"tooltips_language": types.StringValue("Português do Brasil"),
		"enable_search":     types.BoolNull(),
		"collection_height": types.Int64Null(),
		"logo_image":        types.StringNull(),
	}
	for k, want := range checks {
		if !a[k].Equal(want) {
			t.Errorf("%s = %s, want %s", k, a[k], want)
		}
	}
	if _, ok := a["logo_url"]; ok {
		t.Error("the deprecated logoUrl must not be exposed")
	}
}

// The collection-level flipbookPageCount and flipbookStatus reach the data
// source's attributes, a page count sent as a string included; absent ones
// are null.
func TestCollectionFlipbookFill(t *testing.T) {
	for _, c := range []struct {
		name, body string
		pages      types.Int64
		status     types.String
	}{
		{"number", `{"collectionHash":"c1","flipbookPageCount":12,"flipbookStatus":"complete"}`, types.Int64Value(12), types.StringValue("complete")},
		{"string number", `{"collectionHash":"c1","flipbookPageCount":"9","flipbookStatus":"processing"}`, types.Int64Value(9), types.StringValue("processing")},
		{"absent", `{"collectionHash":"c1"}`, types.Int64Null(), types.StringNull()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var col apiclient.Collection
			if err := json.Unmarshal([]byte(c.body), &col); err != nil {
				t.Fatal(err)
			}
			var m collectionFlipbookModel
			m.fillFlipbook(&col)
			if !m.FlipbookPageCount.Equal(c.pages) || !m.FlipbookStatus.Equal(c.status) {
				t.Errorf("flipbook_page_count %s flipbook_status %s, want %s %s", m.FlipbookPageCount, m.FlipbookStatus, c.pages, c.status)
			}
		})
	}
}
