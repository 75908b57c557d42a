package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*userStatsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*userStatsDataSource)(nil)
)

func newUserStatsDataSource() datasource.DataSource {
	return &userStatsDataSource{dataSourceBase{objectBase{typeSuffix: "user_stats"}}}
}

type userStatsDataSource struct {
	dataSourceBase
}

type userStatsModel struct {
	Impressions    types.Int64 `tfsdk:"impressions"`
	Views          types.Int64 `tfsdk:"views"`
	TimeSpent      types.Int64 `tfsdk:"time_spent"`
	Downloads      types.Int64 `tfsdk:"downloads"`
	APIUploadsLeft types.Int64 `tfsdk:"api_uploads_left"`
}

func (d *userStatsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Statistics of the account the provider's API key belongs to (`user.getStats`), including " +
			"how many uploads (`flipbook_document`) are left this month.",
		Attributes: map[string]schema.Attribute{
			"impressions": schema.Int64Attribute{
				MarkdownDescription: "Player loads.",
				Computed:            true,
			},
			"views": schema.Int64Attribute{
				MarkdownDescription: "Views.",
				Computed:            true,
			},
			"time_spent": schema.Int64Attribute{
				MarkdownDescription: "Total viewing time, in seconds.",
				Computed:            true,
			},
			"downloads": schema.Int64Attribute{
				MarkdownDescription: "Downloads.",
				Computed:            true,
			},
			"api_uploads_left": schema.Int64Attribute{
				MarkdownDescription: "Uploads the monthly quota still allows.",
				Computed:            true,
			},
		},
	}
}

func (d *userStatsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	st, err := d.client.GetUserStats(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Error Reading Account Statistics", "reading the account's statistics", err)
		return
	}
	m := userStatsModel{
		Impressions:    optionalInt(st.Impressions),
		Views:          optionalInt(st.Views),
		TimeSpent:      optionalInt(st.TimeSpent),
		Downloads:      optionalInt(st.Downloads),
		APIUploadsLeft: optionalInt(st.APIUploadsLeft),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
