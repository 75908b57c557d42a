package provider

import (
	"reflect"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestNumericString(t *testing.T) {
	for _, s := range []string{"12", "-3.5", "1e3", "+0.5", ".5", "7."} {
		if !numericString.MatchString(s) {
			t.Errorf("%q should be numeric", s)
		}
	}
	for _, s := range []string{"", "abc", " 1", "1 ", "0x10", "NaN", "Inf", "1,5", "--1"} {
		if numericString.MatchString(s) {
			t.Errorf("%q should not be numeric", s)
		}
	}
}

// errorPaths lists the attribute paths of the error diagnostics, then those
// of the warnings prefixed by "warning: ", sorted.
func errorPaths(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		where := "<no path>"
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			where = wp.Path().String()
		}
		if d.Severity() == diag.SeverityWarning {
			where = "warning: " + where
		}
		out = append(out, where)
	}
	sort.Strings(out)
	return out
}

// objectType asserts typ is an object type.
func objectType(t *testing.T, typ attr.Type) types.ObjectType {
	t.Helper()
	ot, ok := typ.(types.ObjectType)
	if !ok {
		t.Fatalf("%T is not an object type", typ)
	}
	return ot
}

// listElem is the element type of the list attribute name of ot.
func listElem(t *testing.T, ot types.ObjectType, name string) attr.Type {
	t.Helper()
	lt, ok := ot.AttrTypes[name].(types.ListType)
	if !ok {
		t.Fatalf("%s is not a list", name)
	}
	return lt.ElemType
}

func objectOf(t *testing.T, typ attr.Type, v any) types.Object {
	t.Helper()
	ot := objectType(t, typ)
	obj, diags := types.ObjectValueFrom(t.Context(), ot.AttrTypes, v)
	if diags.HasError() {
		t.Fatal(diags)
	}
	return obj
}

func runObjectValidator(t *testing.T, v validator.Object, p path.Path, obj types.Object) []string {
	t.Helper()
	var resp validator.ObjectResponse
	v.ValidateObject(t.Context(), validator.ObjectRequest{Path: p, ConfigValue: obj}, &resp)
	return errorPaths(resp.Diagnostics)
}

func TestTemplateSectionValidator(t *testing.T) {
	typ := templateSectionsAttribute().NestedObject.Type()
	at := path.Root("sections").AtListIndex(0)
	tpl := []templateRefModel{{TemplateHash: types.StringValue("tpl-cover")}}
	elems := []elementModel{{Name: types.StringValue("headline"), Value: types.StringValue("x")}}
	cases := []struct {
		name string
		m    templateSectionModel
		want []string
	}{
		{"static with templates", templateSectionModel{Type: types.StringValue("static"), Templates: tpl, Elements: elems}, nil},
		{"static without templates", templateSectionModel{Type: types.StringValue("static")}, []string{"sections[0].templates"}},
		{"static with empty templates", templateSectionModel{Type: types.StringValue("static"), Templates: []templateRefModel{}}, []string{"sections[0].templates"}},
		{"static with page_count", templateSectionModel{Type: types.StringValue("static"), Templates: tpl, PageCount: types.Int64Value(2)}, []string{"warning: sections[0].page_count"}},
		{"static filling a layer twice", templateSectionModel{Type: types.StringValue("static"), Templates: tpl,
			Elements: []elementModel{{Name: types.StringValue("headline")}, {Name: types.StringValue("gallery")}, {Name: types.StringValue("headline")}}},
			[]string{"warning: sections[0].elements[2].name"}},
		{"blank", templateSectionModel{Type: types.StringValue("blank"), PageCount: types.Int64Value(2)}, nil},
		{"blank with templates and elements", templateSectionModel{Type: types.StringValue("blank"), Templates: tpl, Elements: elems},
			[]string{"warning: sections[0].elements", "warning: sections[0].templates"}},
		{"unknown type is left for apply", templateSectionModel{Type: types.StringUnknown(), Templates: tpl, PageCount: types.Int64Value(1)}, nil},
		{"invalid type is reported by OneOf only", templateSectionModel{Type: types.StringValue("feed")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.m.PageCount == (types.Int64{}) {
				tc.m.PageCount = types.Int64Null()
			}
			if tc.m.PageBreak == (types.Bool{}) {
				tc.m.PageBreak = types.BoolNull()
			}
			for i := range tc.m.Elements {
				tc.m.Elements[i].Value = types.StringValue("x")
			}
			got := runObjectValidator(t, templateSectionValidator{}, at, objectOf(t, typ, tc.m))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors at %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("unknown templates list is left for apply", func(t *testing.T) {
		ot := objectType(t, typ)
		attrs := map[string]attr.Value{
			"type":       types.StringValue("static"),
			"page_break": types.BoolNull(),
			"templates":  types.ListUnknown(listElem(t, ot, "templates")),
			"elements":   types.ListNull(listElem(t, ot, "elements")),
			"page_count": types.Int64Null(),
		}
		obj := types.ObjectValueMust(ot.AttrTypes, attrs)
		if got := runObjectValidator(t, templateSectionValidator{}, at, obj); len(got) != 0 {
			t.Errorf("errors at %q for an unknown list", got)
		}
	})
}

func TestStaticSectionRequired(t *testing.T) {
	typ := templateSectionsAttribute().NestedObject.Type()
	ot := objectType(t, typ)
	section := func(kind types.String) attr.Value {
		return types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{
			"type":       kind,
			"page_break": types.BoolNull(),
			"templates":  types.ListNull(listElem(t, ot, "templates")),
			"elements":   types.ListNull(listElem(t, ot, "elements")),
			"page_count": types.Int64Null(),
		})
	}
	cases := []struct {
		name  string
		kinds []types.String
		want  []string
	}{
		{"one static", []types.String{types.StringValue("blank"), types.StringValue("static")}, nil},
		{"blank only", []types.String{types.StringValue("blank"), types.StringValue("blank")}, []string{"sections"}},
		{"unknown type may be static", []types.String{types.StringValue("blank"), types.StringUnknown()}, nil},
		{"invalid type is left to its own validator", []types.String{types.StringValue("blank"), types.StringValue("feed")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var elems []attr.Value
			for _, k := range tc.kinds {
				elems = append(elems, section(k))
			}
			var resp validator.ListResponse
			staticSectionRequired{}.ValidateList(t.Context(), validator.ListRequest{
				Path: path.Root("sections"), ConfigValue: types.ListValueMust(typ, elems),
			}, &resp)
			if got := errorPaths(resp.Diagnostics); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors at %q, want %q", got, tc.want)
			}
		})
	}
}

func conditionType(t *testing.T) attr.Type {
	t.Helper()
	filters, ok := catalogSectionsAttribute().NestedObject.Attributes["filters"].(schema.ListNestedAttribute)
	if !ok {
		t.Fatal("filters is not a list nested attribute")
	}
	conds, ok := filters.NestedObject.Attributes["conditions"].(schema.ListNestedAttribute)
	if !ok {
		t.Fatal("conditions is not a list nested attribute")
	}
	return conds.NestedObject.Type()
}

func TestConditionValidator(t *testing.T) {
	typ := conditionType(t)
	at := path.Root("c")
	cond := func(op, value string, values ...string) conditionModel {
		m := conditionModel{Field: types.StringValue("price"), Operator: types.StringValue(op), Value: types.StringNull(), Values: values}
		if value != "" {
			m.Value = types.StringValue(value)
		}
		return m
	}
	cases := []struct {
		name string
		m    conditionModel
		want []string
		// emptyValues sends values = [] (Go's nil slice would read as null).
		emptyValues bool
	}{
		{name: "in with values", m: cond("in", "", "A1", "B2"), want: nil},
		{name: "nin with value", m: cond("nin", "A1"), want: []string{"c.value", "c.values"}},
		{name: "in with empty values", m: cond("in", ""), want: []string{"warning: c.values"}, emptyValues: true},
		{name: "eq with value", m: cond("eq", "x"), want: nil},
		{name: "contains with values", m: cond("contains", "", "x"), want: []string{"c.value", "c.values"}},
		{name: "ne without value", m: cond("ne", ""), want: []string{"c.value"}},
		{name: "gt numeric", m: cond("gt", "10.5"), want: nil},
		{name: "lte not numeric", m: cond("lte", "ten"), want: []string{"c.value"}},
		{name: "between", m: cond("between", "", "10", "99.5"), want: nil},
		{name: "between equal bounds", m: cond("between", "", "5", "5"), want: nil},
		{name: "between reversed", m: cond("between", "", "99", "10"), want: []string{"warning: c.values"}},
		{name: "between one value", m: cond("between", "", "10"), want: []string{"c.values"}},
		{name: "between three values", m: cond("between", "", "1", "2", "3"), want: []string{"c.values"}},
		{name: "between not numeric", m: cond("between", "", "1", "x"), want: []string{"c.values[1]"}},
		{name: "between with value", m: cond("between", "10"), want: []string{"c.value", "c.values"}},
		{name: "unknown operator left to OneOf", m: cond("like", "x"), want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := objectOf(t, typ, tc.m)
			if tc.emptyValues {
				attrs := obj.Attributes()
				attrs["values"] = types.ListValueMust(types.StringType, nil)
				obj = types.ObjectValueMust(objectType(t, typ).AttrTypes, attrs)
			}
			if got := runObjectValidator(t, conditionValidator{}, at, obj); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors at %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("unknown bound is left for apply", func(t *testing.T) {
		attrs := objectOf(t, typ, cond("between", "", "1", "2")).Attributes()
		attrs["values"] = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("9"), types.StringUnknown()})
		obj := types.ObjectValueMust(objectType(t, typ).AttrTypes, attrs)
		if got := runObjectValidator(t, conditionValidator{}, at, obj); len(got) != 0 {
			t.Errorf("errors at %q", got)
		}
	})
}
