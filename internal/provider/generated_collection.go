package provider

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/planmodifiers"
)

var (
	_ resource.Resource                = (*collectionResource)(nil)
	_ resource.ResourceWithConfigure   = (*collectionResource)(nil)
	_ resource.ResourceWithImportState = (*collectionResource)(nil)
	_ resource.ResourceWithIdentity    = (*collectionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*collectionResource)(nil)
)

// This file holds what flipbook_template_collection and flipbook_catalog
// share: the API can create and read a generated collection but neither
// update nor delete it, so the two differ only in their sections and in the
// create call.

// defaultCreateTimeout bounds a generation when timeouts.create is unset.
const defaultCreateTimeout = 30 * time.Minute

// collectionKind is what differs between the two generated collection types.
type collectionKind struct {
	typeSuffix  string // "catalog"
	noun        string // "catalog", for sentences
	title       string // "Catalog", for diagnostic summaries
	description string // the resource's MarkdownDescription
	sections    func() schema.ListNestedAttribute
	// create converts the planned sections and queues the generation.
	create func(ctx context.Context, c *apiclient.Client, sections types.List, title, folder string) (string, diag.Diagnostics, error)
}

type collectionResource struct {
	resourceBase
	kind collectionKind
}

func newCollectionResource(kind collectionKind) resource.Resource {
	return &collectionResource{resourceBase: resourceBase{typeSuffix: kind.typeSuffix, identity: generatedCollectionIdentity}, kind: kind}
}

type collectionResourceModel struct {
	ID       types.String `tfsdk:"id"`
	Title    types.String `tfsdk:"title"`
	Folder   types.String `tfsdk:"folder"`
	Sections types.List   `tfsdk:"sections"`
	collectionAttrsModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// sectionsPath marks a state written by Terraform: sections is required, so
// only an import leaves it null.
var sectionsPath = path.Root("sections")

// The modifiers that decide which changes replace a collection. The schema
// and ModifyPlan share them, so the replacement warning follows the very
// decision the framework makes.
var (
	replaceUnlessImported = planmodifiers.RequiresReplaceUnlessImported(sectionsPath)
	// The service compares folders without case: a change of case alone is
	// stored in place.
	folderReplaceUnlessImported = replaceUnlessImported.CaseInsensitive()
)

func (r *collectionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	sections := r.kind.sections()
	sections.Required = true
	sections.PlanModifiers = []planmodifier.List{replaceUnlessImported}

	tmo := timeoutsAttribute(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: "How long to wait for the generation to finish, such as `\"45m\"`; default `\"30m\"`. " +
			"A generation still running at the deadline leaves the resource tainted in state with its hash.",
	}, "Operation timeouts. Only `create` applies: the API has no update or delete operation. "+
		"Changing it never replaces the resource.", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	attributes := collectionAttributes(resourceKit)
	maps.Copy(attributes, map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "The collection hash. It stays temporary while the collection is `editable`: publishing it " +
				"issues a new hash, after which this one is gone (import the new one).",
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"title": schema.StringAttribute{
			MarkdownDescription: "The collection's title. Changing it replaces the collection.",
			Optional:            true,
			PlanModifiers:       []planmodifier.String{replaceUnlessImported},
		},
		"folder": schema.StringAttribute{
			MarkdownDescription: "The folder to create the collection in, such as `\"Marketing/2026/Spring\"`: up to three " +
				"levels separated by `/`, no leading or trailing `/`; names use English letters, digits and spaces and begin " +
				"and end with a letter or digit. Missing folders are created. Unset means the root folder. " +
				"Changing it replaces the collection, except a change of letter case alone: the service compares folders " +
				"without case, so that change is stored in place.",
			Optional:      true,
			Validators:    []validator.String{folderValidator{}},
			PlanModifiers: []planmodifier.String{folderReplaceUnlessImported},
		},
		"sections": sections,
		"timeouts": tmo,
	})
	resp.Schema = schema.Schema{
		MarkdownDescription: r.kind.description + "\n\n" +
			"The API has no update and no delete operation for generated collections: changing `title`, `folder` or `sections` " +
			"creates a new collection, and destroying the resource only removes it from Terraform's state (the collection stays " +
			"in the account). An imported collection adopts the configuration of its first apply without replacement, since the " +
			"service cannot report the sections it was generated from.",
		Attributes: attributes,
	}
}

func (r *collectionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.setIdentity(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan collectionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, plan.Timeouts.Create, defaultCreateTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	hash, diags, err := r.kind.create(ctx, r.client, plan.Sections, plan.Title.ValueString(), plan.Folder.ValueString())
	resp.Diagnostics.Append(diags...)
	switch {
	case apiclient.IsOutcomeUnknown(err):
		addAPIError(&resp.Diagnostics, r.kind.title+" May Exist Without Being In State",
			r.creating(plan.Title.ValueString(), plan.Folder.ValueString()), err)
	case err != nil:
		addGenerationError(&resp.Diagnostics, "Error Creating "+r.kind.title, "creating the "+r.kind.noun, err, r.kind.typeSuffix == "catalog")
	}
	if resp.Diagnostics.HasError() {
		return
	}

	// Record the hash before waiting: if the generation fails or outlives the
	// deadline, Terraform keeps the resource (tainted) instead of losing track
	// of a collection that exists in the account.
	plan.ID = types.StringValue(hash)
	started := plan
	started.nullUnknowns()
	resp.Diagnostics.Append(resp.State.Set(ctx, &started)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = tflog.SetField(ctx, "collection_hash", hash)
	tflog.Info(ctx, "generation queued; waiting for it to finish")

	col, err := r.client.WaitForGeneration(ctx, hash, progressLogger(ctx))
	if err != nil {
		addAPIError(&resp.Diagnostics, r.kind.title+" Generation Did Not Complete",
			fmt.Sprintf("waiting for the generation of %s %s (it stays in state, tainted, so that the next apply replaces it)", r.kind.noun, hash), err)
		return
	}
	resp.Diagnostics.Append(plan.fill(col)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *collectionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readFromCollection(ctx, &r.resourceBase, req, resp, func(m *collectionResourceModel) collectionRead {
		return r.read(m.ID.ValueString())
	}, func(m *collectionResourceModel, col *apiclient.Collection, resp *resource.ReadResponse) bool {
		resp.Diagnostics.Append(m.fill(col)...)
		return true
	})
}

// read is this resource's Read path for collection hash.
func (r *collectionResource) read(hash string) collectionRead {
	return collectionRead{hash: hash, what: "the " + r.kind.noun, summary: "Error Reading " + r.kind.title,
		doing: fmt.Sprintf("reading %s %s", r.kind.noun, hash),
		advice: "If the collection was published, publishing replaced its temporary hash with a final one: import the new " +
			"hash (an import block or `terraform import`) to keep managing it instead of generating another."}
}

// Update only runs when nothing requires replacement: a changed timeouts
// value, or the first configuration of an imported collection. Neither needs
// an API change; the computed values are refreshed.
func (r *collectionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.setIdentity(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan collectionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rd := r.read(plan.ID.ValueString())
	col, err := r.client.GetCollection(ctx, rd.hash)
	if err != nil {
		addAPIError(&resp.Diagnostics, rd.summary, rd.doing, err)
		return
	}
	resp.Diagnostics.Append(plan.fill(col)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the resource from state only: the API cannot delete a
// collection.
func (r *collectionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var hash types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &hash)...)
	resp.Diagnostics.AddWarning("Flipbook Collection Kept In The Account", r.keptDetail(hash.ValueString()))
}

// creating says what a create tried to make, so that after a lost answer
// the user can look for it: none of the operations the spec lists finds a
// collection by its title.
func (r *collectionResource) creating(title, folder string) string {
	if title == "" {
		title = "(no title)"
	} else {
		title = fmt.Sprintf("%q", title)
	}
	if folder == "" {
		folder = "the root folder"
	} else {
		folder = fmt.Sprintf("folder %q", folder)
	}
	return fmt.Sprintf("creating the %s titled %s in %s", r.kind.noun, title, folder)
}

func (r *collectionResource) keptDetail(hash string) string {
	return destroyKeepsDetail("delete a collection", fmt.Sprintf("the %s %s stays in the account. Delete it in the "+
		"Flipbook web application if it is no longer needed.", r.kind.noun, hash))
}

// ModifyPlan says at plan time what destroy and adoption will and will not do.
func (r *collectionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	if req.Plan.Raw.IsNull() {
		var hash types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &hash)...)
		resp.Diagnostics.AddWarning("Destroy Keeps The Flipbook Collection", r.keptDetail(hash.ValueString()))
		return
	}
	var state, plan collectionResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.Sections.IsNull() {
		tflog.Info(ctx, "adopting the configuration of an imported collection without replacement", map[string]any{
			"collection_hash": state.ID.ValueString(),
		})
		return
	}
	replace, diags := requiresReplacement(ctx, req, state, plan)
	resp.Diagnostics.Append(diags...)
	if replace {
		resp.Diagnostics.AddWarning("Replacement Keeps The Old Flipbook Collection",
			fmt.Sprintf("The API cannot change a generated collection, so this change generates a new %s. The current one, %s, "+
				"stays in the account: delete it in the Flipbook web application if it is no longer needed.",
				r.kind.noun, state.ID.ValueString()))
	}
}

// requiresReplacement reports whether the plan replaces the collection, by
// running the attribute plan modifiers the schema holds: the framework runs
// them before ModifyPlan but does not pass their RequiresReplace on. They
// decide from the state and the plan alone.
func requiresReplacement(ctx context.Context, req resource.ModifyPlanRequest, state, plan collectionResourceModel) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	replaceString := func(at path.Path, m planmodifier.String, was, now types.String) bool {
		resp := planmodifier.StringResponse{PlanValue: now}
		m.PlanModifyString(ctx, planmodifier.StringRequest{Path: at, State: req.State, Plan: req.Plan, StateValue: was, PlanValue: now}, &resp)
		diags.Append(resp.Diagnostics...)
		return resp.RequiresReplace
	}
	sections := planmodifier.ListResponse{PlanValue: plan.Sections}
	replaceUnlessImported.PlanModifyList(ctx, planmodifier.ListRequest{Path: sectionsPath, State: req.State, Plan: req.Plan,
		StateValue: state.Sections, PlanValue: plan.Sections}, &sections)
	diags.Append(sections.Diagnostics...)
	replace := replaceString(path.Root("title"), replaceUnlessImported, state.Title, plan.Title)
	replace = replaceString(path.Root("folder"), folderReplaceUnlessImported, state.Folder, plan.Folder) || replace
	return replace || sections.RequiresReplace, diags
}

func (r *collectionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.importIDFromIdentity(ctx, &req, &resp.Diagnostics) {
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
