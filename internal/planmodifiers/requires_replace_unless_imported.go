// Package planmodifiers holds the provider's custom plan modifiers.
package planmodifiers

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// RequiresReplaceUnlessImported is RequiresReplace for objects the API cannot
// update, with one exception: an imported object. Import knows only the id,
// so the state holds no inputs; the first configuration applied to it is
// adopted in place instead of destroying what was just imported.
//
// marker names an attribute that Terraform always sets when it creates the
// object (a required input): a null marker in the prior state means the
// state came from an import and has not yet adopted a configuration.
func RequiresReplaceUnlessImported(marker path.Path) RequiresReplaceUnlessImportedModifier {
	return RequiresReplaceUnlessImportedModifier{marker: marker}
}

// RequiresReplaceUnlessImportedModifier implements the modifier for string,
// list and int64 attributes.
type RequiresReplaceUnlessImportedModifier struct {
	marker   path.Path
	foldCase bool
}

// CaseInsensitive returns a copy that also treats a string changed only in
// letter case as unchanged, for values the service compares without case
// (such as folder paths); the new spelling is then stored in place.
func (m RequiresReplaceUnlessImportedModifier) CaseInsensitive() RequiresReplaceUnlessImportedModifier {
	m.foldCase = true
	return m
}

var (
	_ planmodifier.String = RequiresReplaceUnlessImportedModifier{}
	_ planmodifier.List   = RequiresReplaceUnlessImportedModifier{}
	_ planmodifier.Int64  = RequiresReplaceUnlessImportedModifier{}
)

// Description says what the modifier does, for docs and logs.
func (m RequiresReplaceUnlessImportedModifier) Description(_ context.Context) string {
	return m.describe(m.marker.String())
}

// MarkdownDescription is Description in Markdown.
func (m RequiresReplaceUnlessImportedModifier) MarkdownDescription(_ context.Context) string {
	return m.describe("`" + m.marker.String() + "`")
}

// describe words the description around marker, as plain text or Markdown.
func (m RequiresReplaceUnlessImportedModifier) describe(marker string) string {
	s := fmt.Sprintf("Changing this value replaces the resource, except when the resource was imported and %s is not yet "+
		"in state: the configuration is then adopted without replacement.", marker)
	if m.foldCase {
		s += " A change of letter case alone is applied in place."
	}
	return s
}

// PlanModifyString implements planmodifier.String.
func (m RequiresReplaceUnlessImportedModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if m.foldCase && !req.StateValue.IsNull() && !req.PlanValue.IsNull() && !req.PlanValue.IsUnknown() &&
		strings.EqualFold(req.StateValue.ValueString(), req.PlanValue.ValueString()) {
		return
	}
	resp.RequiresReplace = m.requiresReplace(ctx, req.State, req.Plan, req.StateValue, req.PlanValue, &resp.Diagnostics)
}

// PlanModifyList implements planmodifier.List.
func (m RequiresReplaceUnlessImportedModifier) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	resp.RequiresReplace = m.requiresReplace(ctx, req.State, req.Plan, req.StateValue, req.PlanValue, &resp.Diagnostics)
}

// PlanModifyInt64 implements planmodifier.Int64.
func (m RequiresReplaceUnlessImportedModifier) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	resp.RequiresReplace = m.requiresReplace(ctx, req.State, req.Plan, req.StateValue, req.PlanValue, &resp.Diagnostics)
}

func (m RequiresReplaceUnlessImportedModifier) requiresReplace(ctx context.Context, state tfsdk.State, plan tfsdk.Plan,
	stateValue, planValue attr.Value, diags *diag.Diagnostics) bool {
	// Creation and destruction never replace.
	if state.Raw.IsNull() || plan.Raw.IsNull() {
		return false
	}
	if planValue.Equal(stateValue) {
		return false
	}
	var marker attr.Value
	d := state.GetAttribute(ctx, m.marker, &marker)
	diags.Append(d...)
	if d.HasError() {
		return false
	}
	return marker != nil && !marker.IsNull()
}
