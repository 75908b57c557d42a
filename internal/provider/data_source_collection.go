package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ datasource.DataSource              = (*collectionDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*collectionDataSource)(nil)
)

// newCollectionDataSource is flipbook_collection: collection.getCollection.
func newCollectionDataSource() datasource.DataSource {
	return &collectionDataSource{dataSourceBase{objectBase{typeSuffix: "collection"}}}
}

type collectionDataSource struct {
	dataSourceBase
}

type collectionDataSourceModel struct {
	CollectionHash types.String `tfsdk:"collection_hash"`
	Title          types.String `tfsdk:"title"`
	collectionAttrsModel
	collectionFlipbookModel
	Settings types.Object `tfsdk:"settings"`
}

func (d *collectionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := collectionAttributes(dataSourceKit)
	maps.Copy(attributes, computedAttributes(dataSourceKit, []computedField{
		{name: "title", typ: types.StringType, description: "The collection's title."},
		{name: "flipbook_page_count", typ: types.Int64Type, description: "The collection's `flipbookPageCount`: pages of " +
			"its item, equal to `page_count` for a collection created through the API. Read as a number when the service " +
			"sends it as a string."},
		{name: "flipbook_status", typ: types.StringType, description: "The collection's `flipbookStatus` as the service " +
			"reports it: `processing` while a generation runs or a document converts, `complete`, `failed`, or any other " +
			"value it sends."},
	}))
	maps.Copy(attributes, map[string]schema.Attribute{
		"collection_hash": schema.StringAttribute{
			MarkdownDescription: "The collection hash.",
			Required:            true,
			Validators:          nonEmptyString(),
		},
		"settings": schema.SingleNestedAttribute{
			MarkdownDescription: "The player settings. The fields the spec marks deprecated in `collection.getCollection` " +
				"(`logoUrl` and the `share*` options) are left out because the service returns no valid value for them; the " +
				"logo's click URL is managed by `flipbook_collection_logo`. A setting the service does not send is null.",
			Computed:   true,
			Attributes: computedAttributes(dataSourceKit, settingsFields),
		},
	})
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one collection (`collection.getCollection`): its status, pages, items and player settings. " +
			"Values the service sends as strings where numbers or booleans are documented are read as numbers and booleans.",
		Attributes: attributes,
	}
}

func (d *collectionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m collectionDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hash := m.CollectionHash.ValueString()
	col, err := d.client.GetCollection(apiclient.WithFreshRead(ctx), hash)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Error Reading Flipbook Collection",
			dataSourceErrorDetail(fmt.Sprintf("reading collection %s", hash), err))
		return
	}
	m.Title = optionalString(col.CollectionTitle)
	resp.Diagnostics.Append(m.fill(col)...)
	m.fillFlipbook(col)
	settings, diags := settingsValue(col.Settings)
	resp.Diagnostics.Append(diags...)
	m.Settings = settings
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
