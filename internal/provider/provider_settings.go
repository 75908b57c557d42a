package provider

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
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

// providerModel is the provider block as Terraform hands it over.
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

// providerSettings is the provider block with the environment filled in:
// every value the API client is built from, each in its own typed field.
type providerSettings struct {
	APIKey    string
	APISecret string
	BaseURL   string
	UploadURL string
	// 0 means no client-side limit.
	RequestsPerSecond int
	RequestsPerMinute int
	// MaxRetries is nil when neither the block nor the environment sets it
	// (the client's default applies); a set 0 means no retries.
	MaxRetries   *int
	InsecureHTTP bool
}

// resolveSettings reads each setting from the block, else from the
// environment through getenv. An attribute set in the block always wins.
// It reports every unusable setting at once, at its attribute path.
func resolveSettings(cfg providerModel, getenv func(string) string) (providerSettings, diag.Diagnostics) {
	var s providerSettings
	var diags diag.Diagnostics
	strs := []struct {
		attr, env string
		value     types.String
		into      *string
	}{
		{"api_key", envAPIKey, cfg.APIKey, &s.APIKey},
		{"api_secret", envAPISecret, cfg.APISecret, &s.APISecret},
		{"base_url", envBaseURL, cfg.BaseURL, &s.BaseURL},
		{"upload_url", envUploadURL, cfg.UploadURL, &s.UploadURL},
	}
	for _, str := range strs {
		if str.value.IsUnknown() {
			addUnknownSetting(&diags, str.attr, str.env)
		}
	}
	// Tuning settings too: guessing one (a default, or the environment)
	// would plan with a client that apply does not use.
	for _, u := range []struct {
		unknown   bool
		attr, env string
	}{
		{cfg.RequestsPerSecond.IsUnknown(), "requests_per_second", envRequestsPerSecond},
		{cfg.RequestsPerMinute.IsUnknown(), "requests_per_minute", envRequestsPerMinute},
		{cfg.MaxRetries.IsUnknown(), "max_retries", envMaxRetries},
		{cfg.InsecureHTTP.IsUnknown(), "insecure_http", envInsecureHTTP},
	} {
		if u.unknown {
			addUnknownSetting(&diags, u.attr, u.env)
		}
	}
	if diags.HasError() {
		return s, diags
	}
	for _, str := range strs {
		v := str.value.ValueString()
		if str.value.IsNull() {
			v = getenv(str.env)
		}
		*str.into = strings.TrimSpace(v)
		if *str.into == "" {
			diags.AddAttributeError(path.Root(str.attr), "Missing Flipbook Provider Setting",
				fmt.Sprintf("The provider needs %q to reach the Flipbook API, and it is set neither in the provider block nor in the %s environment variable. "+
					"Set one of them.", str.attr, str.env))
		}
	}

	if n := intSetting(cfg.RequestsPerSecond, "requests_per_second", envRequestsPerSecond, getenv, &diags); n != nil {
		s.RequestsPerSecond = *n
	}
	if n := intSetting(cfg.RequestsPerMinute, "requests_per_minute", envRequestsPerMinute, getenv, &diags); n != nil {
		s.RequestsPerMinute = *n
	}
	s.MaxRetries = intSetting(cfg.MaxRetries, "max_retries", envMaxRetries, getenv, &diags)
	s.InsecureHTTP = boolSetting(cfg.InsecureHTTP, "insecure_http", envInsecureHTTP, getenv, &diags)
	return s, diags
}

func addUnknownSetting(diags *diag.Diagnostics, attr, env string) {
	diags.AddAttributeError(path.Root(attr), "Unknown Flipbook Provider Setting",
		fmt.Sprintf("The provider cannot build its API client because %q depends on a value that is not known until apply. "+
			"Set it to a literal or a variable, or set %s in the environment.", attr, env))
}

// intSetting is a whole-number setting from the block, else the
// environment; nil when neither sets it (or the environment's value is not
// a number, which is reported).
func intSetting(v types.Int64, attr, env string, getenv func(string) string, diags *diag.Diagnostics) *int {
	if !v.IsNull() && !v.IsUnknown() {
		n := int(v.ValueInt64())
		return &n
	}
	raw := getenv(env)
	if raw == "" {
		return nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		diags.AddAttributeError(path.Root(attr), "Invalid Flipbook Provider Setting",
			fmt.Sprintf("%s must be a whole number of at least 0, got %q. Set it to such a number, or unset it.", env, raw))
		return nil
	}
	return &n
}

// boolSetting is a true/false setting from the block, else the
// environment; false when neither sets it.
func boolSetting(v types.Bool, attr, env string, getenv func(string) string, diags *diag.Diagnostics) bool {
	if !v.IsNull() {
		return v.ValueBool()
	}
	raw := getenv(env)
	if raw == "" {
		return false
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		diags.AddAttributeError(path.Root(attr), "Invalid Flipbook Provider Setting",
			fmt.Sprintf("%s must be true or false, got %q. Set it to true or false, or unset it.", env, raw))
	}
	return b
}

// clientConfig is the API client's configuration for these settings, its
// request budget drawn from budgets.
func (s providerSettings) clientConfig(userAgent string, budgets *budgetRegistry) apiclient.Config {
	return apiclient.Config{
		BaseURL:           s.BaseURL,
		UploadURL:         s.UploadURL,
		APIKey:            s.APIKey,
		Secret:            s.APISecret,
		UserAgent:         userAgent,
		Budget:            budgets.budget(budgetKey{s.BaseURL, s.APIKey, s.RequestsPerSecond, s.RequestsPerMinute}),
		Retry:             apiclient.RetryPolicy{MaxRetries: s.MaxRetries},
		AllowInsecureHTTP: s.InsecureHTTP,
		Logger:            newTFLogger(s.APIKey, s.APISecret),
		ViewTTL:           apiclient.DefaultViewTTL, // a client per graph walk: its views never outlive an operation
	}
}

// logFields are the settings safe to log: no key, no secret.
func (s providerSettings) logFields() map[string]any {
	retries := apiclient.DefaultMaxRetries
	if s.MaxRetries != nil {
		retries = *s.MaxRetries
	}
	return map[string]any{
		"base_url": s.BaseURL, "upload_url": s.UploadURL,
		"requests_per_second": s.RequestsPerSecond, "requests_per_minute": s.RequestsPerMinute,
		"max_retries": retries, "insecure_http": s.InsecureHTTP,
	}
}
