package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestFolderProblems(t *testing.T) {
	valid := []string{"", "Marketing", "Marketing/2026/Spring", "My Folder 2/a", "9"}
	for _, f := range valid {
		if p := folderProblems(f); len(p) != 0 {
			t.Errorf("folder %q: unexpected problems %q", f, p)
		}
	}
	invalid := map[string]int{
		"/Marketing":   1, // leading slash
		"Marketing/":   1, // trailing slash
		"a/b/c/d":      1, // four levels
		"a//b":         1, // empty level
		"Sales_2026":   1, // underscore
		"Sales ":       1, // ends with a space
		" Sales":       1, // begins with a space
		"Ventes/Été":   1, // non-English letters
		"/a//b/c/d/":   3, // slashes, depth, empty level
		"x/-y-/z w/ab": 2, // depth and a bad name
	}
	for f, n := range invalid {
		if p := folderProblems(f); len(p) != n {
			t.Errorf("folder %q: got %d problems %q, want %d", f, len(p), p, n)
		}
	}
}

func TestFolderValidator(t *testing.T) {
	var resp validator.StringResponse
	folderValidator{}.ValidateString(t.Context(), validator.StringRequest{
		Path: path.Root("folder"), ConfigValue: types.StringValue("/a//b/c/d/"),
	}, &resp)
	if got := errorPaths(resp.Diagnostics); len(got) != 3 || got[0] != "folder" {
		t.Errorf("errors at %q, want three at folder", got)
	}
	resp = validator.StringResponse{}
	folderValidator{}.ValidateString(t.Context(), validator.StringRequest{
		Path: path.Root("folder"), ConfigValue: types.StringUnknown(),
	}, &resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("unknown folder: %v", resp.Diagnostics)
	}
}
