package provider

import (
	"context"

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
	return &embedDataSource{dataSourceBase{objectBase{typeSuffix: "embed"}}}
}

type embedDataSource struct {
	dataSourceBase
}

type embedModel struct {
	CollectionHash types.String  `tfsdk:"collection_hash"`
	Responsive     types.Bool    `tfsdk:"responsive"`
	StartPage      types.Float64 `tfsdk:"start_page"`
	Width          types.Float64 `tfsdk:"width"`
	Height         types.Float64 `tfsdk:"height"`
	EmbedCode      types.String  `tfsdk:"embed_code"`
}

func (d *embedDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	// Spec, collection.getEmbed: startPage, width and height are of type
	// "number", with no range given: decimals are accepted, and values below
	// 1 only warn.
	below1 := func(what string) []validator.Float64 {
		return []validator.Float64{float64Warning(1, what+" The spec gives the type \"number\" and no range, so this is a "+
			"guess and the plan goes ahead; the service decides.")}
	}
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
			"start_page": schema.Float64Attribute{
				MarkdownDescription: "Page the player opens on, from 1. Default 1. A number, as the spec types it.",
				Optional:            true,
				Validators:          below1("Pages are numbered from 1."),
			},
			"width": schema.Float64Attribute{
				MarkdownDescription: "Width in pixels. Default: the collection's width setting. A number, as the spec types it.",
				Optional:            true,
				Validators:          below1("A width below one pixel shows nothing."),
			},
			"height": schema.Float64Attribute{
				MarkdownDescription: "Height in pixels. Default: the collection's height setting. A number, as the spec types it.",
				Optional:            true,
				Validators:          below1("A height below one pixel shows nothing."),
			},
			"embed_code": schema.StringAttribute{
				MarkdownDescription: "The embed markup (an iframe or object element).",
				Computed:            true,
			},
		},
	}
}

func embedNumberParam(v types.Float64) *float64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := v.ValueFloat64()
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
		StartPage:      embedNumberParam(m.StartPage),
		Width:          embedNumberParam(m.Width),
		Height:         embedNumberParam(m.Height),
	}
	if !m.Responsive.IsNull() {
		b := m.Responsive.ValueBool()
		in.Responsive = &b
	}
	code, err := d.client.GetEmbed(ctx, in)
	if err != nil && placeableAnswer(err, false) {
		// The spec lists no getEmbed errors; an answer naming a parameter is
		// shown on that attribute.
		addAnswerErrors(&resp.Diagnostics, "Error Reading Embed Code", "reading the embed code of collection "+in.CollectionHash, err, false)
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Error Reading Embed Code",
			dataSourceErrorDetail("reading the embed code of collection "+in.CollectionHash, err))
		return
	}
	m.EmbedCode = types.StringValue(code)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
