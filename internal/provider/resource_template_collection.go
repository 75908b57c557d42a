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

// newTemplateCollectionResource is flipbook_template_collection:
// collection.createFromTemplate, then collection.getCollection.
func newTemplateCollectionResource() resource.Resource {
	return newCollectionResource(collectionKind{
		typeSuffix: "template_collection",
		noun:       "template collection",
		title:      "Template Collection",
		description: "Generates a flipbook collection from templates (`collection.createFromTemplate`) and waits until the " +
			"generation finishes. Sections render in order: `static` sections render templates with values injected into their " +
			"layers, `blank` sections insert empty pages.",
		sections: templateSectionsAttribute,
		create:   createFromTemplate,
	})
}

func createFromTemplate(ctx context.Context, c *apiclient.Client, l types.List, title, folder string) (string, diag.Diagnostics, error) {
	sections, diags := sectionsFromList[templateSectionModel](ctx, l)
	if diags.HasError() {
		return "", diags, nil
	}
	hash, err := c.CreateFromTemplate(ctx, apiclient.CreateFromTemplateInput{
		Sections: templateSectionsToAPI(sections), Title: title, Folder: folder,
	})
	return hash, diags, err
}

func templateSectionsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		MarkdownDescription: "The sections to render, in order; at least one must be `static`. Changing them replaces the collection.",
		// Spec, createFromTemplate: `sections` is a "non-empty array of static/blank sections with at least one static".
		Validators: []validator.List{listvalidator.SizeAtLeast(1), staticSectionRequired{}},
		NestedObject: schema.NestedAttributeObject{
			Validators: []validator.Object{templateSectionValidator{}},
			Attributes: map[string]schema.Attribute{
				"type": schema.StringAttribute{
					MarkdownDescription: "`static` renders `templates`; `blank` inserts `page_count` empty pages.",
					Required:            true,
					// Spec, section table: `sectionType` is "`static`, `blank` (createFromTemplate)".
					Validators: []validator.String{stringvalidator.OneOf(sectionStatic, sectionBlank)},
				},
				"page_break": schema.BoolAttribute{
					MarkdownDescription: "Start the section on a new page. The service's default is `false`.",
					Optional:            true,
				},
				"templates": schema.ListNestedAttribute{
					MarkdownDescription: "`static` only, required there: the templates to render, in order.",
					Optional:            true,
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"template_hash": schema.StringAttribute{
							MarkdownDescription: "The template's hash.",
							Required:            true,
							Validators:          emptyStringWarning(),
						},
						"pages": schema.ListAttribute{
							MarkdownDescription: "Zero-based indexes into the template's pages, rendered in this order. Omit it to " +
								"render every page; indexes beyond the template's last page are skipped by the service.",
							ElementType: types.Int64Type,
							Optional:    true,
							Validators: []validator.List{
								emptyListWarning("An empty pages list is sent as no list, and the spec reads an omitted " +
									"templatePages as all pages: the template renders every page. Omit pages to say so."),
								listvalidator.ValueInt64sAre(int64Warning(0, "Indexes are zero-based; the spec says "+
									"\"invalid indexes are skipped\", so this entry renders no page.")),
							},
						},
					}},
				},
				"elements": schema.ListNestedAttribute{
					MarkdownDescription: "`static` only: values injected into the templates' layers.",
					Optional:            true,
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"name": schema.StringAttribute{
							MarkdownDescription: "The label of the layer to fill.",
							Required:            true,
							Validators:          emptyStringWarning(),
						},
						"value": schema.StringAttribute{
							MarkdownDescription: "Text or a URL. Exactly one of `value` and `values` is required.",
							Optional:            true,
							Validators: []validator.String{
								// Spec, section table: an element's `value` is "string or string[]", one of them.
								stringvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("values")),
							},
						},
						"values": schema.ListAttribute{
							MarkdownDescription: "A list of media URLs. Exactly one of `value` and `values` is required.",
							ElementType:         types.StringType,
							Optional:            true,
						},
					}},
				},
				"page_count": schema.Int64Attribute{
					MarkdownDescription: "`blank` only: how many empty pages to insert. The service's default is 1.",
					Optional:            true,
					Validators: []validator.Int64{int64Warning(1, "The spec gives pageCount as \"Blank pages to insert; "+
						"default 1\" and does not say what the service does with fewer than one; this is a guess, so the plan goes ahead.")},
				},
			},
		},
	}
}
