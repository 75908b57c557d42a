package provider

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Rules the spec does not state warn, on the attribute, and never refuse.
func TestGuessValidatorsOnlyWarn(t *testing.T) {
	p := path.Root("x")
	var s validator.StringResponse
	guessString{}.ValidateString(t.Context(), validator.StringRequest{Path: p, ConfigValue: types.StringValue("")}, &s)
	var l validator.ListResponse
	emptyListWarning("why").ValidateList(t.Context(), validator.ListRequest{Path: p, ConfigValue: types.ListValueMust(types.StringType, nil)}, &l)
	var i validator.Int64Response
	int64Warning(0, "why").ValidateInt64(t.Context(), validator.Int64Request{Path: p, ConfigValue: types.Int64Value(-1)}, &i)
	var f validator.Float64Response
	float64Warning(1, "why").ValidateFloat64(t.Context(), validator.Float64Request{Path: p, ConfigValue: types.Float64Value(0.5)}, &f)
	var u validator.StringResponse
	urlWarning{}.ValidateString(t.Context(), validator.StringRequest{Path: p, ConfigValue: types.StringValue("ftp://example.com/a.pdf")}, &u)
	for name, d := range map[string]diag.Diagnostics{"string": s.Diagnostics, "list": l.Diagnostics, "int64": i.Diagnostics,
		"float64": f.Diagnostics, "url": u.Diagnostics} {
		if got := errorPaths(d); !reflect.DeepEqual(got, []string{"warning: x"}) {
			t.Errorf("%s: diagnostics at %q, want one warning at x", name, got)
		}
	}
	// Values within the guess are silent.
	s = validator.StringResponse{}
	guessString{}.ValidateString(t.Context(), validator.StringRequest{Path: p, ConfigValue: types.StringValue("a")}, &s)
	u = validator.StringResponse{}
	urlWarning{}.ValidateString(t.Context(), validator.StringRequest{Path: p, ConfigValue: types.StringValue("https://example.com/a.pdf")}, &u)
	f = validator.Float64Response{}
	float64Warning(1, "why").ValidateFloat64(t.Context(), validator.Float64Request{Path: p, ConfigValue: types.Float64Value(1.5)}, &f)
	if len(s.Diagnostics)+len(u.Diagnostics)+len(f.Diagnostics) != 0 {
		t.Errorf("warnings for values within the guess: %v %v %v", s.Diagnostics, u.Diagnostics, f.Diagnostics)
	}
}
