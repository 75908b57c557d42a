package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ resource.Resource                = (*collectionBackgroundResource)(nil)
	_ resource.ResourceWithConfigure   = (*collectionBackgroundResource)(nil)
	_ resource.ResourceWithImportState = (*collectionBackgroundResource)(nil)
	_ resource.ResourceWithIdentity    = (*collectionBackgroundResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*collectionBackgroundResource)(nil)
)

func newCollectionBackgroundResource() resource.Resource {
	return &collectionBackgroundResource{resourceBase{objectBase: objectBase{typeSuffix: "collection_background"}, identity: attachedIdentity}}
}

type collectionBackgroundResource struct {
	resourceBase
}

type collectionBackgroundModel struct {
	ID                    types.String `tfsdk:"id"`
	CollectionHash        types.String `tfsdk:"collection_hash"`
	Triggers              types.Map    `tfsdk:"triggers"`
	BackgroundColor       types.String `tfsdk:"background_color"`
	TransparentBackground types.Bool   `tfsdk:"transparent_background"`
}

func (r *collectionBackgroundResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Declares that a collection's player shows no background image: creating the resource calls " +
			"`collection.deleteBackgroundImage`.\n\n" +
			"What refresh can see: `collection.getCollection` reports the background colour and whether the background is " +
			"transparent, and they are kept up to date in `background_color` and `transparent_background`; it does **not** " +
			"report whether a background image is set. An image added again in the web application is therefore invisible " +
			"to Terraform. To remove it again, change a value in `triggers` (or run `terraform apply -replace`).\n\n" +
			"The API has no operation that sets a background image, so destroying the resource only removes it from the " +
			"state (with a warning). A collection that no longer exists (for example, replaced by publishing) is removed " +
			"from the state with a warning. Import by collection hash.",
		Attributes: map[string]schema.Attribute{
			"id":              collectionIDAttribute(),
			"collection_hash": collectionHashAttribute("Hash of the collection whose background image is removed."),
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary values; any change removes the background image again. Use it when an " +
					"image may have been added back outside Terraform, which refresh cannot detect.",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"background_color": schema.StringAttribute{
				MarkdownDescription: "The background colour the player shows instead (the service's " +
					"`settings.backgroundColor`, a hexadecimal colour), as last read.",
				Computed: true,
			},
			"transparent_background": schema.BoolAttribute{
				MarkdownDescription: "Whether the player's background is transparent (then `background_color` is ignored), as last read.",
				Computed:            true,
			},
		},
	}
}

func (r *collectionBackgroundResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createWith(ctx, &r.resourceBase, req, resp, func(plan *collectionBackgroundModel) {
		hash := plan.CollectionHash.ValueString()
		col, err := r.client.DeleteBackgroundImage(ctx, hash, apiclient.ResponseFormat{})
		if err != nil {
			addCollectionAPIError(&resp.Diagnostics, "Error Removing Background Image", "removing the background image of collection "+hash, err)
			return
		}
		plan.ID = types.StringValue(hash)
		applyBackground(plan, col)
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
}

func applyBackground(m *collectionBackgroundModel, col *apiclient.Collection) {
	m.BackgroundColor = types.StringNull()
	if c := col.Settings.BackgroundColor; c != "" {
		m.BackgroundColor = types.StringValue(c)
	}
	m.TransparentBackground = types.BoolNull()
	if t := col.Settings.TransparentBackground; t.Valid {
		m.TransparentBackground = types.BoolValue(t.Value)
	}
}

func (r *collectionBackgroundResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readFromCollection(ctx, &r.resourceBase, req, resp, func(m *collectionBackgroundModel) collectionRead {
		return collectionRead{hash: m.CollectionHash.ValueString(), what: "its background setting", summary: "Error Reading Background"}
	}, func(m *collectionBackgroundModel, col *apiclient.Collection, _ *resource.ReadResponse) bool {
		m.ID = types.StringValue(m.CollectionHash.ValueString())
		applyBackground(m, col)
		return true
	})
}

// ModifyPlan lets a collection published under a new hash be followed there
// in place (collection_refused_or_moved.go).
func (r *collectionBackgroundResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !planAttached(ctx, r.client, req, resp, "its background setting") {
		return
	}
	var plan collectionBackgroundModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	plan.ID = plan.CollectionHash
	plan.BackgroundColor = types.StringUnknown()
	plan.TransparentBackground = types.BoolUnknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// Update runs only to follow the collection to the new hash publishing gave
// it (every other input replaces): publishing keeps the player settings, so
// the collection is read there and nothing is sent.
func (r *collectionBackgroundResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateWith(ctx, &r.resourceBase, req, resp, func(plan, _ *collectionBackgroundModel) {
		hash := plan.CollectionHash.ValueString()
		col, err := r.client.GetCollection(ctx, hash)
		if err != nil {
			addCollectionAPIError(&resp.Diagnostics, "Error Reading Background", "reading collection "+hash, err)
			return
		}
		plan.ID = plan.CollectionHash
		applyBackground(plan, col)
		rememberRefusal(ctx, resp.Private, nil, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
}

func (r *collectionBackgroundResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state collectionBackgroundModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Background Image Not Restored", destroyKeepsDetail("set a background image", fmt.Sprintf(
		"collection %s keeps showing no background image. Set one in the Flipbook web application if it should show one again.",
		state.CollectionHash.ValueString())))
}
