package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
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
	return &collectionResource{resourceBase: resourceBase{objectBase: objectBase{typeSuffix: kind.typeSuffix}, identity: generatedCollectionIdentity}, kind: kind}
}

type collectionResourceModel struct {
	ID            types.String `tfsdk:"id"`
	PublishedHash types.String `tfsdk:"published_hash"`
	Title         types.String `tfsdk:"title"`
	Folder        types.String `tfsdk:"folder"`
	Sections      types.List   `tfsdk:"sections"`
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
	// The service reports the title (collectionTitle), so an imported
	// collection is held to it too: only a configured title that differs
	// from the service's replaces.
	titleReplaceIfDiffers = stringplanmodifier.RequiresReplaceIf(
		func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.ConfigValue.IsNull() && !req.StateValue.IsNull() && !req.StateValue.IsUnknown()
		},
		"Replaces the collection when the configured title differs from the one the service reports.",
		"Replaces the collection when the configured title differs from the one the service reports.")
)

func (r *collectionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	sections := r.kind.sections()
	sections.Required = true
	sections.PlanModifiers = []planmodifier.List{replaceUnlessImported}

	tmo := timeoutsAttribute(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: "How long to wait for the generation to finish, such as `\"45m\"`; default `\"30m\"`. " +
			"A generation still running at the deadline (or when Terraform is interrupted) is kept in state with status " +
			"`processing`, not tainted, with a warning: the next apply waits for it instead of generating another.",
	}, "Operation timeouts. Only `create` applies: the API has no update or delete operation. "+
		"Changing it never replaces the resource.", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	attributes := collectionAttributes(resourceKit)
	maps.Copy(attributes, map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "The collection hash. It stays temporary while the collection is `editable`: publishing it " +
				"issues a new hash, after which this one is gone (set `published_hash` to the new one).",
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"published_hash": schema.StringAttribute{
			MarkdownDescription: "The final hash the service issued when this collection was published in the web editor. " +
				"Set it when a plan reports that the collection's hash no longer exists (code 46): the resource, and every " +
				"resource whose `collection_hash` refers to its `id`, moves to this hash in place. Nothing is generated or " +
				"uploaded again, no access list is emptied and nobody is e-mailed. Keep it in the configuration afterwards (or " +
				"remove it: either plans nothing). On a resource not yet in the state it adopts that collection instead of " +
				"generating one.",
			Optional:      true,
			Computed:      true,
			Validators:    nonEmptyString(),
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"title": schema.StringAttribute{
			MarkdownDescription: "The collection's title. Unset, it is the title the service reports (`collectionTitle`). " +
				"A configured title that differs from the service's (changed here, renamed in the web application, or " +
				"imported) replaces the collection: the API cannot rename one.",
			Optional:      true,
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), titleReplaceIfDiffers},
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
	createWith(ctx, &r.resourceBase, req, resp, func(plan *collectionResourceModel) {
		if !plan.PublishedHash.IsNull() && !plan.PublishedHash.IsUnknown() {
			r.adopt(ctx, plan, resp)
			return
		}
		plan.PublishedHash = types.StringNull()
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

		// Record the hash before waiting: if the generation fails or the wait is
		// cut short, Terraform keeps the collection instead of losing track of
		// one that exists in the account.
		plan.ID = types.StringValue(hash)
		started := *plan
		started.nullUnknowns()
		if started.Title.IsUnknown() {
			started.Title = types.StringNull()
		}
		started.Status = types.StringValue(apiclient.CollectionProcessing)
		resp.Diagnostics.Append(resp.State.Set(ctx, &started)...)
		if resp.Diagnostics.HasError() {
			return
		}
		ctx = tflog.SetField(ctx, "collection_hash", hash)
		tflog.Info(ctx, "generation queued; waiting for it to finish")

		col, err := r.client.WaitForGeneration(ctx, hash, progressLogger(ctx))
		if waitCutShort(ctx, err) {
			if col != nil {
				resp.Diagnostics.Append(started.fillFrom(col)...)
				resp.Diagnostics.Append(resp.State.Set(ctx, &started)...)
			}
			resp.Diagnostics.AddWarning(r.kind.title+" Still Generating", r.cutShortDetail(hash, err))
			return
		}
		if err != nil {
			if col != nil {
				resp.Diagnostics.Append(started.fillFrom(col)...)
				resp.Diagnostics.Append(resp.State.Set(ctx, &started)...)
			}
			addAPIError(&resp.Diagnostics, r.kind.title+" Generation Did Not Complete",
				fmt.Sprintf("waiting for the generation of %s %s (it stays in state, tainted: the next apply generates a new "+
					"one, and %s stays in the account)", r.kind.noun, hash, hash), err)
			return
		}
		resp.Diagnostics.Append(plan.fillFrom(col)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
}

// waitCutShort reports whether a wait ended because Terraform stopped the
// provider (Ctrl-C) or the operation's deadline passed, rather than because
// the job ended: the job goes on in the service.
func waitCutShort(ctx context.Context, err error) bool {
	var job *apiclient.JobFailedError
	return err != nil && !errors.As(err, &job) && ctx.Err() != nil
}

// cutShortDetail is the warning of a create whose wait was cut short. It is
// a warning, not an error, because Terraform taints a resource whose create
// fails, and the next apply would then generate a second collection while
// the first one finishes.
func (r *collectionResource) cutShortDetail(hash string, err error) string {
	return fmt.Sprintf("%s while %s %s was still generating; the generation goes on in the service. The %s is kept "+
		"in the Terraform state with status \"processing\", not tainted. The next apply does not generate it again: it "+
		"reads it, and if it is still generating it waits for it (an in-place update, within timeouts.create); if it "+
		"finished, nothing changes; if the generation failed, the plan says so and replaces it (the failed one stays in "+
		"the account).", whyCutShort(err), r.kind.noun, hash, r.kind.noun)
}

// whyCutShort says what ended a wait waitCutShort reports.
func whyCutShort(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "The create deadline (timeouts.create) passed"
	}
	return "Terraform was interrupted (Ctrl-C)"
}

// adopt takes the collection published_hash names instead of generating one
// (the resource was not in the state: a moved or re-created configuration).
func (r *collectionResource) adopt(ctx context.Context, plan *collectionResourceModel, resp *resource.CreateResponse) {
	hash := plan.PublishedHash.ValueString()
	col := r.readAdopted(ctx, hash, plan.Title, &resp.Diagnostics)
	if col == nil {
		return
	}
	plan.ID = types.StringValue(hash)
	resp.Diagnostics.Append(plan.fillFrom(col)...)
	resp.Diagnostics.AddWarning(r.kind.title+" Adopted, Not Generated", fmt.Sprintf(
		"published_hash names collection %s, so this resource adopted it instead of generating a new %s. The service "+
			"cannot report the sections or folder a collection was generated from: the configured ones are recorded as "+
			"they are.", hash, r.kind.noun))
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// titleDiffers stops an adoption or a move to published_hash whose
// collection has another title than the configuration: the next plan would
// replace it (the API cannot rename), so the collection named is most likely
// not the one meant. Nothing has been changed when it does.
func titleDiffers(diags *diag.Diagnostics, configured types.String, col *apiclient.Collection, hash string) bool {
	return anotherTitle(diags, configured, col, hash, "this resource's title is %q. Nothing was changed: the next plan "+
		"would replace a collection with another title (the API cannot rename one), so it is most likely not the "+
		"collection meant. Check the hash; if it is the right collection, write title = %q (or remove title).")
}

// movedTitleDiffers is titleDiffers for a move of a resource whose
// configuration has no title: publishing keeps a collection's title, so the
// title in the state must be the collection's at its new hash.
func movedTitleDiffers(diags *diag.Diagnostics, stateTitle types.String, col *apiclient.Collection, hash string) bool {
	return anotherTitle(diags, stateTitle, col, hash, "this resource's collection is titled %q, and publishing keeps a "+
		"title. Nothing was changed: it is most likely not the collection meant. Check the hash; if it is the right "+
		"collection (renamed in the web editor), write title = %q in this resource block.")
}

// anotherTitle adds the error when col's title is not want (a known value);
// why holds the resource's title and the title to write, in that order.
func anotherTitle(diags *diag.Diagnostics, want types.String, col *apiclient.Collection, hash, why string) bool {
	if want.IsNull() || want.IsUnknown() || want.ValueString() == col.CollectionTitle {
		return false
	}
	diags.AddAttributeError(path.Root("published_hash"), "Published Hash Names Another Title",
		fmt.Sprintf("published_hash names collection %s, titled %q, but ", hash, col.CollectionTitle)+
			fmt.Sprintf(why, want.ValueString(), col.CollectionTitle))
	return true
}

func (r *collectionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readFromCollection(ctx, &r.resourceBase, req, resp, func(m *collectionResourceModel) collectionRead {
		return r.read(m.ID.ValueString())
	}, func(m *collectionResourceModel, col *apiclient.Collection, resp *resource.ReadResponse) bool {
		m.Title = types.StringNull()
		resp.Diagnostics.Append(m.fillFrom(col)...)
		failed := generationFailed(col)
		if failed {
			resp.Diagnostics.AddWarning(r.kind.title+" Generation Failed", fmt.Sprintf(
				"The service reports that the generation of %s %s failed (flipbookStatus %q). The next apply replaces it "+
					"with a newly generated one; %s stays in the account: delete it in the Flipbook web application.",
				r.kind.noun, m.ID.ValueString(), col.FlipbookStatus, m.ID.ValueString()))
		}
		rememberFailed(ctx, resp.Private, failed, &resp.Diagnostics)
		return true
	})
}

// fillFrom is fill plus the title the service reports, unless the plan
// already holds one (a configured title must come back as planned; the next
// Read shows the service's).
func (m *collectionResourceModel) fillFrom(col *apiclient.Collection) diag.Diagnostics {
	if m.Title.IsNull() || m.Title.IsUnknown() {
		m.Title = types.StringValue(col.CollectionTitle)
	}
	return m.fill(col)
}

// read is this resource's Read path for collection hash.
func (r *collectionResource) read(hash string) collectionRead {
	return collectionRead{hash: hash, what: "the " + r.kind.noun, summary: "Error Reading " + r.kind.title,
		doing: fmt.Sprintf("reading %s %s", r.kind.noun, hash)}
}

// Update never generates. It runs for a move to published_hash (the
// collection is read at its new hash), for a generation an interrupted
// create left running (it is waited for), and otherwise for changes the
// service does not hold (timeouts, the first configuration of an imported
// collection), which need no call at all: the plan already holds the values.
func (r *collectionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateWith(ctx, &r.resourceBase, req, resp, func(plan, state *collectionResourceModel) {
		hash := plan.ID.ValueString()
		switch {
		case hash != state.ID.ValueString():
			col := r.readMoveTarget(ctx, hash, plan.Title, state.Title, &resp.Diagnostics)
			if col == nil {
				return
			}
			resp.Diagnostics.Append(plan.fillFrom(col)...)
			rememberRefusal(ctx, resp.Private, nil, &resp.Diagnostics)
		case state.Status.ValueString() == apiclient.CollectionProcessing:
			ctx, cancel := withTimeout(ctx, plan.Timeouts.Create, defaultCreateTimeout, &resp.Diagnostics)
			defer cancel()
			if resp.Diagnostics.HasError() {
				return
			}
			tflog.Info(ctx, "waiting for a generation an earlier apply left running", map[string]any{"collection_hash": hash})
			col, err := r.client.WaitForGeneration(ctx, hash, progressLogger(ctx))
			if col != nil {
				resp.Diagnostics.Append(plan.fillFrom(col)...)
			} else {
				plan.collectionAttrsModel = state.collectionAttrsModel
				plan.Title = state.Title
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			if waitCutShort(ctx, err) {
				// As for a create: the job goes on, the next apply waits again.
				resp.Diagnostics.AddWarning(r.kind.title+" Still Generating", r.cutShortDetail(hash, err))
				return
			}
			if err != nil {
				// An update's error never taints: the collection stays as it is.
				addAPIError(&resp.Diagnostics, r.kind.title+" Generation Did Not Complete", fmt.Sprintf(
					"waiting for the generation of %s %s (it stays in state; the next plan reads it again and waits, or "+
						"replaces it if the generation failed)", r.kind.noun, hash), err)
			}
			return
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
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

// ModifyPlan says at plan time what destroy, adoption, a move to a
// published hash and a replacement will and will not do, and keeps every
// computed value known when the service will not change it.
func (r *collectionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		r.planAdoption(ctx, req, resp)
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
	hash := state.ID.ValueString()
	ref := refusalFrom(ctx, req.Private, &resp.Diagnostics)
	target := plan.PublishedHash
	moving := !target.IsUnknown() && !target.IsNull() && target.ValueString() != hash
	switch {
	case moving:
		if !ref.gone() {
			resp.Diagnostics.AddAttributeWarning(path.Root("published_hash"), "Collection Hash Still Answers", fmt.Sprintf(
				"published_hash names %s, but the collection in the state, %s, still answers: publishing would have made it "+
					"answer code 46. The resource moves to %s as configured; %s stays in the account, no longer managed here.",
				target.ValueString(), hash, target.ValueString(), hash))
		}
		plan.ID = target
		plan.unknown()
		var configTitle types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("title"), &configTitle)...)
		// The collection moved to is read now, so that a hash the service
		// does not know or a collection with another title stops the plan
		// instead of the apply.
		if r.client != nil && r.readMoveTarget(ctx, target.ValueString(), configTitle, state.Title, &resp.Diagnostics) == nil {
			return
		}
		if configTitle.IsNull() {
			plan.Title = types.StringUnknown()
		}
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	case ref.gone():
		resp.Diagnostics.AddAttributeError(path.Root("published_hash"), "Flipbook Collection Hash No Longer Exists",
			goneDetail(hash, "the "+r.kind.noun, publishedHashAdvice))
		return
	case ref.forbidden() && !req.Plan.Raw.Equal(req.State.Raw):
		resp.Diagnostics.AddError("Flipbook Collection Refused", refusedDetail(hash, "the "+r.kind.noun)+"\n\n"+refusedChangeStops)
		return
	case ref.forbidden():
		resp.Diagnostics.AddWarning("Flipbook Collection Refused", refusedDetail(hash, "the "+r.kind.noun))
	}
	if target.IsUnknown() {
		plan.PublishedHash = state.PublishedHash
	}

	replace, diags := requiresReplacement(ctx, req, state, plan)
	resp.Diagnostics.Append(diags...)
	failed := failedFrom(ctx, req.Private, &resp.Diagnostics)
	switch {
	case replace:
		resp.Diagnostics.AddWarning("Replacement Keeps The Old Flipbook Collection",
			fmt.Sprintf("The API cannot change a generated collection, so this change generates a new %s. The current one, %s, "+
				"stays in the account: delete it in the Flipbook web application if it is no longer needed.",
				r.kind.noun, hash))
		return
	case failed:
		// Read warned already; a failed generation is replaced by a new one.
		plan.Status = types.StringUnknown()
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
	case state.Status.ValueString() == apiclient.CollectionProcessing:
		// An interrupted create left it generating: Update waits for it.
		plan.unknown()
	default:
		// Nothing the service holds changes: keep what the state knows, so
		// that nothing downstream waits for apply.
		plan.collectionAttrsModel = state.collectionAttrsModel
		plan.Title = state.Title
	}
	if state.Sections.IsNull() {
		tflog.Info(ctx, "adopting the configuration of an imported collection without replacement", map[string]any{
			"collection_hash": hash,
		})
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planAdoption checks, at plan time, a new resource that adopts the
// collection published_hash names: one with another title stops here, as it
// would at apply, before anything is planned.
func (r *collectionResource) planAdoption(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.client == nil {
		return
	}
	var plan collectionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || plan.PublishedHash.IsNull() || plan.PublishedHash.IsUnknown() || plan.Title.IsUnknown() ||
		plan.Title.IsNull() {
		return
	}
	r.readAdopted(ctx, plan.PublishedHash.ValueString(), plan.Title, &resp.Diagnostics)
}

// readAdopted reads the collection published_hash names for a resource that
// adopts it (see readNamed).
func (r *collectionResource) readAdopted(ctx context.Context, hash string, title types.String, diags *diag.Diagnostics) *apiclient.Collection {
	return r.readNamed(ctx, hash, title, "Error Adopting "+r.kind.title, diags)
}

// readMoveTarget reads the collection published_hash moves the resource to
// (see readNamed).
func (r *collectionResource) readMoveTarget(ctx context.Context, hash string, title, stateTitle types.String, diags *diag.Diagnostics) *apiclient.Collection {
	col := r.readNamed(ctx, hash, title, r.read(hash).summary, diags)
	if col != nil && (title.IsNull() || title.IsUnknown()) && movedTitleDiffers(diags, stateTitle, col, hash) {
		return nil
	}
	return col
}

// readNamed reads the collection published_hash names; nil, with
// diagnostics under summary, when it cannot be read or has another title
// than the configuration's (titleDiffers).
func (r *collectionResource) readNamed(ctx context.Context, hash string, title types.String, summary string, diags *diag.Diagnostics) *apiclient.Collection {
	col, err := r.client.GetCollection(ctx, hash)
	if err != nil {
		diags.AddAttributeError(path.Root("published_hash"), summary,
			apiErrorDetailOn46(r.read(hash).doing+", which published_hash names", err, publishedHashOn46))
		return nil
	}
	if titleDiffers(diags, title, col, hash) {
		return nil
	}
	return col
}

// requiresReplacement reports whether the plan replaces the collection, by
// running the attribute plan modifiers the schema holds: the framework runs
// them before ModifyPlan but does not pass their RequiresReplace on. They
// decide from the state and the plan alone.
func requiresReplacement(ctx context.Context, req resource.ModifyPlanRequest, state, plan collectionResourceModel) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	replaceString := func(at path.Path, m planmodifier.String, was, now, configured types.String) bool {
		resp := planmodifier.StringResponse{PlanValue: now}
		m.PlanModifyString(ctx, planmodifier.StringRequest{Path: at, State: req.State, Plan: req.Plan, Config: req.Config,
			StateValue: was, PlanValue: now, ConfigValue: configured, Private: req.Private}, &resp)
		diags.Append(resp.Diagnostics...)
		return resp.RequiresReplace
	}
	var configTitle, configFolder types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("title"), &configTitle)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("folder"), &configFolder)...)
	sections := planmodifier.ListResponse{PlanValue: plan.Sections}
	replaceUnlessImported.PlanModifyList(ctx, planmodifier.ListRequest{Path: sectionsPath, State: req.State, Plan: req.Plan,
		StateValue: state.Sections, PlanValue: plan.Sections}, &sections)
	diags.Append(sections.Diagnostics...)
	replace := replaceString(path.Root("title"), titleReplaceIfDiffers, state.Title, plan.Title, configTitle)
	replace = replaceString(path.Root("folder"), folderReplaceUnlessImported, state.Folder, plan.Folder, configFolder) || replace
	return replace || sections.RequiresReplace, diags
}

// generationFailed tells a failed generation from a failed document added
// later: flipbookStatus is the collection's as a whole ("failed" for either),
// while the generated item is the collection's first (spec: "a single item
// for API-created collections"; documents are added after it). The
// generation failed when that item failed, or when there is none.
func generationFailed(col *apiclient.Collection) bool {
	if !strings.EqualFold(col.FlipbookStatus, apiclient.FlipbookFailed) {
		return false
	}
	return len(col.CollectionItems) == 0 || strings.EqualFold(col.CollectionItems[0].ConvertStatus, apiclient.StatusFailed)
}

// privateFailed marks, in private state, a collection whose last Read found
// its generation failed, so that the plan replaces it.
const privateFailed = "generation_failed"

func rememberFailed(ctx context.Context, p privateSetter, failed bool, diags *diag.Diagnostics) {
	if noPrivate(p) {
		return
	}
	var b []byte
	if failed {
		b, _ = json.Marshal(true)
	}
	diags.Append(p.SetKey(ctx, privateFailed, b)...)
}

func failedFrom(ctx context.Context, p privateGetter, diags *diag.Diagnostics) bool {
	b, d := p.GetKey(ctx, privateFailed)
	diags.Append(d...)
	return len(b) > 0 && string(b) == "true"
}
