package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file maps the sections of the generated collection resources
// (flipbook_template_collection, flipbook_catalog) to the apiclient types of
// their create calls. It knows nothing of schemas or requests, so that it can
// be tested as plain Go.

// Section models. Lists inside a section are Go slices: sections are only
// converted at apply time, when every value is known.

type templateSectionModel struct {
	Type      types.String       `tfsdk:"type"`
	PageBreak types.Bool         `tfsdk:"page_break"`
	Templates []templateRefModel `tfsdk:"templates"`
	Elements  []elementModel     `tfsdk:"elements"`
	PageCount types.Int64        `tfsdk:"page_count"`
}

type templateRefModel struct {
	TemplateHash types.String `tfsdk:"template_hash"`
	Pages        []int64      `tfsdk:"pages"`
}

type elementModel struct {
	Name   types.String `tfsdk:"name"`
	Value  types.String `tfsdk:"value"`
	Values []string     `tfsdk:"values"`
}

type catalogSectionModel struct {
	Sources      []string       `tfsdk:"sources"`
	TemplateHash types.String   `tfsdk:"template_hash"`
	GroupBy      []groupByModel `tfsdk:"group_by"`
	SortBy       []sortByModel  `tfsdk:"sort_by"`
	Filters      []filterModel  `tfsdk:"filters"`
}

type groupByModel struct {
	Field     types.String `tfsdk:"field"`
	PageBreak types.Bool   `tfsdk:"page_break"`
}

type sortByModel struct {
	Field       types.String `tfsdk:"field"`
	Order       types.String `tfsdk:"order"`
	CustomOrder []string     `tfsdk:"custom_order"`
}

type filterModel struct {
	Mode       types.String     `tfsdk:"mode"`
	Match      types.String     `tfsdk:"match"`
	Conditions []conditionModel `tfsdk:"conditions"`
}

type conditionModel struct {
	Field    types.String `tfsdk:"field"`
	Operator types.String `tfsdk:"operator"`
	Value    types.String `tfsdk:"value"`
	Values   []string     `tfsdk:"values"`
}

// templateSectionsToAPI shapes createFromTemplate's sections as the spec
// does: fields that do not belong to a section's type are left out, and an
// unset page_break or page_count is left to the service's default.
func templateSectionsToAPI(sections []templateSectionModel) []apiclient.Section {
	out := make([]apiclient.Section, 0, len(sections))
	for _, s := range sections {
		sec := apiclient.Section{Type: s.Type.ValueString(), PageBreak: optionalBoolPtr(s.PageBreak)}
		switch sec.Type {
		case apiclient.SectionStatic:
			for _, t := range s.Templates {
				ref := apiclient.TemplateRef{TemplateHash: t.TemplateHash.ValueString()}
				for _, p := range t.Pages {
					ref.Pages = append(ref.Pages, int(p))
				}
				sec.Templates = append(sec.Templates, ref)
			}
			for _, e := range s.Elements {
				el := apiclient.Element{Name: e.Name.ValueString(), Value: apiclient.List(e.Values...)}
				if !e.Value.IsNull() {
					el.Value = apiclient.String(e.Value.ValueString())
				}
				sec.Elements = append(sec.Elements, el)
			}
		case apiclient.SectionBlank:
			if !s.PageCount.IsNull() {
				n := int(s.PageCount.ValueInt64())
				sec.PageCount = &n
			}
		}
		out = append(out, sec)
	}
	return out
}

// catalogSectionsToAPI shapes createCatalog's feed sections. The one
// template_hash becomes the spec's templates list; sort_by's order or
// custom_order becomes the spec's order string or list; in, nin and between
// send their values as a list, the other operators a single string.
func catalogSectionsToAPI(sections []catalogSectionModel) []apiclient.Section {
	out := make([]apiclient.Section, 0, len(sections))
	for _, s := range sections {
		sec := apiclient.Section{
			Type:      apiclient.SectionFeed,
			Templates: []apiclient.TemplateRef{{TemplateHash: s.TemplateHash.ValueString()}},
		}
		for _, src := range s.Sources {
			sec.Sources = append(sec.Sources, apiclient.SourceRef{SourceHash: src})
		}
		for _, g := range s.GroupBy {
			sec.GroupBy = append(sec.GroupBy, apiclient.GroupBy{Field: g.Field.ValueString(), PageBreak: g.PageBreak.ValueBool()})
		}
		for _, o := range s.SortBy {
			sort := apiclient.SortBy{Field: o.Field.ValueString(), Order: apiclient.List(o.CustomOrder...)}
			if !o.Order.IsNull() {
				sort.Order = apiclient.String(o.Order.ValueString())
			}
			sec.SortBy = append(sec.SortBy, sort)
		}
		for _, f := range s.Filters {
			block := apiclient.FilterBlock{Mode: f.Mode.ValueString(), Match: f.Match.ValueString()}
			for _, c := range f.Conditions {
				cond := apiclient.Condition{Field: c.Field.ValueString(), Operator: c.Operator.ValueString()}
				if oneOf(cond.Operator, listOperators) || cond.Operator == "between" {
					cond.Value = apiclient.List(c.Values...)
				} else {
					cond.Value = apiclient.String(c.Value.ValueString())
				}
				block.Conditions = append(block.Conditions, cond)
			}
			sec.Filters = append(sec.Filters, block)
		}
		out = append(out, sec)
	}
	return out
}

func optionalBoolPtr(b types.Bool) *bool {
	if b.IsNull() || b.IsUnknown() {
		return nil
	}
	v := b.ValueBool()
	return &v
}

// sectionsFromList converts a known sections list into its Go models.
func sectionsFromList[T any](ctx context.Context, l types.List) ([]T, diag.Diagnostics) {
	var out []T
	diags := l.ElementsAs(ctx, &out, false)
	return out, diags
}
