package provider

import (
	"errors"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

func TestAnswerPath(t *testing.T) {
	cases := []struct {
		api     string
		catalog bool
		want    string
	}{
		{"folder", false, "folder"},
		{"sections", false, "sections"},
		{"sections[1].templates[0].templateHash", false, "sections[1].templates[0].template_hash"},
		{"sections[0].templates[2].templatePages[1]", false, "sections[0].templates[2].pages[1]"},
		{"sections[0].elements[3].value", false, "sections[0].elements[3]"},
		{"sections[0].pageCount", false, "sections[0].page_count"},
		{"sections[0].templates[0].templateHash", true, "sections[0].template_hash"},
		{"sections[2].filters[0].conditions[1].operator", true, "sections[2].filters[0].conditions[1].operator"},
		{"sections[0].sortBy[1].order", true, "sections[0].sort_by[1]"},
		{"sections[0].sources[0].sourceHash", true, "sections[0].sources[0]"},
	}
	for _, tc := range cases {
		got, ok := answerPath(tc.api, tc.catalog)
		if !ok || got.String() != tc.want {
			t.Errorf("answerPath(%q, %v) = %q, %v; want %q", tc.api, tc.catalog, got, ok, tc.want)
		}
	}
	if _, ok := answerPath("somethingElse[0]", false); ok {
		t.Error("an unknown field was placed")
	}
}

func TestAddAnswerErrorsPlacesEachMessage(t *testing.T) {
	err := &apiclient.APIError{Action: "collection.getEmbed", Code: 40, Status: "Bad Request", Message: "Invalid embed parameters",
		Errors: []string{"width: must be a number", "startPage: must be a number", "something else went wrong"}}
	if !placeableAnswer(err, false) {
		t.Fatal("an answer naming width was not placeable")
	}
	var diags diag.Diagnostics
	addAnswerErrors(&diags, "Error Reading Embed Code", "reading", err, false)
	if got := errorPaths(diags); !reflect.DeepEqual(got, []string{"<no path>", "start_page", "width"}) {
		t.Errorf("errors at %q", got)
	}
	if placeableAnswer(&apiclient.APIError{Code: 46}, false) || placeableAnswer(errors.New("network"), false) {
		t.Error("an answer without field paths was placeable")
	}
}
