package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ datasource.DataSource              = (*statsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*statsDataSource)(nil)
)

func newStatsDataSource() datasource.DataSource {
	return &statsDataSource{dataSourceBase{objectBase{typeSuffix: "stats"}}}
}

type statsDataSource struct {
	dataSourceBase
}

type statsModel struct {
	CollectionHash types.String `tfsdk:"collection_hash"`
	FlipbookHash   types.String `tfsdk:"flipbook_hash"`
	Views          types.Int64  `tfsdk:"views"`
	TimeSpent      types.Int64  `tfsdk:"time_spent"`
	Downloads      types.Int64  `tfsdk:"downloads"`
}

func (d *statsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Statistics of one flipbook of a collection (`collection.getStats`).",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the collection.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"flipbook_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the flipbook (for example a `flipbook_document`'s `id`).",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"views": schema.Int64Attribute{
				MarkdownDescription: "Views, counted when a viewer interacts with the player.",
				Computed:            true,
			},
			"time_spent": schema.Int64Attribute{
				MarkdownDescription: "Average viewing time, as the service reports it (the spec gives no unit).",
				Computed:            true,
			},
			"downloads": schema.Int64Attribute{
				MarkdownDescription: "Downloads.",
				Computed:            true,
			},
		},
	}
}

func (d *statsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m statsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	col, fb := m.CollectionHash.ValueString(), m.FlipbookHash.ValueString()
	st, err := d.client.GetStats(ctx, col, fb, apiclient.ResponseFormat{})
	if err != nil {
		at := path.Root("collection_hash")
		if apiclient.IsFlipbookNotFound(err) {
			at = path.Root("flipbook_hash")
		}
		resp.Diagnostics.AddAttributeError(at, "Error Reading Flipbook Statistics",
			dataSourceErrorDetail(fmt.Sprintf("reading the statistics of flipbook %s in collection %s", fb, col), err))
		return
	}
	m.Views, m.TimeSpent, m.Downloads = optionalInt(st.Views), optionalInt(st.TimeSpent), optionalInt(st.Downloads)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
