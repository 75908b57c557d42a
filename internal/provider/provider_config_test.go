package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// These tests change the process environment, so they never run in
// parallel (t.Setenv forbids it).

// clearProviderEnv unsets every FLIPBOOK_ variable the provider reads, for
// the duration of the test.
func clearProviderEnv(t *testing.T) {
	for _, env := range []string{envAPIKey, envAPISecret, envBaseURL, envUploadURL,
		envRequestsPerSecond, envRequestsPerMinute, envMaxRetries, envInsecureHTTP} {
		t.Setenv(env, "")
	}
}

// providerBlock writes a provider block with the given settings, in order.
func providerBlock(settings map[string]string) string {
	var b strings.Builder
	b.WriteString("provider \"flipbook\" {\n")
	for _, k := range []string{"api_key", "api_secret", "base_url", "upload_url", "max_retries", "insecure_http"} {
		if v, ok := settings[k]; ok {
			fmt.Fprintf(&b, "  %s = %s\n", k, v)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func TestAccProviderConfig_missingSetting(t *testing.T) {
	clearProviderEnv(t)
	e := newTestEmulator(t, nil)
	full := map[string]string{
		"api_key": fmt.Sprintf("%q", testAPIKey), "api_secret": fmt.Sprintf("%q", testSecret),
		"base_url": fmt.Sprintf("%q", e.BaseURL), "upload_url": fmt.Sprintf("%q", e.UploadURL),
	}
	var steps []resource.TestStep
	for _, missing := range []struct{ attr, env string }{
		{"api_key", envAPIKey}, {"api_secret", envAPISecret}, {"base_url", envBaseURL}, {"upload_url", envUploadURL},
	} {
		settings := map[string]string{}
		for k, v := range full {
			if k != missing.attr {
				settings[k] = v
			}
		}
		steps = append(steps, resource.TestStep{
			Config: providerBlock(settings) + handbookConfig,
			ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Missing\s+Flipbook\s+Provider\s+Setting.*"%s".*%s`,
				missing.attr, missing.env)),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviderFactories(t), Steps: steps})
	expectNoAPICalls(t, e)
}

// Every setting can come from the environment alone; base_url's missing
// trailing slash is added.
func TestAccProviderConfig_environment(t *testing.T) {
	clearProviderEnv(t)
	e := newTestEmulator(t, nil)
	t.Setenv(envAPIKey, testAPIKey)
	t.Setenv(envAPISecret, testSecret)
	t.Setenv(envBaseURL, strings.TrimSuffix(e.BaseURL, "/"))
	t.Setenv(envUploadURL, e.UploadURL)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { t.Setenv(envMaxRetries, "many") },
				Config:      `provider "flipbook" {}` + handbookConfig,
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+Flipbook\s+Provider\s+Setting.*FLIPBOOK_MAX_RETRIES`),
			},
			{
				// The block wins over the environment: a wrong key in HCL fails
				// although the environment holds the right one.
				PreConfig:   func() { t.Setenv(envMaxRetries, "") },
				Config:      `provider "flipbook" { api_key = "wrong-key" }` + handbookConfig,
				ExpectError: regexp.MustCompile(`code\s+41`),
			},
			{
				Config: `provider "flipbook" {}` + handbookConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(handbookAddr, tfjsonpath.New("title"), knownvalue.StringExact("Handbook")),
				},
			},
		},
	})
}

// Credentials never travel over plain http:// to a host that is not
// loopback, unless insecure_http opts in.
func TestAccProviderConfig_insecureHTTP(t *testing.T) {
	clearProviderEnv(t)
	settings := map[string]string{
		"api_key": fmt.Sprintf("%q", testAPIKey), "api_secret": fmt.Sprintf("%q", testSecret),
		"base_url": `"http://flipbook.invalid/api/v1/"`, "upload_url": `"https://flipbook.invalid/upload/v1/"`,
		"max_retries": "0",
	}
	refused := providerBlock(settings) + handbookConfig
	settings["insecure_http"] = "true"
	allowed := providerBlock(settings) + handbookConfig
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config:      refused,
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+Flipbook\s+Provider\s+Configuration.*base_url.*plain\s+http://.*not\s+loopback`),
			},
			{
				// With the opt-in the provider is configured and tries the call,
				// which fails only because the host does not exist.
				Config:      allowed,
				ExpectError: regexp.MustCompile(`Error\s+Reading\s+Flipbook\s+Collection`),
			},
		},
	})
}

// resolveSettings keeps max_retries unset, 0 and N apart, whether the block
// or the environment sets it, and the block wins over the environment.
func TestResolveSettingsMaxRetries(t *testing.T) {
	base := providerModel{
		APIKey: types.StringValue("k"), APISecret: types.StringValue("s"),
		BaseURL: types.StringValue("https://api.example.com/v1/"), UploadURL: types.StringValue("https://up.example.com/v1/"),
		MaxRetries: types.Int64Null(),
	}
	for _, tt := range []struct {
		name  string
		block types.Int64
		env   string
		want  *int // nil: unset, the client's default
	}{
		{"unset", types.Int64Null(), "", nil},
		{"block 0", types.Int64Value(0), "", new(0)},
		{"block 3", types.Int64Value(3), "", new(3)},
		{"env 0", types.Int64Null(), "0", new(0)},
		{"env 5", types.Int64Null(), "5", new(5)},
		{"block 0 wins over env 5", types.Int64Value(0), "5", new(0)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			cfg.MaxRetries = tt.block
			s, diags := resolveSettings(cfg, func(k string) string {
				if k == envMaxRetries {
					return tt.env
				}
				return ""
			})
			if diags.HasError() {
				t.Fatalf("diagnostics: %v", diags)
			}
			switch {
			case tt.want == nil && s.MaxRetries != nil:
				t.Errorf("max_retries = %d, want unset", *s.MaxRetries)
			case tt.want != nil && (s.MaxRetries == nil || *s.MaxRetries != *tt.want):
				t.Errorf("max_retries = %v, want %d", s.MaxRetries, *tt.want)
			}
			if got := s.clientConfig("ua", &budgetRegistry{}).Retry.MaxRetries; got != s.MaxRetries {
				t.Errorf("the client config's MaxRetries %v is not the setting's %v", got, s.MaxRetries)
			}
		})
	}
}

// A setting not known until apply is reported at its attribute, tuning
// settings included: planning with a guessed client would not be the
// client apply uses.
func TestResolveSettingsUnknown(t *testing.T) {
	base := providerModel{
		APIKey: types.StringValue("k"), APISecret: types.StringValue("s"),
		BaseURL: types.StringValue("https://api.example.com/v1/"), UploadURL: types.StringValue("https://up.example.com/v1/"),
		RequestsPerSecond: types.Int64Null(), RequestsPerMinute: types.Int64Null(),
		MaxRetries: types.Int64Null(), InsecureHTTP: types.BoolNull(),
	}
	for attr, edit := range map[string]func(*providerModel){
		"api_key":             func(m *providerModel) { m.APIKey = types.StringUnknown() },
		"requests_per_second": func(m *providerModel) { m.RequestsPerSecond = types.Int64Unknown() },
		"requests_per_minute": func(m *providerModel) { m.RequestsPerMinute = types.Int64Unknown() },
		"max_retries":         func(m *providerModel) { m.MaxRetries = types.Int64Unknown() },
		"insecure_http":       func(m *providerModel) { m.InsecureHTTP = types.BoolUnknown() },
	} {
		cfg := base
		edit(&cfg)
		_, diags := resolveSettings(cfg, func(string) string { return "" })
		if len(diags) != 1 || diags[0].Summary() != "Unknown Flipbook Provider Setting" || !strings.Contains(diags[0].Detail(), attr) {
			t.Errorf("%s unknown: diagnostics %v, want one Unknown Flipbook Provider Setting naming it", attr, diags)
		}
	}
	if _, diags := resolveSettings(base, func(string) string { return "" }); diags.HasError() {
		t.Errorf("known settings: %v", diags)
	}
}

// resolveSettings fills every setting from the environment, trims the
// strings, and reports each unusable value at its attribute.
func TestResolveSettingsEnvironment(t *testing.T) {
	env := map[string]string{
		envAPIKey: " k ", envAPISecret: "s", envBaseURL: "https://api.example.com/v1", envUploadURL: "https://up.example.com/v1/",
		envRequestsPerSecond: "3", envRequestsPerMinute: "100", envInsecureHTTP: "true",
	}
	null := providerModel{
		APIKey: types.StringNull(), APISecret: types.StringNull(), BaseURL: types.StringNull(), UploadURL: types.StringNull(),
		RequestsPerSecond: types.Int64Null(), RequestsPerMinute: types.Int64Null(), MaxRetries: types.Int64Null(), InsecureHTTP: types.BoolNull(),
	}
	s, diags := resolveSettings(null, func(k string) string { return env[k] })
	if diags.HasError() {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := providerSettings{APIKey: "k", APISecret: "s", BaseURL: "https://api.example.com/v1", UploadURL: "https://up.example.com/v1/",
		RequestsPerSecond: 3, RequestsPerMinute: 100, InsecureHTTP: true}
	if s != want {
		t.Errorf("settings %+v, want %+v", s, want)
	}

	env = map[string]string{envRequestsPerMinute: "-1", envMaxRetries: "many", envInsecureHTTP: "yes please"}
	_, diags = resolveSettings(null, func(k string) string { return env[k] })
	var got []string
	for _, d := range diags.Errors() {
		where := "no path"
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			where = dp.Path().String()
		}
		got = append(got, d.Summary()+" at "+where)
	}
	wantDiags := []string{
		"Missing Flipbook Provider Setting at api_key", "Missing Flipbook Provider Setting at api_secret",
		"Missing Flipbook Provider Setting at base_url", "Missing Flipbook Provider Setting at upload_url",
		"Invalid Flipbook Provider Setting at requests_per_minute", "Invalid Flipbook Provider Setting at max_retries",
		"Invalid Flipbook Provider Setting at insecure_http",
	}
	if strings.Join(got, "\n") != strings.Join(wantDiags, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantDiags, "\n"))
	}
}
