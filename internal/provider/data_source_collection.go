package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*collectionDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*collectionDataSource)(nil)
)

// newCollectionDataSource is flipbook_collection: collection.getCollection.
func newCollectionDataSource() datasource.DataSource {
	return &collectionDataSource{dataSourceBase{typeSuffix: "collection"}}
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
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	computedBool := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{MarkdownDescription: desc, Computed: true}
	}
	computedInt := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one collection (`collection.getCollection`): its status, pages, items and player settings. " +
			"Values the service sends as strings where numbers or booleans are documented are read as numbers and booleans.",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "The collection hash.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"title":       computedString("The collection's title."),
			"description": computedString("The collection's description."),
			"status":      computedString("The `collectionStatus` as the service reports it (`public`, `editable`, `unlisted`, `published`, `processing`, or any other value it sends)."),
			"page_count":  computedInt("Pages over all items."),
			"flipbook_page_count": computedInt("The collection's `flipbookPageCount`: pages of its item, equal to `page_count` " +
				"for a collection created through the API. Read as a number when the service sends it as a string."),
			"flipbook_status": computedString("The collection's `flipbookStatus` as the service reports it: `processing` while " +
				"a generation runs or a document converts, `complete`, `failed`, or any other value it sends."),
			"cover_image":  computedString("URL of the thumbnail made from the first page of the first item."),
			"direct_link":  computedString("The collection's public link."),
			"created_date": computedString("Creation date, shaped `YYYY-MM-DD HH:MM:SS`."),
			"publish_date": computedString("Publication date, shaped `YYYY-MM-DD HH:MM:SS`; null while unpublished."),
			"items": schema.ListNestedAttribute{
				MarkdownDescription: "The collection's flipbooks.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"flipbook_hash":  computedString("The flipbook hash."),
					"title":          computedString("The flipbook's title."),
					"description":    computedString("The flipbook's description."),
					"page_count":     computedInt("The flipbook's pages."),
					"extension":      computedString("`pdf`, `jpg` or `png`."),
					"convert_status": computedString("`PROCESSING`, `COMPLETE` or `FAILED`."),
				}},
			},
			"settings": schema.SingleNestedAttribute{
				MarkdownDescription: "The player settings. The fields the spec marks deprecated in `collection.getCollection` " +
					"(`logoUrl` and the `share*` options) are left out because the service returns no valid value for them; the " +
					"logo's click URL is managed by `flipbook_collection_logo`. A setting the service does not send is null.",
				Computed: true,
				Attributes: map[string]schema.Attribute{
					"collection_width":          computedInt("Embed width in pixels."),
					"collection_height":         computedInt("Embed height in pixels."),
					"collection_status":         computedString("`public`, `editable` or `unlisted`."),
					"enable_download":           computedBool("Whether the player menu shows the download button."),
					"enable_full_screen":        computedBool("Whether fullscreen is allowed."),
					"enable_search":             computedBool("Whether the search button shows."),
					"tooltips_language":         computedString("The player's tooltip language, such as `English`."),
					"transparent_background":    computedBool("No background; `background_color` is then ignored."),
					"background_color":          computedString("Hexadecimal background colour."),
					"background_scale_type":     computedString("`scaleCrop`, `center` or `tile`."),
					"auto_flip":                 computedBool("Whether pages turn automatically."),
					"auto_flip_delay":           computedInt("Seconds between automatic turns."),
					"right_to_left_orientation": computedBool("Reading from right to left."),
					"single_page_view":          computedBool("One page at a time."),
					"logo_image":                computedString("Identifier of the logo image, when one is set."),
				},
			},
		},
	}
}

func (d *collectionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m collectionDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hash := m.CollectionHash.ValueString()
	col, err := d.client.GetCollection(ctx, hash)
	if err != nil {
		addAPIAttributeError(&resp.Diagnostics, path.Root("collection_hash"), "Error Reading Flipbook Collection",
			fmt.Sprintf("reading collection %s", hash), err)
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
