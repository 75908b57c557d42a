package planmodifiers

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var testSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"title":    schema.StringAttribute{Optional: true},
	"sections": schema.ListAttribute{ElementType: types.StringType, Optional: true},
}}

var objType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"title":    tftypes.String,
	"sections": tftypes.List{ElementType: tftypes.String},
}}

// object builds a resource value; a nil sections means null (an import).
func object(title string, sections []string) tftypes.Value {
	secs := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)
	if sections != nil {
		var elems []tftypes.Value
		for _, s := range sections {
			elems = append(elems, tftypes.NewValue(tftypes.String, s))
		}
		secs = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
	}
	return tftypes.NewValue(objType, map[string]tftypes.Value{
		"title":    tftypes.NewValue(tftypes.String, title),
		"sections": secs,
	})
}

func TestRequiresReplaceUnlessImported(t *testing.T) {
	null := tftypes.NewValue(objType, nil)
	cases := []struct {
		name        string
		state, plan tftypes.Value
		want        bool
		foldCase    bool
	}{
		{name: "case change", state: object("Marketing", []string{"a"}), plan: object("marketing", []string{"a"}), want: true},
		{name: "case change, case-insensitive", state: object("Marketing", []string{"a"}), plan: object("marketing", []string{"a"}),
			foldCase: true},
		{name: "real change, case-insensitive", state: object("Marketing", []string{"a"}), plan: object("Sales", []string{"a"}),
			want: true, foldCase: true},
		{name: "create", state: null, plan: object("new", []string{"a"})},
		{name: "destroy", state: object("old", []string{"a"}), plan: null},
		{name: "unchanged", state: object("same", []string{"a"}), plan: object("same", []string{"a"})},
		{name: "changed after create", state: object("old", []string{"a"}), plan: object("new", []string{"a"}), want: true},
		{name: "changed after import", state: object("old", nil), plan: object("new", []string{"a"})},
	}
	ctx := t.Context()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := RequiresReplaceUnlessImported(path.Root("sections"))
			if tc.foldCase {
				m = m.CaseInsensitive()
			}
			state := tfsdk.State{Schema: testSchema, Raw: tc.state}
			plan := tfsdk.Plan{Schema: testSchema, Raw: tc.plan}
			var stateTitle, planTitle types.String
			if !tc.state.IsNull() {
				state.GetAttribute(ctx, path.Root("title"), &stateTitle)
			}
			if !tc.plan.IsNull() {
				plan.GetAttribute(ctx, path.Root("title"), &planTitle)
			}
			req := planmodifier.StringRequest{
				Path: path.Root("title"), State: state, Plan: plan,
				StateValue: stateTitle, PlanValue: planTitle, ConfigValue: planTitle,
			}
			var resp planmodifier.StringResponse
			m.PlanModifyString(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if resp.RequiresReplace != tc.want {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.want)
			}
		})
	}
}

func TestRequiresReplaceUnlessImportedList(t *testing.T) {
	ctx := t.Context()
	state := tfsdk.State{Schema: testSchema, Raw: object("t", []string{"a"})}
	plan := tfsdk.Plan{Schema: testSchema, Raw: object("t", []string{"b"})}
	var sv, pv types.List
	state.GetAttribute(ctx, path.Root("sections"), &sv)
	plan.GetAttribute(ctx, path.Root("sections"), &pv)
	var resp planmodifier.ListResponse
	RequiresReplaceUnlessImported(path.Root("sections")).PlanModifyList(ctx, planmodifier.ListRequest{
		Path: path.Root("sections"), State: state, Plan: plan, StateValue: sv, PlanValue: pv, ConfigValue: pv,
	}, &resp)
	if !resp.RequiresReplace {
		t.Error("a changed marker list after create must require replacement")
	}
}

func TestRequiresReplaceUnlessImportedDescription(t *testing.T) {
	d := RequiresReplaceUnlessImported(path.Root("sections")).MarkdownDescription(t.Context())
	if want := "`sections`"; !strings.Contains(d, want) {
		t.Errorf("description %q does not name %s", d, want)
	}
}
