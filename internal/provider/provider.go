// Package provider implements the flipbook Terraform provider over
// internal/apiclient.
package provider

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ provider.Provider                       = (*flipbookProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*flipbookProvider)(nil)
	_ provider.ProviderWithActions            = (*flipbookProvider)(nil)
)

// New returns the provider factory for the given release version. Its
// providers share the process's request budgets (processBudgets).
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &flipbookProvider{version: version, budgets: processBudgets} }
}

type flipbookProvider struct {
	version string
	budgets *budgetRegistry
}

func (p *flipbookProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "flipbook"
	resp.Version = p.version
}

func (p *flipbookProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	// Not API input but the provider's own settings: a negative rate or retry count has no meaning.
	nonNegative := []validator.Int64{int64validator.AtLeast(0)}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages flipbook collections, catalogs, access lists, logos and documents through the " +
			"Flipbook Publishing API. Every setting falls back to an environment variable when absent.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key that identifies the account. Falls back to `" + envAPIKey + "`.",
				Optional:            true,
			},
			"api_secret": schema.StringAttribute{
				MarkdownDescription: "Secret that signs every request; it is never sent, logged or stored. Falls back to `" + envAPISecret + "`.",
				Optional:            true,
				Sensitive:           true,
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The API's `{base_url}`, ending in `/v1/` (a missing trailing slash is added). Falls back to `" + envBaseURL + "`.",
				Optional:            true,
			},
			"upload_url": schema.StringAttribute{
				MarkdownDescription: "The API's `{upload_url}` for file uploads, ending in `/v1/`. Falls back to `" + envUploadURL + "`.",
				Optional:            true,
			},
			"requests_per_second": schema.Int64Attribute{
				MarkdownDescription: "Client-side budget of requests per second, shared by every resource of this provider instance: an upper bound. " +
					"`0` or unset means none stated; either way the provider learns the account's limit from the service's throttles (code 31). " +
					"Falls back to `" + envRequestsPerSecond + "`.",
				Optional:   true,
				Validators: nonNegative,
			},
			"requests_per_minute": schema.Int64Attribute{
				MarkdownDescription: "Client-side budget of requests per minute, shared like `requests_per_second` and learned the same way from code 32. " +
					"Falls back to `" + envRequestsPerMinute + "`.",
				Optional:   true,
				Validators: nonNegative,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a throttled call (codes 31, 32), or a read that met a transport failure, is retried with jittered exponential backoff. Defaults to 8. Falls back to `" + envMaxRetries + "`.",
				Optional:            true,
				Validators:          nonNegative,
			},
			"insecure_http": schema.BoolAttribute{
				MarkdownDescription: "Allow plain `http://` to a host that is not a loopback address. Credentials and signatures then cross the network unencrypted; leave unset unless you know the network is private. Falls back to `" + envInsecureHTTP + "`.",
				Optional:            true,
			},
		},
	}
}

// Configure resolves the settings, builds the API client and hands it to
// every object.
func (p *flipbookProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	settings, diags := resolveSettings(cfg, os.Getenv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	userAgent := fmt.Sprintf("terraform-provider-flipbook/%s Terraform/%s", p.version, req.TerraformVersion)
	client, err := apiclient.New(settings.clientConfig(userAgent, p.budgets))
	if err != nil {
		resp.Diagnostics.AddError("Invalid Flipbook Provider Configuration",
			"The provider could not build its API client: "+err.Error()+". Check base_url, upload_url and insecure_http.")
		return
	}
	tflog.Debug(ctx, "flipbook provider configured", settings.logFields())

	data := &providerData{client: client}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
}

func (p *flipbookProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newTemplateCollectionResource,
		newCatalogResource,
		newCollectionPermissionsResource,
		newCollectionLogoResource,
		newDocumentResource,
		newCollectionBackgroundResource,
	}
}

func (p *flipbookProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newCollectionDataSource,
		newEmbedDataSource,
		newStatsDataSource,
		newUserStatsDataSource,
		newPermissionsDataSource,
	}
}

func (p *flipbookProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		newHTMLPackageEphemeral,
	}
}

// Actions need Terraform 1.14 or later; older versions never see them.
func (p *flipbookProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		newHTMLPackageDownloadAction,
	}
}
