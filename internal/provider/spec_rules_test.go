package provider

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/flipbook/terraform-provider-flipbook/internal/specrules"
)

// specRule is one entry of the table both test suites read.
type specRule = specrules.Rule

func loadSpecRules(t *testing.T) []specRule {
	t.Helper()
	rules, err := specrules.Load()
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestAccSpecInputRules writes every input of the shared table as a
// configuration: an input the spec allows must plan, one it forbids must
// fail the plan with the provider's message on the table's attribute (whose
// top-level name Terraform shows), or, for a rule left to the service, fail
// the apply with the service's answer. Rules the schema cannot express are
// skipped with the table's reason.
func TestAccSpecInputRules(t *testing.T) {
	for _, r := range loadSpecRules(t) {
		t.Run(r.ID, func(t *testing.T) {
			if r.Provider == "none" {
				t.Skipf("the provider's schema cannot express this input: %s", r.ProviderNote)
			}
			e := newTestEmulator(t, nil)
			dir := t.TempDir()
			allowed, isData := specConfig(t, e, dir, r.Action, r.Allowed)
			steps := []resource.TestStep{{Config: allowed, PlanOnly: true, ExpectNonEmptyPlan: !isData}}
			if r.Forbidden != nil {
				forbidden, _ := specConfig(t, e, dir, r.Action, r.Forbidden)
				// Terraform shows the configuration line of a top-level
				// attribute at fault; nested attributes are named in the
				// message (provider_error spells the path as the provider or
				// Terraform does; a set's entries have no index to name).
				fragments := []string{r.ProviderError}
				if _, set := r.Forbidden[specAPIName(r.Attribute)]; set && !isData && !strings.ContainsAny(r.Attribute, ".[") {
					fragments = append([]string{r.Attribute + " ="}, fragments...)
				}
				step := resource.TestStep{Config: forbidden, ExpectError: msgRe(fragments...)}
				if r.Provider == "plan" {
					step.PlanOnly = true
				}
				steps = append(steps, step)
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviderFactories(t), Steps: steps})
			if r.Provider == "plan" && r.Action != "collection.getEmbed" {
				expectNoAPICalls(t, e)
			}
		})
	}
}

// specAPIName is the spec's parameter for a top-level attribute, so that
// the attribute check runs only when the forbidden input sets it.
func specAPIName(attr string) string {
	switch attr {
	case "start_page":
		return "startPage"
	case "file_url":
		return "fileUrl"
	}
	return attr
}

// specConfig writes a table input as configuration; isData says it holds a
// data source only (its plan is empty).
func specConfig(t *testing.T, e *testEmulator, dir, action string, in map[string]any) (string, bool) {
	t.Helper()
	var b strings.Builder
	b.WriteString(e.providerConfig(""))
	attr := func(name string, v any) {
		fmt.Fprintf(&b, "  %s = %s\n", name, hclValue(t, v))
	}
	switch action {
	case "collection.createFromTemplate", "collection.createCatalog":
		kind, catalog := "flipbook_template_collection", action == "collection.createCatalog"
		sections := []any{map[string]any{"sectionType": "static", "templates": []any{map[string]any{"templateHash": "tpl-cover"}}}}
		if catalog {
			kind = "flipbook_catalog"
			sections = []any{map[string]any{"sectionType": "feed", "sources": []any{map[string]any{"sourceHash": "feed-shoes"}},
				"templates": []any{map[string]any{"templateHash": "tpl-product"}}}}
		}
		if s, ok := in["sections"].([]any); ok {
			sections = s
		}
		fmt.Fprintf(&b, "resource %q \"rule\" {\n", kind)
		if f, ok := in["folder"]; ok {
			attr("folder", f)
		}
		fmt.Fprintf(&b, "  sections = %s\n}\n", hclValue(t, specSchemaValue(sections, catalog)))
	case "collection.setPermissions":
		b.WriteString("resource \"flipbook_collection_permissions\" \"rule\" {\n  collection_hash = \"col-private\"\n")
		attr("permissions", in["permissions"])
		b.WriteString("}\n")
	case "collection.getEmbed":
		b.WriteString("data \"flipbook_embed\" \"rule\" {\n  collection_hash = \"col-private\"\n")
		for _, k := range sortedKeys(in) {
			attr(map[string]string{"startPage": "start_page", "width": "width", "height": "height", "responsive": "responsive"}[k], in[k])
		}
		b.WriteString("}\n")
		return b.String(), true
	case "flipbook.add", "collection.setLogo":
		kind := "flipbook_document"
		if action == "collection.setLogo" {
			kind = "flipbook_collection_logo"
		}
		fmt.Fprintf(&b, "resource %q \"rule\" {\n  collection_hash = \"col-private\"\n", kind)
		for _, k := range sortedKeys(in) {
			switch k {
			case "file":
				attr("file", specFile(t, dir, in[k].(string)))
			case "fileUrl":
				attr("file_url", in[k])
			case "logoUrl":
				attr("click_url", in[k])
			default:
				attr(k, in[k])
			}
		}
		b.WriteString("}\n")
	default:
		t.Fatalf("the table names action %q, which this test does not know", action)
	}
	return b.String(), false
}

// specFile writes a file of the table's kinds and returns its path.
func specFile(t *testing.T, dir, kind string) string {
	t.Helper()
	switch {
	case kind == "png":
		return writeTestPNG(t, dir, "logo.png", 2, 2, color.White)
	case kind == "pdf-over-100mb":
		return writeSparseFile(t, dir, "big.pdf", []byte("%PDF-1.4\n"), 100<<20+1)
	case strings.HasPrefix(kind, "pdf:"):
		n, err := strconv.Atoi(strings.TrimPrefix(kind, "pdf:"))
		if err != nil {
			t.Fatal(err)
		}
		return writeTestPDF(t, dir, kind[4:]+"-pages.pdf", n)
	}
	t.Fatalf("unknown file kind %q", kind)
	return ""
}

// specSchemaValue renames a sections value from the spec's request names to
// the schema's. A list-valued value or order becomes values or custom_order;
// a catalog section's templates become its one template_hash (the spec uses
// only the first) and its sources a list of hashes; sectionType is dropped
// for catalogs (always feed).
func specSchemaValue(v any, catalog bool) any {
	names := map[string]string{
		"sectionType": "type", "pageBreak": "page_break", "templateHash": "template_hash", "templatePages": "pages",
		"pageCount": "page_count", "groupBy": "group_by", "sortBy": "sort_by",
	}
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = specSchemaValue(e, catalog)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			_, isList := e.([]any)
			switch {
			case k == "sectionType" && catalog:
			case k == "templates" && catalog:
				if list, _ := e.([]any); len(list) > 0 {
					out["template_hash"] = list[0].(map[string]any)["templateHash"]
				}
			case k == "sources" && catalog:
				var hashes []any
				for _, s := range e.([]any) {
					hashes = append(hashes, s.(map[string]any)["sourceHash"])
				}
				out["sources"] = hashes
			case k == "value" && isList:
				out["values"] = e
			case k == "order" && isList:
				out["custom_order"] = e
			default:
				if n, ok := names[k]; ok {
					k = n
				}
				out[k] = specSchemaValue(e, catalog)
			}
		}
		return out
	}
	return v
}

// hclValue writes a JSON value as an HCL literal.
func hclValue(t *testing.T, v any) string {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = hclValue(t, e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range sortedKeys(x) {
			parts = append(parts, k+" = "+hclValue(t, x[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	t.Fatalf("no HCL for %T", v)
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The attribute check above must be able to fail: a message that is not the
// provider's, or the wrong attribute, does not match.
func TestSpecRuleMessagesAreSpecific(t *testing.T) {
	out := "with flipbook_template_collection.rule,\n  on x.tf line 3:\n   3:   folder = \"A/B/C/D\"\n\nThe folder must have at most 3 levels"
	if !msgRe("folder =", "at most 3 levels").MatchString(out) {
		t.Error("the expected pattern does not match a real message")
	}
	if msgRe("sections =", "at most 3 levels").MatchString(out) || msgRe("folder =", "at least 1 elements").MatchString(out) {
		t.Error("a pattern for another attribute or message matched")
	}
}

// TestSpecInputRulesAttributePaths checks, for every forbidden input of a
// resource that the provider refuses at plan time, that the refusal is on the
// table's attribute: the configuration is validated through the provider's
// protocol server (what `terraform validate` and plan call), whose
// diagnostics carry the exact attribute paths that Terraform's output shows
// only for top-level attributes. Set elements have no index: the path of a
// permissions entry is compared as permissions[*].
func TestSpecInputRulesAttributePaths(t *testing.T) {
	server, err := testAccProviderFactories(t)["flipbook"]()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	validate := func(t *testing.T, action string, in map[string]any) (errs, warnings []string, checked bool) {
		t.Helper()
		typeName, config := specResourceConfig(action, in)
		if typeName == "" {
			return nil, nil, false // a data source, or an upload: checked at plan by TestAccSpecInputRules
		}
		typ := schemas.ResourceSchemas[typeName].ValueType()
		val, err := tfValue(typ, config)
		if err != nil {
			t.Fatalf("the input is no value of the schema's type: %v", err)
		}
		dv, err := tfprotov6.NewDynamicValue(typ, val)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := server.ValidateResourceConfig(t.Context(), &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				errs = append(errs, tfPathString(d.Attribute))
			} else {
				warnings = append(warnings, tfPathString(d.Attribute)+": "+d.Detail)
			}
		}
		return errs, warnings, true
	}
	for _, r := range loadSpecRules(t) {
		if r.Provider != "plan" {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			errs, warnings, checked := validate(t, r.Action, r.Allowed)
			if len(errs) > 0 {
				t.Errorf("the spec allows %v, but the provider refused it at %q", r.Allowed, errs)
			}
			if r.Clean && len(warnings) > 0 {
				t.Errorf("the allowed input should plan cleanly, but warned: %q", warnings)
			}
			if r.Forbidden == nil || !checked {
				return
			}
			if errs, _, _ := validate(t, r.Action, r.Forbidden); !slices.Contains(errs, specPathPattern(r.Attribute)) {
				t.Errorf("the provider refused the forbidden input at %q, want at %s", errs, specPathPattern(r.Attribute))
			}
		})
	}
}

// specResourceConfig is the forbidden input as the resource's configuration
// object (schema names), or "" for inputs checked elsewhere.
func specResourceConfig(action string, in map[string]any) (string, map[string]any) {
	switch action {
	case "collection.createFromTemplate", "collection.createCatalog":
		catalog := action == "collection.createCatalog"
		cfg := map[string]any{}
		sections := []any{map[string]any{"sectionType": "static", "templates": []any{map[string]any{"templateHash": "tpl-cover"}}}}
		if catalog {
			sections = []any{map[string]any{"sources": []any{map[string]any{"sourceHash": "feed-shoes"}},
				"templates": []any{map[string]any{"templateHash": "tpl-product"}}}}
		}
		if s, ok := in["sections"].([]any); ok {
			sections = s
		}
		cfg["sections"] = specSchemaValue(sections, catalog)
		if f, ok := in["folder"]; ok {
			cfg["folder"] = f
		}
		if catalog {
			return "flipbook_catalog", cfg
		}
		return "flipbook_template_collection", cfg
	case "collection.setPermissions":
		return "flipbook_collection_permissions", map[string]any{"collection_hash": "col-private", "permissions": in["permissions"]}
	}
	return "", nil
}

// tfValue builds a configuration value of typ from JSON-shaped v; absent
// object attributes are null.
func tfValue(typ tftypes.Type, v any) (tftypes.Value, error) {
	if v == nil {
		return tftypes.NewValue(typ, nil), nil
	}
	switch {
	case typ.Is(tftypes.String):
		s, ok := v.(string)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not a string", v)
		}
		return tftypes.NewValue(typ, s), nil
	case typ.Is(tftypes.Bool):
		b, ok := v.(bool)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not a bool", v)
		}
		return tftypes.NewValue(typ, b), nil
	case typ.Is(tftypes.Number):
		n, ok := v.(json.Number)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not a number", v)
		}
		f, _, err := big.ParseFloat(n.String(), 10, 512, big.ToNearestEven)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, f), nil
	}
	switch tt := typ.(type) {
	case tftypes.List, tftypes.Set:
		list, ok := v.([]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not a list", v)
		}
		elem := tftypes.Type(nil)
		if l, isList := tt.(tftypes.List); isList {
			elem = l.ElementType
		} else {
			elem = tt.(tftypes.Set).ElementType
		}
		out := make([]tftypes.Value, 0, len(list))
		for _, e := range list {
			ev, err := tfValue(elem, e)
			if err != nil {
				return tftypes.Value{}, err
			}
			out = append(out, ev)
		}
		return tftypes.NewValue(typ, out), nil
	case tftypes.Object:
		m, ok := v.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%v is not an object", v)
		}
		out := map[string]tftypes.Value{}
		for name, at := range tt.AttributeTypes {
			av, err := tfValue(at, m[name])
			if err != nil {
				return tftypes.Value{}, err
			}
			out[name] = av
		}
		for name := range m {
			if _, known := tt.AttributeTypes[name]; !known {
				return tftypes.Value{}, fmt.Errorf("no attribute %q", name)
			}
		}
		return tftypes.NewValue(typ, out), nil
	}
	return tftypes.Value{}, fmt.Errorf("no value for type %s", typ)
}

// tfPathString spells a protocol attribute path as the table does; a set
// element is "[*]", since set elements have no index.
func tfPathString(p *tftypes.AttributePath) string {
	if p == nil {
		return "<no path>"
	}
	var b strings.Builder
	for _, step := range p.Steps() {
		switch s := step.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		case tftypes.ElementKeyValue:
			b.WriteString("[*]")
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(s))
		}
	}
	return b.String()
}

// specPathPattern is the table's attribute with set indexes written "[*]".
func specPathPattern(attr string) string {
	if rest, ok := strings.CutPrefix(attr, "permissions["); ok {
		if _, after, found := strings.Cut(rest, "]"); found {
			return "permissions[*]" + after
		}
	}
	return attr
}
