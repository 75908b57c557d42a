// Package provider implements the flipbook Terraform provider over
// internal/apiclient.
package provider

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ provider.Provider                       = (*flipbookProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*flipbookProvider)(nil)
	_ provider.ProviderWithActions            = (*flipbookProvider)(nil)
)

// Environment variables read when a setting is absent from the configuration.
const (
	envAPIKey            = "FLIPBOOK_API_KEY"
	envAPISecret         = "FLIPBOOK_API_SECRET"
	envBaseURL           = "FLIPBOOK_BASE_URL"
	envUploadURL         = "FLIPBOOK_UPLOAD_URL"
	envRequestsPerSecond = "FLIPBOOK_REQUESTS_PER_SECOND"
	envRequestsPerMinute = "FLIPBOOK_REQUESTS_PER_MINUTE"
	envMaxRetries        = "FLIPBOOK_MAX_RETRIES"
	envInsecureHTTP      = "FLIPBOOK_INSECURE_HTTP"
)

// New returns the provider factory for the given release version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &flipbookProvider{version: version} }
}

type flipbookProvider struct {
	version string
}

type providerModel struct {
	APIKey            types.String `tfsdk:"api_key"`
	APISecret         types.String `tfsdk:"api_secret"`
	BaseURL           types.String `tfsdk:"base_url"`
	UploadURL         types.String `tfsdk:"upload_url"`
	RequestsPerSecond types.Int64  `tfsdk:"requests_per_second"`
	RequestsPerMinute types.Int64  `tfsdk:"requests_per_minute"`
	MaxRetries        types.Int64  `tfsdk:"max_retries"`
	InsecureHTTP      types.Bool   `tfsdk:"insecure_http"`
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

// setting resolves one string setting from configuration, then environment.
type setting struct {
	attr, env string
	value     types.String
}

func (s setting) resolve() string {
	if !s.value.IsNull() && !s.value.IsUnknown() {
		return s.value.ValueString()
	}
	return os.Getenv(s.env)
}

func (p *flipbookProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	strs := []setting{
		{"api_key", envAPIKey, cfg.APIKey},
		{"api_secret", envAPISecret, cfg.APISecret},
		{"base_url", envBaseURL, cfg.BaseURL},
		{"upload_url", envUploadURL, cfg.UploadURL},
	}
	for _, s := range strs {
		if s.value.IsUnknown() {
			resp.Diagnostics.AddAttributeError(path.Root(s.attr), "Unknown Flipbook Provider Setting",
				fmt.Sprintf("The provider cannot build its API client because %q depends on a value that is not known until apply. "+
					"Set it to a literal or a variable, or set %s in the environment.", s.attr, s.env))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	values := map[string]string{}
	for _, s := range strs {
		values[s.attr] = strings.TrimSpace(s.resolve())
		if values[s.attr] == "" {
			resp.Diagnostics.AddAttributeError(path.Root(s.attr), "Missing Flipbook Provider Setting",
				fmt.Sprintf("The provider needs %q to reach the Flipbook API, and it is set neither in the provider block nor in the %s environment variable. "+
					"Set one of them.", s.attr, s.env))
		}
	}

	rps := p.intSetting(cfg.RequestsPerSecond, "requests_per_second", envRequestsPerSecond, &resp.Diagnostics)
	rpm := p.intSetting(cfg.RequestsPerMinute, "requests_per_minute", envRequestsPerMinute, &resp.Diagnostics)
	retries := p.intSetting(cfg.MaxRetries, "max_retries", envMaxRetries, &resp.Diagnostics)
	insecure := cfg.InsecureHTTP.ValueBool()
	if cfg.InsecureHTTP.IsNull() {
		if v := os.Getenv(envInsecureHTTP); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("insecure_http"), "Invalid Flipbook Provider Setting",
					fmt.Sprintf("%s must be true or false, got %q. Set it to true or false, or unset it.", envInsecureHTTP, v))
			}
			insecure = b
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	maxRetries := int(retries)
	if !cfg.MaxRetries.IsNull() || os.Getenv(envMaxRetries) != "" {
		if maxRetries == 0 {
			maxRetries = -1 // an explicit 0 means no retries; the client reads 0 as its default
		}
	}

	client, err := apiclient.New(apiclient.Config{
		BaseURL:           values["base_url"],
		UploadURL:         values["upload_url"],
		APIKey:            values["api_key"],
		Secret:            values["api_secret"],
		UserAgent:         fmt.Sprintf("terraform-provider-flipbook/%s Terraform/%s", p.version, req.TerraformVersion),
		Budget:            sharedBudget(values["base_url"], values["api_key"], int(rps), int(rpm)),
		Retry:             apiclient.RetryPolicy{MaxRetries: maxRetries},
		AllowInsecureHTTP: insecure,
		Logger:            newTFLogger(values["api_key"], values["api_secret"]),
	})
	if err != nil {
		resp.Diagnostics.AddError("Invalid Flipbook Provider Configuration",
			"The provider could not build its API client: "+err.Error()+". Check base_url, upload_url and insecure_http.")
		return
	}
	tflog.Debug(ctx, "flipbook provider configured", map[string]any{
		"base_url": values["base_url"], "upload_url": values["upload_url"],
		"requests_per_second": rps, "requests_per_minute": rpm, "max_retries": maxRetries,
	})

	data := &providerData{client: client}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
}

func (p *flipbookProvider) intSetting(v types.Int64, attr, env string, diags *diag.Diagnostics) int64 {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueInt64()
	}
	s := os.Getenv(env)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		diags.AddAttributeError(path.Root(attr), "Invalid Flipbook Provider Setting",
			fmt.Sprintf("%s must be a whole number of at least 0, got %q. Set it to such a number, or unset it.", env, s))
		return 0
	}
	return n
}

var (
	budgetsMu sync.Mutex
	budgets   = map[string]*apiclient.Budget{}
)

// sharedBudget returns one budget per account, endpoint and limits for the
// life of the plugin process. Terraform configures the provider afresh for
// every graph walk (plan, apply, refresh); a budget per Configure would let
// one walk's burst land right after the previous walk's and meet the
// service's limit.
func sharedBudget(baseURL, apiKey string, perSecond, perMinute int) *apiclient.Budget {
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%d", baseURL, apiKey, perSecond, perMinute)
	budgetsMu.Lock()
	defer budgetsMu.Unlock()
	b, ok := budgets[key]
	if !ok {
		b = apiclient.NewBudget(perSecond, perMinute)
		budgets[key] = b
	}
	return b
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
