package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccProvider_logsNeverShowCredentials runs a create of every kind of
// call (a signed GET, a form POST, a multipart upload, and waits) with the
// provider logging at TRACE, and reads the whole log back: the API calls are
// there, the secret, the key and any signature are not.
func TestAccProvider_logsNeverShowCredentials(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	logDir := t.TempDir()
	// Not parallel: the log settings are process environment.
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logDir, "%s.log"))

	// The test framework logs each step's configuration: the credentials come
	// from the environment so that only what the provider logs is judged.
	t.Setenv(envAPIKey, testAPIKey)
	t.Setenv(envAPISecret, testSecret)

	e := newTestEmulator(t, nil)
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "manual.pdf", 2)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "flipbook" {
  base_url   = %q
  upload_url = %q
}
resource "flipbook_template_collection" "t" {
  title    = "Log check"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}
resource "flipbook_document" "d" {
  collection_hash = flipbook_template_collection.t.id
  file            = %q
}
resource "flipbook_collection_permissions" "p" {
  collection_hash = "col-private"
  permissions     = [{ type = "teammate", group = "Sales" }]
}
`, e.BaseURL, e.UploadURL, pdf),
		}},
	})

	var logs strings.Builder
	files, _ := filepath.Glob(filepath.Join(logDir, "*.log"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		logs.Write(b)
	}
	text := logs.String()
	for _, action := range []string{"collection.createFromTemplate", "flipbook.add", "collection.setPermissions", "collection.getCollection"} {
		if !strings.Contains(text, action) {
			t.Fatalf("the TRACE log (%d bytes in %d files) has no line for %s, so it proves nothing about what it hides", len(text), len(files), action)
		}
	}
	for _, secret := range []string{testSecret, testAPIKey} {
		if n := strings.Count(text, secret); n > 0 {
			t.Errorf("the log shows %q %d times", secret, n)
		}
	}
	if m := regexp.MustCompile(`signature[^a-zA-Z]{1,6}[0-9a-f]{32}`).FindString(text); m != "" {
		t.Errorf("the log shows a signature: %q", m)
	}
}
