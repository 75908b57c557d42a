package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

const handbookAddr = "data.flipbook_collection.handbook"

const handbookConfig = `
data "flipbook_collection" "handbook" {
  collection_hash = "col-private"
}
`

func TestAccCollectionDataSource_fixture(t *testing.T) {
	e := newTestEmulator(t, nil) // the test fixture sends settings numbers and booleans as strings
	view, err := e.Emulator.Collection("col-private")
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Items) == 0 || view.FlipbookStatus != "complete" {
		t.Fatalf("the fixture collection changed (items %v, flipbookStatus %q): pick another", view.Items, view.FlipbookStatus)
	}
	settings := func(name string) tfjsonpath.Path { return tfjsonpath.New("settings").AtMapKey(name) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: e.providerConfig("") + handbookConfig,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("title"), knownvalue.StringExact("Handbook")),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("description"), knownvalue.StringExact("Employee handbook")),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("status"), knownvalue.StringExact("unlisted")),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(4)),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("items"), knownvalue.ListSizeExact(len(view.Items))),
				// flipbookPageCount arrives as a string from this fixture.
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("flipbook_page_count"), knownvalue.Int64Exact(int64(view.Items[0].PageCount))),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("flipbook_status"), knownvalue.StringExact(view.FlipbookStatus)),
				statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("direct_link"), knownvalue.StringRegexp(regexp.MustCompile(`col-private`))),
				statecheck.ExpectKnownValue(handbookAddr, settings("collection_status"), knownvalue.StringExact("unlisted")),
				statecheck.ExpectKnownValue(handbookAddr, settings("collection_width"), knownvalue.Int64Exact(640)),
				statecheck.ExpectKnownValue(handbookAddr, settings("enable_download"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(handbookAddr, settings("auto_flip"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(handbookAddr, settings("auto_flip_delay"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue(handbookAddr, settings("tooltips_language"), knownvalue.StringExact("English")),
				statecheck.ExpectKnownValue(handbookAddr, settings("background_scale_type"), knownvalue.StringExact("scaleCrop")),
				statecheck.ExpectKnownValue(handbookAddr, settings("logo_image"), knownvalue.Null()),
			},
		}},
	})
}

// The data source reads what the resource created, counting the same pages.
func TestAccCollectionDataSource_generated(t *testing.T) {
	e := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: e.providerConfig("") + brochure("Read back", "") + `
data "flipbook_collection" "brochure" {
  collection_hash = flipbook_template_collection.brochure.id
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flipbook_collection.brochure", tfjsonpath.New("title"), knownvalue.StringExact("Read back")),
				statecheck.CompareValuePairs("data.flipbook_collection.brochure", tfjsonpath.New("page_count"),
					brochureAddr, tfjsonpath.New("page_count"), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.flipbook_collection.brochure", tfjsonpath.New("items"),
					brochureAddr, tfjsonpath.New("items"), compare.ValuesSame()),
			},
		}},
	})
}

func TestAccCollectionDataSource_errors(t *testing.T) {
	e := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config:      e.providerConfig("") + `data "flipbook_collection" "x" { collection_hash = "no-such-hash" }`,
				ExpectError: regexp.MustCompile(`(?s)Error\s+Reading\s+Flipbook\s+Collection.*no-such-hash.*code\s+46`),
			},
			{
				// Another account's collection.
				Config:      e.providerConfig("") + `data "flipbook_collection" "x" { collection_hash = "stranger-private" }`,
				ExpectError: regexp.MustCompile(`(?s)Error\s+Reading\s+Flipbook\s+Collection.*code\s+43`),
			},
			{
				Config:      e.providerConfig("") + `data "flipbook_collection" "x" { collection_hash = "" }`,
				ExpectError: regexp.MustCompile(`(?s)collection_hash.*at\s+least\s+1`),
			},
		},
	})
}

func TestAccCollectionDataSource_example(t *testing.T) {
	e := newDemoEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: e.providerConfig("") + readExample(t, "data-sources/flipbook_collection/data-source.tf"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("handbook_status", knownvalue.StringExact("unlisted")),
			},
		}},
	})
}

// A data source reads the service each time, even when the operation's
// client holds a shared answer for the collection: it may be read after a
// change made outside Terraform earlier in the same apply (a script, another
// provider, someone in the web editor).
func TestCollectionDataSourceReadsAfresh(t *testing.T) {
	ctx := t.Context()
	e := newTestEmulator(t, nil)
	c, err := apiclient.New(apiclient.Config{BaseURL: e.BaseURL, UploadURL: e.UploadURL, APIKey: e.apiKey, Secret: e.secret,
		ViewTTL: apiclient.DefaultViewTTL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetCollection(ctx, "col-private"); err != nil {
		t.Fatal(err)
	}
	if err := e.Emulator.Rename("col-private", "Renamed outside"); err != nil {
		t.Fatal(err)
	}
	if col, err := c.GetCollection(ctx, "col-private"); err != nil || col.CollectionTitle == "Renamed outside" {
		t.Fatalf("the client did not share its answer (%v, %v), so this test would prove nothing", col, err)
	}

	ds, ok := newCollectionDataSource().(*collectionDataSource)
	if !ok {
		t.Fatal("newCollectionDataSource is not a *collectionDataSource")
	}
	var cresp datasource.ConfigureResponse
	ds.Configure(ctx, datasource.ConfigureRequest{ProviderData: &providerData{client: c}}, &cresp)
	var sresp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sresp)
	state := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}
	if d := state.SetAttribute(ctx, path.Root("collection_hash"), "col-private"); d.HasError() {
		t.Fatal(d)
	}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: state.Raw.Copy()}}
	ds.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config(state)}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var title string
	if d := resp.State.GetAttribute(ctx, path.Root("title"), &title); d.HasError() || title != "Renamed outside" {
		t.Errorf("title %q (%v), want the service's %q", title, d, "Renamed outside")
	}
}
