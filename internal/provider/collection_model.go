package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file maps between Terraform models and apiclient types for the
// collection resources and the flipbook_collection data source. It knows
// nothing of schemas or requests, so that it can be tested as plain Go.

// itemAttrTypes is one entry of the computed items list.
var itemAttrTypes = map[string]attr.Type{
	"flipbook_hash":  types.StringType,
	"title":          types.StringType,
	"description":    types.StringType,
	"page_count":     types.Int64Type,
	"extension":      types.StringType,
	"convert_status": types.StringType,
}

var itemObjectType = types.ObjectType{AttrTypes: itemAttrTypes}

// settingsAttrTypes is the data source's settings object: the spec's player
// settings in snake_case, without the fields the spec marks deprecated in
// collection.getCollection (logoUrl and the share* options), which carry no
// valid value there.
var settingsAttrTypes = map[string]attr.Type{
	"collection_width":          types.Int64Type,
	"collection_height":         types.Int64Type,
	"collection_status":         types.StringType,
	"enable_download":           types.BoolType,
	"enable_full_screen":        types.BoolType,
	"enable_search":             types.BoolType,
	"tooltips_language":         types.StringType,
	"transparent_background":    types.BoolType,
	"background_color":          types.StringType,
	"background_scale_type":     types.StringType,
	"auto_flip":                 types.BoolType,
	"auto_flip_delay":           types.Int64Type,
	"right_to_left_orientation": types.BoolType,
	"single_page_view":          types.BoolType,
	"logo_image":                types.StringType,
}

// collectionAttrsModel holds the computed attributes every collection object
// shares; resource and data source models embed it.
type collectionAttrsModel struct {
	Status      types.String `tfsdk:"status"`
	PageCount   types.Int64  `tfsdk:"page_count"`
	Description types.String `tfsdk:"description"`
	CoverImage  types.String `tfsdk:"cover_image"`
	DirectLink  types.String `tfsdk:"direct_link"`
	CreatedDate types.String `tfsdk:"created_date"`
	PublishDate types.String `tfsdk:"publish_date"`
	Items       types.List   `tfsdk:"items"`
}

// fill replaces every computed attribute with what the service reported.
// Absent values (an empty string, a number the service left out) become null
// rather than a misleading "" or 0.
func (m *collectionAttrsModel) fill(c *apiclient.Collection) diag.Diagnostics {
	m.Status = optionalString(c.CollectionStatus)
	m.PageCount = optionalInt(c.CollectionPageCount)
	m.Description = optionalString(c.CollectionDescription)
	m.CoverImage = optionalString(c.CoverImage)
	m.DirectLink = optionalString(c.DirectLink)
	m.CreatedDate = optionalString(c.CreatedDate)
	m.PublishDate = optionalString(c.PublishDate)
	var diags diag.Diagnostics
	m.Items, diags = itemsValue(c.CollectionItems)
	return diags
}

// collectionFlipbookModel is the collection object's flipbookPageCount and
// flipbookStatus. Only the data source exposes them: the resources already
// report pages and conversion per item.
type collectionFlipbookModel struct {
	FlipbookPageCount types.Int64  `tfsdk:"flipbook_page_count"`
	FlipbookStatus    types.String `tfsdk:"flipbook_status"`
}

func (m *collectionFlipbookModel) fillFlipbook(c *apiclient.Collection) {
	m.FlipbookPageCount = optionalInt(c.FlipbookPageCount)
	m.FlipbookStatus = optionalString(c.FlipbookStatus)
}

// nullUnknowns turns the attributes still unknown after a failed create into
// nulls: state may not hold unknown values.
func (m *collectionAttrsModel) nullUnknowns() {
	for _, s := range []*types.String{&m.Status, &m.Description, &m.CoverImage, &m.DirectLink, &m.CreatedDate, &m.PublishDate} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.PageCount.IsUnknown() {
		m.PageCount = types.Int64Null()
	}
	if m.Items.IsUnknown() {
		m.Items = types.ListNull(itemObjectType)
	}
}

func itemsValue(items []apiclient.CollectionItem) (types.List, diag.Diagnostics) {
	elems := make([]attr.Value, 0, len(items))
	var diags diag.Diagnostics
	for _, it := range items {
		obj, d := types.ObjectValue(itemAttrTypes, map[string]attr.Value{
			"flipbook_hash":  optionalString(it.FlipbookHash),
			"title":          optionalString(it.FlipbookTitle),
			"description":    optionalString(it.FlipbookDescription),
			"page_count":     optionalInt(it.FlipbookPageCount),
			"extension":      optionalString(it.Extension),
			"convert_status": optionalString(it.ConvertStatus),
		})
		diags.Append(d...)
		elems = append(elems, obj)
	}
	list, d := types.ListValue(itemObjectType, elems)
	diags.Append(d...)
	return list, diags
}

func settingsValue(s apiclient.Settings) (types.Object, diag.Diagnostics) {
	return types.ObjectValue(settingsAttrTypes, map[string]attr.Value{
		"collection_width":          optionalInt(s.CollectionWidth),
		"collection_height":         optionalInt(s.CollectionHeight),
		"collection_status":         optionalString(s.CollectionStatus),
		"enable_download":           optionalBool(s.EnableDownload),
		"enable_full_screen":        optionalBool(s.EnableFullScreen),
		"enable_search":             optionalBool(s.EnableSearch),
		"tooltips_language":         optionalString(s.TooltipsLanguage),
		"transparent_background":    optionalBool(s.TransparentBackground),
		"background_color":          optionalString(s.BackgroundColor),
		"background_scale_type":     optionalString(s.BackgroundScaleType),
		"auto_flip":                 optionalBool(s.AutoFlip),
		"auto_flip_delay":           optionalInt(s.AutoFlipDelay),
		"right_to_left_orientation": optionalBool(s.RightToLeftOrientation),
		"single_page_view":          optionalBool(s.SinglePageView),
		"logo_image":                optionalString(s.LogoImage),
	})
}

func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func optionalInt(n apiclient.Int) types.Int64 {
	if !n.Valid {
		return types.Int64Null()
	}
	return types.Int64Value(n.Value)
}

func optionalBool(b apiclient.Bool) types.Bool {
	if !b.Valid {
		return types.BoolNull()
	}
	return types.BoolValue(b.Value)
}

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
