package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// newCatalogResource is flipbook_catalog: collection.createCatalog, then
// collection.getCollection.
func newCatalogResource() resource.Resource {
	return newCollectionResource(collectionKind{
		typeSuffix: "catalog",
		noun:       "catalog",
		title:      "Catalog",
		description: "Generates a product catalog from feeds (`collection.createCatalog`) and waits until the generation " +
			"finishes. Each section lays out the products of its feeds that pass the filters, sorted and grouped, with the " +
			"section's template.",
		sections: catalogSectionsAttribute,
		create:   createCatalog,
	})
}

func createCatalog(ctx context.Context, c *apiclient.Client, l types.List, title, folder string) (string, diag.Diagnostics, error) {
	sections, diags := sectionsFromList[catalogSectionModel](ctx, l)
	if diags.HasError() {
		return "", diags, nil
	}
	hash, err := c.CreateCatalog(ctx, apiclient.CreateCatalogInput{
		Sections: catalogSectionsToAPI(sections), Title: title, Folder: folder,
	})
	return hash, diags, err
}

func catalogSectionsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		MarkdownDescription: "The catalog's feed sections, in order. Changing them replaces the catalog.",
		// Spec, createCatalog: `sections` is a "non-empty array of feed sections".
		Validators: []validator.List{listvalidator.SizeAtLeast(1)},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"sources": schema.ListAttribute{
				MarkdownDescription: "Hashes of the product feeds to lay out, at least one.",
				ElementType:         types.StringType,
				Required:            true,
				Validators: []validator.List{
					// Spec, section table: feed `sources` "Required: yes" (an empty list is sent as none).
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(emptyStringWarning()...),
				},
			},
			"template_hash": schema.StringAttribute{
				MarkdownDescription: "The template that lays out the products (the service uses one template per feed section).",
				Required:            true,
				Validators:          emptyStringWarning(),
			},
			"group_by": schema.ListNestedAttribute{
				MarkdownDescription: "Groups products by field values, the first entry outermost.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"field": schema.StringAttribute{
						MarkdownDescription: "The feed column to group by.",
						Required:            true,
						Validators:          emptyStringWarning(),
					},
					"page_break": schema.BoolAttribute{
						MarkdownDescription: "Start each group on a new page. Default `false`.",
						Optional:            true,
					},
				}},
			},
			"sort_by": schema.ListNestedAttribute{
				MarkdownDescription: "Sort keys, the first entry primary.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"field": schema.StringAttribute{
						MarkdownDescription: "The feed column to sort by.",
						Required:            true,
						Validators:          emptyStringWarning(),
					},
					"order": schema.StringAttribute{
						MarkdownDescription: "`asc` or `desc`. Exactly one of `order` and `custom_order` is required.",
						Optional:            true,
						Validators: []validator.String{
							// Spec, section table: sortBy "`order` is `asc`, `desc`, or a list".
							stringvalidator.OneOf("asc", "desc"),
							stringvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("custom_order")),
						},
					},
					"custom_order": schema.ListAttribute{
						MarkdownDescription: "Field values in the order wanted; products whose value is not listed follow, in their " +
							"relative order. Exactly one of `order` and `custom_order` is required.",
						ElementType: types.StringType,
						Optional:    true,
						Validators: []validator.List{listvalidator.ValueStringsAre(emptyStringWarning()...), emptyListWarning(
							"An empty custom_order orders nothing. The spec does not say whether the service accepts an empty " +
								"custom order; this is a guess, so the plan goes ahead.")},
					},
				}},
			},
			"filters": schema.ListNestedAttribute{
				MarkdownDescription: "Filter blocks, applied in order, each to what the previous ones left.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"mode": schema.StringAttribute{
						MarkdownDescription: "`include` keeps the matching products; `exclude` removes them.",
						Required:            true,
						// Spec, filter block: "`mode` (required: `include` ... `exclude` ...)".
						Validators: []validator.String{stringvalidator.OneOf("include", "exclude")},
					},
					"match": schema.StringAttribute{
						MarkdownDescription: "`all` (every condition holds; the service's default) or `any` (at least one holds).",
						Optional:            true,
						// Spec, filter block: "`match` (optional: `all` = AND, `any` = OR; default `all`)".
						Validators: []validator.String{stringvalidator.OneOf("all", "any")},
					},
					"conditions": schema.ListNestedAttribute{
						MarkdownDescription: "The block's conditions, at least one.",
						Required:            true,
						Validators: []validator.List{emptyListWarning("A filter block without conditions is sent " +
							"with an empty conditions list. The spec calls conditions a \"required array\" but does not say whether " +
							"it may be empty; this is a guess, so the plan goes ahead.")},
						NestedObject: schema.NestedAttributeObject{
							Validators: []validator.Object{conditionValidator{}},
							Attributes: map[string]schema.Attribute{
								"field": schema.StringAttribute{
									MarkdownDescription: "The feed column to compare; `sku` matches SKUs.",
									Required:            true,
									Validators:          emptyStringWarning(),
								},
								"operator": schema.StringAttribute{
									MarkdownDescription: "One of `in`, `nin` (list membership), `eq`, `ne`, `contains` (text), " +
										"`lt`, `lte`, `gt`, `gte` (numeric comparison), `between` (inclusive numeric range).",
									Required: true,
									// Spec, operator table: the operators are in, nin, eq, ne, lt, lte, gt, gte, between, contains.
									Validators: []validator.String{stringvalidator.OneOf(filterOperators...)},
								},
								"value": schema.StringAttribute{
									MarkdownDescription: "The operand of `eq`, `ne`, `contains`, and of `lt`, `lte`, `gt`, `gte` " +
										"(a numeric string such as `\"10\"`).",
									Optional: true,
								},
								"values": schema.ListAttribute{
									MarkdownDescription: "The operands of `in` and `nin` (at least one), or of `between` " +
										"(exactly two numeric strings, `[min, max]`).",
									ElementType: types.StringType,
									Optional:    true,
								},
							},
						},
					},
				}},
			},
		}},
	}
}
