package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

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

// The resources' and the data source's items, and every attribute they
// share, have the type and description of their one definition, and the
// models' values fit those types.
func TestCollectionAttributesOneDefinition(t *testing.T) {
	var rs resource.SchemaResponse
	newCatalogResource().Schema(t.Context(), resource.SchemaRequest{}, &rs)
	var ds datasource.SchemaResponse
	newCollectionDataSource().Schema(t.Context(), datasource.SchemaRequest{}, &ds)
	if rs.Diagnostics.HasError() || ds.Diagnostics.HasError() {
		t.Fatalf("schemas: %v %v", rs.Diagnostics, ds.Diagnostics)
	}
	wantItems := types.ListType{ElemType: itemObjectType}
	checkCollectionAttributes(t, "resource", rs.Schema.Attributes, wantItems)
	checkCollectionAttributes(t, "data source", ds.Schema.Attributes, wantItems)
	items, diags := itemsValue([]apiclient.CollectionItem{{FlipbookHash: "f1"}})
	if diags.HasError() || !items.Type(t.Context()).Equal(wantItems) {
		t.Errorf("itemsValue: %s %v", items.Type(t.Context()), diags)
	}
}

type describedAttribute interface {
	GetType() attr.Type
	GetMarkdownDescription() string
	IsComputed() bool
}

func checkCollectionAttributes[A describedAttribute](t *testing.T, name string, attrs map[string]A, wantItems attr.Type) {
	t.Helper()
	if got := attrs["items"].GetType(); !got.Equal(wantItems) || attrs["items"].GetMarkdownDescription() != itemsDescription {
		t.Errorf("%s: items is %s, want %s", name, got, wantItems)
	}
	for _, f := range collectionFields {
		a, ok := attrs[f.name]
		if !ok || !a.GetType().Equal(f.typ) || a.GetMarkdownDescription() != f.description || !a.IsComputed() {
			t.Errorf("%s: %s is %v, want a computed %s described %q", name, f.name, a, f.typ, f.description)
		}
	}
}
