package provider

import (
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
