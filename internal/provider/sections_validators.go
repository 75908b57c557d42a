package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// Plan-time checks of the generation requests of flipbook_template_collection
// and flipbook_catalog. Each rule that refuses a plan
// cites, in a one-line comment, the words of the spec it enforces. Where the
// spec is silent the provider only warns, says the warning is a guess, and
// lets the service answer at apply time (the answer is shown on the attribute
// it names). Every validator skips values that are not known yet.

// Section types as the schema spells them.
const (
	sectionStatic = apiclient.SectionStatic
	sectionBlank  = apiclient.SectionBlank
)

// numericString is the provider's reading of the spec's "numeric string"
// (filter operators: "Numeric operators need numeric strings"): a plain
// decimal number such as "12", "-3.5" or "1e3", without spaces.
var numericString = regexp.MustCompile(`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

var _ validator.String = folderValidator{}

// knownAttr returns obj's attribute name when it is known (null counts as
// known), so that rules depending on it can run.
func knownAttr(obj types.Object, name string) (attr.Value, bool) {
	v, ok := obj.Attributes()[name]
	if !ok || v == nil || v.IsUnknown() {
		return nil, false
	}
	return v, true
}

// stringAttr is the known string value of obj's attribute name.
func stringAttr(obj types.Object, name string) (types.String, bool) {
	v, ok := knownAttr(obj, name)
	if !ok {
		return types.String{}, false
	}
	s, ok := v.(types.String)
	return s, ok
}

// present says whether obj's attribute name is set (or will be).
func present(obj types.Object, name string) bool {
	v, ok := obj.Attributes()[name]
	return ok && v != nil && !v.IsNull()
}

// templateSectionValidator checks the per-type fields of a createFromTemplate
// section: a static section needs templates; fields the spec lists only for
// the other type are not sent, and get a warning.
type templateSectionValidator struct{}

var _ validator.Object = templateSectionValidator{}

func (templateSectionValidator) Description(context.Context) string {
	return `a "static" section needs a non-empty templates list; page_count on a "static" section and templates or ` +
		`elements on a "blank" one are not sent (warning)`
}

func (v templateSectionValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (templateSectionValidator) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	obj := req.ConfigValue
	if obj.IsNull() || obj.IsUnknown() {
		return
	}
	typ, ok := stringAttr(obj, "type")
	if !ok || typ.IsNull() {
		return
	}
	switch typ.ValueString() {
	case sectionStatic:
		// Spec, section table: static `templates` "yes, non-empty".
		if tpl, ok := knownAttr(obj, "templates"); ok {
			if l, isList := tpl.(types.List); tpl.IsNull() || isList && len(l.Elements()) == 0 {
				addAttrError(&resp.Diagnostics, req.Path.AtName("templates"), "Missing Section Templates",
					`A "static" section renders templates, so it needs at least one entry in templates (the spec: "yes, non-empty").`)
			}
		}
		duplicateElementNames(obj, req.Path.AtName("elements"), resp)
		if present(obj, "page_count") {
			addAttrWarning(&resp.Diagnostics, req.Path.AtName("page_count"), "Section Attribute Not Sent",
				`The spec lists pageCount for "blank" sections only, so the provider does not send page_count for a "static" `+
					`section: it has no effect. Remove it, or change type to "blank".`)
		}
	case sectionBlank:
		for _, name := range []string{"templates", "elements"} {
			if present(obj, name) {
				addAttrWarning(&resp.Diagnostics, req.Path.AtName(name), "Section Attribute Not Sent",
					fmt.Sprintf(`The spec lists %s for "static" sections only, so the provider does not send it for a "blank" `+
						`section: it has no effect. Remove it, or change type to "static".`, name))
			}
		}
	}
}

// duplicateElementNames warns about a layer filled twice in one section. The
// spec does not say what the service does with it (only that "`name` matches
// the layer label"): a guess, so a warning.
func duplicateElementNames(section types.Object, at path.Path, resp *validator.ObjectResponse) {
	v, ok := knownAttr(section, "elements")
	if !ok || v.IsNull() {
		return
	}
	list, ok := v.(types.List)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for i, e := range list.Elements() {
		el, ok := e.(types.Object)
		if !ok || el.IsUnknown() || el.IsNull() {
			continue
		}
		name, ok := stringAttr(el, "name")
		if !ok || name.IsNull() {
			continue
		}
		if seen[name.ValueString()] {
			addAttrWarning(&resp.Diagnostics, at.AtListIndex(i).AtName("name"), "Layer Filled Twice",
				fmt.Sprintf("The layer %q is already filled by an earlier element of this section. The spec does not say "+
					"which value the service keeps, or whether it refuses the request; this is a guess, so the plan goes "+
					"ahead. Give each layer one element to be sure.", name.ValueString()))
		}
		seen[name.ValueString()] = true
	}
}

// staticSectionRequired enforces the spec's createFromTemplate `sections`:
// "non-empty array of static/blank sections with at least one static". It
// stays silent while any section's type is unknown.
type staticSectionRequired struct{}

var _ validator.List = staticSectionRequired{}

func (staticSectionRequired) Description(context.Context) string {
	return `at least one section must have type "static"`
}

func (v staticSectionRequired) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (staticSectionRequired) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || len(req.ConfigValue.Elements()) == 0 {
		return
	}
	for _, e := range req.ConfigValue.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsUnknown() {
			return
		}
		typ, ok := stringAttr(obj, "type")
		if !ok {
			return
		}
		// A static section satisfies the rule; an invalid type is reported
		// by the type's own validator, which runs only when this one is
		// silent.
		if typ.ValueString() != sectionBlank {
			return
		}
	}
	addAttrError(&resp.Diagnostics, req.Path, "Missing Static Section",
		`A template collection needs at least one section of type "static": blank sections alone render no template.`)
}

// Filter operators of the spec's operator table, by the value shape they take.
var (
	listOperators    = []string{"in", "nin"}
	numericOperators = []string{"lt", "lte", "gt", "gte"}
	stringOperators  = []string{"eq", "ne", "contains"}
	filterOperators  = append(append(append(append([]string{}, listOperators...), stringOperators...), numericOperators...), "between")
)

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// conditionValidator checks that a filter condition carries the value shape
// the spec's operator table gives its operator: in/nin a list ("string[]"),
// between a list of "two numeric strings `[min, max]`", lt/lte/gt/gte a
// "numeric string", eq/ne/contains a "string". An empty in/nin list and a
// range whose min exceeds its max only warn: the spec is silent on both.
type conditionValidator struct{}

var _ validator.Object = conditionValidator{}

func (conditionValidator) Description(context.Context) string {
	return "in and nin take values; between takes values with two numeric strings [min, max]; " +
		"lt, lte, gt and gte take a numeric string value; eq, ne and contains take value"
}

func (v conditionValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (conditionValidator) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	obj := req.ConfigValue
	if obj.IsNull() || obj.IsUnknown() {
		return
	}
	opv, ok := stringAttr(obj, "operator")
	if !ok || opv.IsNull() || !oneOf(opv.ValueString(), filterOperators) {
		return // unknown, or reported by the operator's own validator
	}
	op := opv.ValueString()
	takesList := oneOf(op, listOperators) || op == "between"
	use, avoid := "value", "values"
	if takesList {
		use, avoid = "values", "value"
	}
	// Spec, operator table: the "Value shape" column gives each operator one shape.
	if present(obj, avoid) {
		addAttrError(&resp.Diagnostics, req.Path.AtName(avoid), "Wrong Condition Value Shape",
			fmt.Sprintf("The operator %q takes %s, not %s.", op, use, avoid))
	}
	if !present(obj, use) {
		addAttrError(&resp.Diagnostics, req.Path.AtName(use), "Missing Condition Value",
			fmt.Sprintf("The operator %q needs %s.", op, use))
		return
	}

	if !takesList {
		value, ok := stringAttr(obj, "value")
		// Spec, operator table: "Numeric operators need numeric strings".
		if ok && oneOf(op, numericOperators) && !numericString.MatchString(value.ValueString()) {
			addAttrError(&resp.Diagnostics, req.Path.AtName("value"), "Invalid Numeric Value",
				fmt.Sprintf("The operator %q compares numbers, so value must be a numeric string such as \"10\" or \"99.5\", got %q.",
					op, value.ValueString()))
		}
		return
	}
	lv, ok := knownAttr(obj, "values")
	if !ok {
		return
	}
	list, ok := lv.(types.List)
	if !ok {
		return
	}
	values, allKnown := knownStrings(list)
	if op != "between" {
		if len(list.Elements()) == 0 {
			addAttrWarning(&resp.Diagnostics, req.Path.AtName("values"), "Empty Condition List",
				fmt.Sprintf("The operator %q has no values, so it matches nothing (in) or everything (nin). The spec does not "+
					"say whether the service accepts an empty list; this is a guess, so the plan goes ahead.", op))
		}
		return
	}
	// Spec, operator table: between takes "two numeric strings `[min, max]`".
	if len(list.Elements()) != 2 {
		addAttrError(&resp.Diagnostics, req.Path.AtName("values"), "Invalid Range",
			fmt.Sprintf(`The operator "between" takes exactly two numeric strings [min, max], got %d values.`, len(list.Elements())))
		return
	}
	if !allKnown {
		return
	}
	bad := false
	for i, s := range values {
		if !numericString.MatchString(s) {
			bad = true
			addAttrError(&resp.Diagnostics, req.Path.AtName("values").AtListIndex(i), "Invalid Numeric Value",
				fmt.Sprintf(`The operator "between" compares numbers, so each bound must be a numeric string, got %q.`, s))
		}
	}
	if bad {
		return
	}
	if lo, hi := parseNumber(values[0]), parseNumber(values[1]); lo > hi {
		addAttrWarning(&resp.Diagnostics, req.Path.AtName("values"), "Empty Range",
			fmt.Sprintf(`The range of "between" is [min, max] and is inclusive, but %q is greater than %q, so no product `+
				`can match. The spec does not say whether the service refuses such a range; this is a guess, so the plan goes ahead. `+
				`Swap the bounds if that was meant.`, values[0], values[1]))
	}
}

// parseNumber reads a string that numericString accepted.
func parseNumber(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// knownStrings returns the list's strings and whether all were known.
func knownStrings(l types.List) ([]string, bool) {
	out := make([]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			return nil, false
		}
		out = append(out, s.ValueString())
	}
	return out, true
}
