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

// objectBase is what the base of every kind of object holds: its type name
// after the provider's, and the client Configure hands it. The kinds' bases
// (resourceBase in resource_base.go, and the three below) embed it and add
// the Metadata and Configure of their kind, whose request types differ.
type objectBase struct {
	typeSuffix string
	client     *apiclient.Client
}

// typeNameIn is the object's type name in the provider named provider.
func (b *objectBase) typeNameIn(provider string) string { return provider + "_" + b.typeSuffix }

// configure takes the client from the provider data.
func (b *objectBase) configure(data any, diags *diag.Diagnostics) { b.client = clientFrom(data, diags) }

// dataSourceBase is objectBase for data sources.
type dataSourceBase struct{ objectBase }

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = b.typeNameIn(req.ProviderTypeName)
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// ephemeralBase is objectBase for ephemeral resources.
type ephemeralBase struct{ objectBase }

func (b *ephemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = b.typeNameIn(req.ProviderTypeName)
}

func (b *ephemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// actionBase is objectBase for actions.
type actionBase struct{ objectBase }

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = b.typeNameIn(req.ProviderTypeName)
}

func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}
