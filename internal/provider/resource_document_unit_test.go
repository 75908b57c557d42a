package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestSourceReplacePaths(t *testing.T) {
	s, null, unknown := types.StringValue, types.StringNull(), types.StringUnknown()
	cases := []struct {
		name                                       string
		stFile, stURL, stSHA, plFile, plURL, plSHA types.String
		want                                       path.Paths
	}{
		{"unchanged", s("a.pdf"), null, s("h1"), s("a.pdf"), null, s("h1"), nil},
		{"moved, same content", s("a.pdf"), null, s("h1"), s("b.pdf"), null, s("h1"), nil},
		{"new content", s("a.pdf"), null, s("h1"), s("a.pdf"), null, s("h2"), path.Paths{path.Root("file_sha256")}},
		{"path unknown at plan", s("a.pdf"), null, s("h1"), unknown, null, unknown, path.Paths{path.Root("file_sha256")}},
		{"file to url", s("a.pdf"), null, s("h1"), null, s("https://x/a.pdf"), null,
			path.Paths{path.Root("file"), path.Root("file_url"), path.Root("file_sha256")}},
		{"other url", null, s("https://x/a.pdf"), null, null, s("https://x/b.pdf"), null, path.Paths{path.Root("file_url")}},
		{"imported adopts anything", null, null, null, s("a.pdf"), null, s("h1"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sourceReplacePaths(c.stFile, c.stURL, c.stSHA, c.plFile, c.plURL, c.plSHA)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if !got[i].Equal(c.want[i]) {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}
