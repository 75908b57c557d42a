package planmodifiers

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var rowType = types.ObjectType{AttrTypes: map[string]attr.Type{"email": types.StringType, "group": types.StringType}}

// row is one element; "" means null, "?" unknown.
func row(t *testing.T, email, group string) attr.Value {
	t.Helper()
	str := func(s string) types.String {
		switch s {
		case "":
			return types.StringNull()
		case "?":
			return types.StringUnknown()
		}
		return types.StringValue(s)
	}
	v, d := types.ObjectValue(rowType.AttrTypes, map[string]attr.Value{"email": str(email), "group": str(group)})
	if d.HasError() {
		t.Fatal(d)
	}
	return v
}

func set(t *testing.T, rows ...attr.Value) types.Set {
	t.Helper()
	v, d := types.SetValue(rowType, rows)
	if d.HasError() {
		t.Fatal(d)
	}
	return v
}

func TestSetIgnoringCaseOf(t *testing.T) {
	ana, anaUpper := row(t, "ana@example.com", ""), row(t, "Ana@Example.COM", "")
	sales := row(t, "", "Sales")
	cases := []struct {
		name        string
		state, plan types.Set
		keepState   bool
	}{
		{"email case only", set(t, ana, sales), set(t, anaUpper, sales), true},
		{"same", set(t, ana, sales), set(t, ana, sales), false},
		{"other email", set(t, ana), set(t, row(t, "ben@example.com", "")), false},
		{"group case is a change", set(t, sales), set(t, row(t, "", "sales")), false},
		{"row added", set(t, ana), set(t, anaUpper, sales), false},
		{"row removed", set(t, ana, sales), set(t, anaUpper), false},
		{"unknown element", set(t, ana), set(t, row(t, "?", "")), false},
		{"create", types.SetNull(rowType), set(t, ana), false},
		{"destroy", set(t, ana), types.SetNull(rowType), false},
		{"unknown set", set(t, ana), types.SetUnknown(rowType), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := planmodifier.SetRequest{StateValue: tc.state, PlanValue: tc.plan, ConfigValue: tc.plan}
			resp := planmodifier.SetResponse{PlanValue: tc.plan}
			SetIgnoringCaseOf("email").PlanModifySet(t.Context(), req, &resp)
			want := tc.plan
			if tc.keepState {
				want = tc.state
			}
			if !resp.PlanValue.Equal(want) {
				t.Errorf("planned %v, want %v", resp.PlanValue, want)
			}
		})
	}
}

func TestSetIgnoringCaseOfDescription(t *testing.T) {
	m := SetIgnoringCaseOf("email")
	if d := m.MarkdownDescription(t.Context()); !strings.Contains(d, "`email`") {
		t.Errorf("markdown description %q does not name `email`", d)
	}
	if d := m.Description(t.Context()); !strings.Contains(d, "email") || strings.Contains(d, "`") {
		t.Errorf("description %q must name email without Markdown", d)
	}
}
