package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ datasource.DataSource              = (*permissionsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*permissionsDataSource)(nil)
)

func newPermissionsDataSource() datasource.DataSource {
	return &permissionsDataSource{dataSourceBase{objectBase{typeSuffix: "permissions"}}}
}

type permissionsDataSource struct {
	dataSourceBase
}

type permissionsDataSourceModel struct {
	CollectionHash types.String `tfsdk:"collection_hash"`
	Permissions    types.List   `tfsdk:"permissions"`
}

func (d *permissionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The private access list of a published, private collection without a password " +
			"(`collection.getPermissions`), in the order the service saved it. Groups or readers that no longer resolve " +
			"may be left out by the service.",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the collection.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"permissions": schema.ListNestedAttribute{
				MarkdownDescription: "Access rows; empty when none is configured.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"type":  schema.StringAttribute{MarkdownDescription: "`teammate`, `otp` or `sso`.", Computed: true},
						"email": schema.StringAttribute{MarkdownDescription: "The person, for email rows.", Computed: true},
						"group": schema.StringAttribute{MarkdownDescription: "The group, for group rows.", Computed: true},
					},
				},
			},
		},
	}
}

func (d *permissionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m permissionsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hash := m.CollectionHash.ValueString()
	saved, err := d.client.GetPermissions(apiclient.WithFreshRead(ctx), hash)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Error Reading Collection Permissions",
			dataSourceErrorDetail("reading the access list of collection "+hash, err))
		return
	}
	objs := permissionObjects(permissionsFromAPI(saved, nil), &resp.Diagnostics)
	list, diags := types.ListValue(types.ObjectType{AttrTypes: permissionAttrTypes}, objs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Permissions = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
