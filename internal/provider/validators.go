package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// Plan-time copies of the rules the service applies to generation requests,
// so that a configuration it would reject fails before any API call. Every
// validator skips values that are not known yet; apply checks them again.

// Section types as the schema spells them.
const (
	sectionStatic = apiclient.SectionStatic
	sectionBlank  = apiclient.SectionBlank
)

// nonEmptyString refuses "": the service reads an empty hash or name as
// absent, and its answer would not name the attribute at fault.
func nonEmptyString() []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1)}
}

// maxFolderDepth is the spec's limit on folder levels.
const maxFolderDepth = 3

// folderProblems lists every rule of the spec's folder parameter that folder
// breaks; "" (the root folder) breaks none.
func folderProblems(folder string) []string {
	if folder == "" {
		return nil
	}
	var problems []string
	if strings.HasPrefix(folder, "/") || strings.HasSuffix(folder, "/") {
		problems = append(problems, `must not begin or end with "/"`)
	}
	names := strings.Split(strings.Trim(folder, "/"), "/")
	if len(names) > maxFolderDepth {
		problems = append(problems, fmt.Sprintf(`must have at most %d levels separated by "/", got %d`, maxFolderDepth, len(names)))
	}
	for i, name := range names {
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf(`level %d is empty ("//" is not allowed)`, i+1))
		case !folderName.MatchString(name):
			problems = append(problems, fmt.Sprintf("level %d name %q may contain only English letters, digits and spaces", i+1, name))
		case !alnum(name[0]) || !alnum(name[len(name)-1]):
			problems = append(problems, fmt.Sprintf("level %d name %q must begin and end with a letter or digit", i+1, name))
		}
	}
	return problems
}

var folderName = regexp.MustCompile(`^[A-Za-z0-9 ]+$`)

func alnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// numericString is the spec's "numeric string": a plain decimal number such
// as "12", "-3.5" or "1e3", without spaces.
var numericString = regexp.MustCompile(`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

// folderValidator applies folderProblems to a string attribute.
type folderValidator struct{}

var _ validator.String = folderValidator{}

func (folderValidator) Description(context.Context) string {
	return "a folder path of at most three levels separated by \"/\", without a leading or trailing \"/\"; " +
		"each name uses English letters, digits and spaces and begins and ends with a letter or digit"
}

func (v folderValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (folderValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, p := range folderProblems(req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Folder",
			fmt.Sprintf("The folder %q %s. A folder is a path of up to three names separated by \"/\", such as \"Marketing/2026/Spring\".",
				req.ConfigValue.ValueString(), p))
	}
}

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

// templateSectionValidator enforces the per-type fields of a
// createFromTemplate section: static takes templates and elements, blank
// takes page_count.
type templateSectionValidator struct{}

var _ validator.Object = templateSectionValidator{}

func (templateSectionValidator) Description(context.Context) string {
	return `a "static" section needs a non-empty templates list, fills each layer at most once and takes no page_count; ` +
		`a "blank" section takes only page_break and page_count`
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
		if tpl, ok := knownAttr(obj, "templates"); ok {
			if l, isList := tpl.(types.List); tpl.IsNull() || isList && len(l.Elements()) == 0 {
				resp.Diagnostics.AddAttributeError(req.Path.AtName("templates"), "Missing Section Templates",
					`A "static" section renders templates, so it needs at least one entry in templates.`)
			}
		}
		duplicateElementNames(obj, req.Path.AtName("elements"), resp)
		if present(obj, "page_count") {
			resp.Diagnostics.AddAttributeError(req.Path.AtName("page_count"), "Unexpected Section Attribute",
				`page_count applies only to "blank" sections; a "static" section has the pages of its templates. Remove page_count or change type to "blank".`)
		}
	case sectionBlank:
		for _, name := range []string{"templates", "elements"} {
			if present(obj, name) {
				resp.Diagnostics.AddAttributeError(req.Path.AtName(name), "Unexpected Section Attribute",
					fmt.Sprintf(`A "blank" section inserts empty pages and takes no %s. Remove it or change type to "static".`, name))
			}
		}
	}
}

// duplicateElementNames reports a layer filled twice in one section: the
// service rejects it, since only one value can win.
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
			resp.Diagnostics.AddAttributeError(at.AtListIndex(i).AtName("name"), "Duplicate Element",
				fmt.Sprintf("The layer %q is already filled by an earlier element of this section; give each layer one element.",
					name.ValueString()))
		}
		seen[name.ValueString()] = true
	}
}

// staticSectionRequired enforces createFromTemplate's "at least one static
// section". It stays silent while any section's type is unknown.
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
	resp.Diagnostics.AddAttributeError(req.Path, "Missing Static Section",
		`A template collection needs at least one section of type "static": blank sections alone render no template.`)
}

// Filter operators of the spec, by the value shape they take.
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
// its operator takes: in/nin a non-empty values list, between two numeric
// values with min <= max, lt/lte/gt/gte a numeric value, eq/ne/contains a
// value.
type conditionValidator struct{}

var _ validator.Object = conditionValidator{}

func (conditionValidator) Description(context.Context) string {
	return "in and nin take a non-empty values list; between takes values with two numeric strings, min first; " +
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
	if present(obj, avoid) {
		resp.Diagnostics.AddAttributeError(req.Path.AtName(avoid), "Wrong Condition Value Shape",
			fmt.Sprintf("The operator %q takes %s, not %s.", op, use, avoid))
	}
	if !present(obj, use) {
		resp.Diagnostics.AddAttributeError(req.Path.AtName(use), "Missing Condition Value",
			fmt.Sprintf("The operator %q needs %s.", op, use))
		return
	}

	if !takesList {
		value, ok := stringAttr(obj, "value")
		if ok && oneOf(op, numericOperators) && !numericString.MatchString(value.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path.AtName("value"), "Invalid Numeric Value",
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
			resp.Diagnostics.AddAttributeError(req.Path.AtName("values"), "Missing Condition Value",
				fmt.Sprintf("The operator %q needs at least one entry in values.", op))
		}
		return
	}
	if len(list.Elements()) != 2 {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("values"), "Invalid Range",
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
			resp.Diagnostics.AddAttributeError(req.Path.AtName("values").AtListIndex(i), "Invalid Numeric Value",
				fmt.Sprintf(`The operator "between" compares numbers, so each bound must be a numeric string, got %q.`, s))
		}
	}
	if bad {
		return
	}
	if lo, hi := parseNumber(values[0]), parseNumber(values[1]); lo > hi {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("values"), "Invalid Range",
			fmt.Sprintf(`The range of "between" is [min, max]: %q is greater than %q. Swap them.`, values[0], values[1]))
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
