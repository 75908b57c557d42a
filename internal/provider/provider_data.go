package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// providerData is built once in Configure and handed to every object, so that
// all of them share one client and one request budget.
type providerData struct {
	client *apiclient.Client
}

// clientFrom checks the provider data's type instead of panicking on it. Nil
// data (validation before Configure ran) yields a nil client and no error.
func clientFrom(data any, diags *diag.Diagnostics) *apiclient.Client {
	if data == nil {
		return nil
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data Type",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return pd.client
}

// dataSourceBase is resourceBase for data sources.
type dataSourceBase struct {
	typeSuffix string
	client     *apiclient.Client
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.typeSuffix
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// ephemeralBase is resourceBase for ephemeral resources.
type ephemeralBase struct {
	typeSuffix string
	client     *apiclient.Client
}

func (b *ephemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.typeSuffix
}

func (b *ephemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// actionBase is resourceBase for actions.
type actionBase struct {
	typeSuffix string
	client     *apiclient.Client
}

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.typeSuffix
}

func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}
