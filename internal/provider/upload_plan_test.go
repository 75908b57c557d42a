package provider

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// recordSentSHA256 fills in a hash unknown at plan, accepts the planned one,
// and reports any other on file with both hashes, keeping what was sent.
func TestRecordSentSHA256(t *testing.T) {
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 2)
	sent := sha256Hex(t, pdf)
	const planned = "0000000000000000000000000000000000000000000000000000000000000000"
	cases := []struct {
		name      string
		sha       types.String
		wantError bool
	}{
		{"unknown at plan", types.StringUnknown(), false},
		{"as planned", types.StringValue(sent), false},
		{"changed during upload", types.StringValue(planned), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			up := openPlannedUpload(types.StringValue(pdf), types.StringUnknown(), documentFile, &diags)
			if up == nil {
				t.Fatal(diags)
			}
			defer up.Close()
			if _, err := io.Copy(io.Discard, up.Upload.Body); err != nil {
				t.Fatal(err)
			}
			sha := c.sha
			recordSentSHA256(up, &sha, "Apply again.", &diags)
			if sha.ValueString() != sent {
				t.Errorf("recorded %s, want the sent %s", sha, sent)
			}
			if !c.wantError {
				if diags.HasError() {
					t.Fatal(diags)
				}
				return
			}
			if diags.ErrorsCount() != 1 {
				t.Fatalf("want one error, got %v", diags)
			}
			e := diags.Errors()[0]
			for _, want := range []string{pdf, sent, planned, "Apply again."} {
				if !strings.Contains(e.Detail(), want) {
					t.Errorf("error %q does not mention %q", e.Detail(), want)
				}
			}
			if at, ok := e.(diag.DiagnosticWithPath); !ok || !at.Path().Equal(path.Root("file")) {
				t.Errorf("error is not on file: %v", e)
			}
		})
	}
}

// A file that no longer has its planned hash is refused on file before any
// byte is sent.
func TestOpenPlannedUploadRefusesChangedFile(t *testing.T) {
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 2)
	var diags diag.Diagnostics
	up := openPlannedUpload(types.StringValue(pdf), types.StringValue(strings.Repeat("0", 64)), documentFile, &diags)
	if up != nil {
		up.Close()
		t.Fatal("a changed file was opened for upload")
	}
	if diags.ErrorsCount() != 1 || diags.Errors()[0].Summary() != "File Changed Since Plan" {
		t.Fatalf("want File Changed Since Plan, got %v", diags)
	}
}

// throttlingUploadProxy serves the emulator's upload endpoint, turning on the
// emulator's rate_limit fault for the first upload of each action, so that
// attempt is refused with 31 or 32 after its file was read. It returns the
// proxy's upload_url. Requests are served one at a time, so the fault is on
// for exactly that one upload (a concurrent non-upload call may meet it too,
// and is retried like any throttled call).
func throttlingUploadProxy(t *testing.T, emu *testEmulator) string {
	t.Helper()
	h := emu.Emulator.Handler()
	var mu sync.Mutex
	throttled := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		// The action is a multipart field: peek at it without consuming the body.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		action := ""
		for _, a := range []string{apiclient.ActionAddFlipbook, apiclient.ActionSetLogo} {
			if bytes.Contains(body, []byte("\r\n\r\n"+a+"\r\n")) {
				action = a
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if action == "" || throttled[action] {
			h.ServeHTTP(w, r)
			return
		}
		throttled[action] = true
		if err := emu.Emulator.SetFaults(1, []string{"rate_limit"}); err != nil {
			t.Error(err)
		}
		h.ServeHTTP(w, r)
		if err := emu.Emulator.SetFaults(0, nil); err != nil {
			t.Error(err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/upload/v1/"
}

// A throttled upload is sent again from the start of the file: the apply
// succeeds with one upload each, and the hash recorded is the whole file's.
func TestAccUpload_throttledUploadRetried(t *testing.T) {
	emu := newTestEmulator(t, nil)
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "doc.pdf", 2)
	logo := writeTestPNG(t, dir, "logo.png", 8, 8, color.RGBA{G: 255, A: 255})
	uploadURL := throttlingUploadProxy(t, emu)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: testProviderConfig(emu.BaseURL, uploadURL, "") + fmt.Sprintf(`
resource "flipbook_document" "test" {
  collection_hash = "col-private"
  file            = %q
}
resource "flipbook_collection_logo" "test" {
  collection_hash = "col-private"
  file            = %q
}
`, pdf, logo),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("flipbook_document.test", tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, pdf))),
				statecheck.ExpectKnownValue("flipbook_document.test", tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue("flipbook_collection_logo.test", tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, logo))),
			},
			Check: func(*terraform.State) error {
				reqs := emu.Emulator.Requests()
				for _, action := range []string{apiclient.ActionAddFlipbook, apiclient.ActionSetLogo} {
					calls := reqs[action]
					if calls["31"]+calls["32"] == 0 {
						return fmt.Errorf("%s was never throttled (%v): the test proves nothing", action, calls)
					}
					if calls["20"] != 1 {
						return fmt.Errorf("%s succeeded %d times (%v), want exactly once", action, calls["20"], calls)
					}
				}
				return nil
			},
		}},
	})
}
