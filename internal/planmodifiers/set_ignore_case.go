package planmodifiers

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// SetIgnoringCaseOf keeps the prior state of a set of objects when the
// planned set differs from it only in the letter case of the named string
// attributes, for values the service compares without case (such as email
// addresses). Terraform accepts a planned value equal to the prior state as
// the provider saying "equivalent to the configuration", so no change is
// planned and the spelling in state stays until a real change.
func SetIgnoringCaseOf(attributes ...string) planmodifier.Set {
	return setIgnoringCaseModifier{fold: attributes}
}

type setIgnoringCaseModifier struct {
	fold []string
}

// Description says what the modifier does, for docs and logs.
func (m setIgnoringCaseModifier) Description(_ context.Context) string {
	return m.describe(strings.Join(m.fold, ", "))
}

// MarkdownDescription is Description in Markdown.
func (m setIgnoringCaseModifier) MarkdownDescription(_ context.Context) string {
	return m.describe("`" + strings.Join(m.fold, "`, `") + "`")
}

func (m setIgnoringCaseModifier) describe(names string) string {
	return "A change in the letter case of " + names + " alone is no change: the value in state is kept."
}

// PlanModifySet implements planmodifier.Set.
func (m setIgnoringCaseModifier) PlanModifySet(_ context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if req.StateValue.IsNull() || req.StateValue.IsUnknown() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() ||
		req.PlanValue.Equal(req.StateValue) {
		return
	}
	planKeys, ok := m.keys(req.PlanValue)
	if !ok {
		return
	}
	stateKeys, ok := m.keys(req.StateValue)
	if ok && slices.Equal(planKeys, stateKeys) {
		resp.PlanValue = req.StateValue
	}
}

// keys renders each element with the folded attributes in lower case,
// sorted, so that two sets compare as multisets. ok is false when an element
// is not a known object, which the modifier then leaves alone.
func (m setIgnoringCaseModifier) keys(set types.Set) (keys []string, ok bool) {
	for _, el := range set.Elements() {
		obj, isObj := el.(types.Object)
		if !isObj || obj.IsNull() || obj.IsUnknown() {
			return nil, false
		}
		attrs := obj.Attributes()
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			names = append(names, name)
		}
		slices.Sort(names)
		var b strings.Builder
		for _, name := range names {
			s, known := m.render(name, attrs[name])
			if !known {
				return nil, false
			}
			b.WriteString(strconv.Quote(name) + "=" + s + ";")
		}
		keys = append(keys, b.String())
	}
	slices.Sort(keys)
	return keys, true
}

// render is one attribute's value in a key; known is false for an unknown
// value, which may still become anything.
func (m setIgnoringCaseModifier) render(name string, v attr.Value) (s string, known bool) {
	if v.IsUnknown() {
		return "", false
	}
	if v.IsNull() {
		return "null", true
	}
	if str, isStr := v.(types.String); isStr {
		value := str.ValueString()
		if slices.Contains(m.fold, name) {
			value = strings.ToLower(value)
		}
		return strconv.Quote(value), true
	}
	return v.String(), true
}
