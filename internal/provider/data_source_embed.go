package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ datasource.DataSource              = (*embedDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*embedDataSource)(nil)
)

func newEmbedDataSource() datasource.DataSource {
	return &embedDataSource{dataSourceBase{typeSuffix: "embed"}}
}

type embedDataSource struct {
	dataSourceBase
}

type embedModel struct {
	CollectionHash types.String `tfsdk:"collection_hash"`
	Responsive     types.Bool   `tfsdk:"responsive"`
	StartPage      types.Int64  `tfsdk:"start_page"`
	Width          types.Int64  `tfsdk:"width"`
	Height         types.Int64  `tfsdk:"height"`
	EmbedCode      types.String `tfsdk:"embed_code"`
}

func (d *embedDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	positive := []validator.Int64{int64validator.AtLeast(1)}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Markup that embeds a collection's player in a web page (`collection.getEmbed`). " +
			"The deprecated `https` and `startBook` parameters are not offered.",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the collection to embed.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"responsive": schema.BoolAttribute{
				MarkdownDescription: "Fill the container (width and height 100%). Default `false`.",
				Optional:            true,
			},
			"start_page": schema.Int64Attribute{
				MarkdownDescription: "Page the player opens on, from 1. Default 1.",
				Optional:            true,
				Validators:          positive,
			},
			"width": schema.Int64Attribute{
				MarkdownDescription: "Width in pixels. Default: the collection's width setting.",
				Optional:            true,
				Validators:          positive,
			},
			"height": schema.Int64Attribute{
				MarkdownDescription: "Height in pixels. Default: the collection's height setting.",
				Optional:            true,
				Validators:          positive,
			},
			"embed_code": schema.StringAttribute{
				MarkdownDescription: "The embed markup (an iframe or object element).",
				Computed:            true,
			},
		},
	}
}

func embedIntParam(v types.Int64) *int {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := int(v.ValueInt64())
	return &n
}

func (d *embedDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m embedModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := apiclient.EmbedInput{
		CollectionHash: m.CollectionHash.ValueString(),
		StartPage:      embedIntParam(m.StartPage),
		Width:          embedIntParam(m.Width),
		Height:         embedIntParam(m.Height),
	}
	if !m.Responsive.IsNull() {
		b := m.Responsive.ValueBool()
		in.Responsive = &b
	}
	code, err := d.client.GetEmbed(ctx, in)
	if err != nil {
		addAPIAttributeError(&resp.Diagnostics, path.Root("collection_hash"), "Error Reading Embed Code",
			"reading the embed code of collection "+in.CollectionHash, err)
		return
	}
	m.EmbedCode = types.StringValue(code)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
