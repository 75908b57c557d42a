package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

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
		"api_key": `"demo-key"`, "api_secret": `"demo-secret"`,
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
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	expectNoAPICalls(t, e)
}

// Every setting can come from the environment alone; base_url's missing
// trailing slash is added.
func TestAccProviderConfig_environment(t *testing.T) {
	clearProviderEnv(t)
	e := newTestEmulator(t, nil)
	t.Setenv(envAPIKey, "demo-key")
	t.Setenv(envAPISecret, "demo-secret")
	t.Setenv(envBaseURL, strings.TrimSuffix(e.BaseURL, "/"))
	t.Setenv(envUploadURL, e.UploadURL)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
		"api_key": `"demo-key"`, "api_secret": `"demo-secret"`,
		"base_url": `"http://flipbook.invalid/api/v1/"`, "upload_url": `"https://flipbook.invalid/upload/v1/"`,
		"max_retries": "0",
	}
	refused := providerBlock(settings) + handbookConfig
	settings["insecure_http"] = "true"
	allowed := providerBlock(settings) + handbookConfig
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
