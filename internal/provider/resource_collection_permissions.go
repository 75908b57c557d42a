package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/planmodifiers"
)

var (
	_ resource.Resource                   = (*collectionPermissionsResource)(nil)
	_ resource.ResourceWithConfigure      = (*collectionPermissionsResource)(nil)
	_ resource.ResourceWithImportState    = (*collectionPermissionsResource)(nil)
	_ resource.ResourceWithIdentity       = (*collectionPermissionsResource)(nil)
	_ resource.ResourceWithValidateConfig = (*collectionPermissionsResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*collectionPermissionsResource)(nil)
)

func newCollectionPermissionsResource() resource.Resource {
	return &collectionPermissionsResource{resourceBase{objectBase: objectBase{typeSuffix: "collection_permissions"}, identity: attachedIdentity}}
}

// defaultPermissionsTimeout is the default of the timeouts block: a
// collection that is still publishing answers 38, and the resource waits for
// it this long.
const defaultPermissionsTimeout = 10 * time.Minute

type collectionPermissionsResource struct {
	resourceBase
}

type collectionPermissionsModel struct {
	ID             types.String   `tfsdk:"id"`
	CollectionHash types.String   `tfsdk:"collection_hash"`
	NotifyViaEmail types.Bool     `tfsdk:"notify_via_email"`
	Permissions    types.Set      `tfsdk:"permissions"`
	Skipped        types.Set      `tfsdk:"skipped_permissions"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

const permissionsRulesMarkdown = "Rules checked at plan time, as the spec states them: every entry has the same `type`; " +
	"`email` and `group` never appear together; `otp` needs an `email` and takes no `group`; `sso` takes no `email`; " +
	"an `email` with no `@` at all is refused (the service refuses a \"bad email format\", and no address lacks an `@`). " +
	"The spec defines no further email format: an address without exactly one `@`, a name before it and a dot after it " +
	"only gets a warning, as do two entries that differ only in the letter case of the email; the service decides, and " +
	"its answer is shown on the entry it names. `email` and `group` may not be empty strings (omit them instead).\n\n"

func (r *collectionPermissionsResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	tmo := timeoutsAttribute(ctx, timeouts.Opts{Create: true, Update: true, Delete: true},
		"Operation timeouts: how long `create`, `update` and `delete` keep retrying while the collection is still being "+
			"published (the service answers \"in progress\"); default `\"10m\"` each.", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The private access list of a published, private collection without a password " +
			"(`collection.setPermissions`). The resource is **authoritative**: the list in the configuration replaces " +
			"whatever the collection had, rows added outside Terraform show as drift and are removed by the next apply, " +
			"and destroying the resource removes every access row.\n\n" +
			"The service silently skips a `teammate` entry naming a group that does not exist or an email that is not an " +
			"accepted reader, and an `sso` entry naming an unknown SSO group. The apply then succeeds with a warning naming " +
			"every skipped entry, and `skipped_permissions` lists them; the state keeps them in `permissions`, so later plans " +
			"are empty and send nothing (nobody is e-mailed again) until the configuration or the saved list changes. When " +
			"every entry is skipped the service saves nothing and the collection keeps the list it had: if that list is not " +
			"empty, the apply fails and says so (the provider never empties it for you).\n\n" +
			"A collection still being published answers \"in progress\"; the resource retries until the `create` or " +
			"`update` timeout (default 10 minutes).\n\n" +
			"Destroy empties the list. If the service no longer knows the collection (code 46) there is nothing to empty. " +
			"If it answers code 43 (the collection was deleted, belongs to another account, or the credentials are another " +
			"account's), the resource leaves the state with a warning rather than an error, because a deleted collection can " +
			"never be cleared and an error would block destroy for good; the warning says the list may still be in place " +
			"and how to clear it.\n\n" + permissionsRulesMarkdown,
		Attributes: map[string]schema.Attribute{
			"id": collectionIDAttribute(),
			"collection_hash": collectionHashAttribute("Hash of the collection. It must be published, private and not " +
				"password-protected. Changing it moves the access list to another collection (the old one's list is emptied)."),
			"notify_via_email": schema.BoolAttribute{
				MarkdownDescription: "When `true`, an apply that adds entries to the saved list asks the service to email " +
					"the people those entries grant access to (all accepted readers for a bare `teammate` entry, the group's " +
					"members or the named recipient otherwise). Entries already on the list are sent without notification, and " +
					"nothing is sent at all when the saved list already matches, so nobody is e-mailed twice for the same entry. " +
					"It is never read back; changing only this attribute sends nothing. Default `false`.",
				Optional: true,
			},
			"permissions": schema.SetNestedAttribute{
				MarkdownDescription: "The complete access list; `[]` removes every private access row. " + permissionsRulesMarkdown,
				Required:            true,
				PlanModifiers:       []planmodifier.Set{planmodifiers.SetIgnoringCaseOf("email")},
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"type": schema.StringAttribute{
							MarkdownDescription: "`teammate` (accepted readers of the workspace), `otp` (a one-time passcode " +
								"sent to `email`) or `sso` (viewers signed in through the workspace's single sign-on).",
							Required: true,
						},
						"email": schema.StringAttribute{
							MarkdownDescription: "One person: required on `otp`, optional on `teammate` (an accepted reader), " +
								"not allowed on `sso`. Letter case does not matter: changing only the case plans no change, and the " +
								"state keeps the spelling last applied.",
							Optional: true,
						},
						"group": schema.StringAttribute{
							MarkdownDescription: "A workspace group (`teammate`) or SSO group (`sso`); not allowed on `otp`. " +
								"Names match exactly. Omit both `email` and `group` to grant every reader or SSO viewer.",
							Optional: true,
						},
					},
				},
			},
			"skipped_permissions": schema.SetNestedAttribute{
				MarkdownDescription: "The entries of `permissions` the service skipped at the last apply that sent the list " +
					"(a `teammate` email that is not an accepted reader, a group that does not exist): they are not on the " +
					"collection's saved list. `[]` when none. To make a run fail while any are skipped, add a `postcondition` " +
					"on `length(self.skipped_permissions) == 0` to the resource's `lifecycle`.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"type":  schema.StringAttribute{MarkdownDescription: "`teammate`, `otp` or `sso`.", Computed: true},
						"email": schema.StringAttribute{MarkdownDescription: "The email of the entry, if any.", Computed: true},
						"group": schema.StringAttribute{MarkdownDescription: "The group of the entry, if any.", Computed: true},
					},
				},
			},
			"timeouts": tmo,
		},
	}
}

func (r *collectionPermissionsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var set types.Set
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("permissions"), &set)...)
	if resp.Diagnostics.HasError() || set.IsNull() || set.IsUnknown() {
		return
	}
	entries, elems := entriesFromSet(set, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	addPermissionProblems(&resp.Diagnostics, validatePermissions(entries), elems)
}

// addPermissionProblems turns rule violations into attribute diagnostics.
func addPermissionProblems(diags *diag.Diagnostics, problems []permissionProblem, elems []attr.Value) {
	for _, p := range problems {
		at := path.Root("permissions")
		if p.Index >= 0 {
			at = at.AtSetValue(elems[p.Index])
			if p.Field != "" {
				at = at.AtName(p.Field)
			}
		}
		if p.Warning {
			diags.AddAttributeWarning(at, "Permission May Be Refused", p.Detail)
			continue
		}
		diags.AddAttributeError(at, "Invalid Permission", p.Detail)
	}
}

// replacingKey is the private-state key of a create plan: the collection
// whose list the create will set. Terraform replaces by destroying first
// (for -replace, a taint, or a change that replaces), and the destroy half
// of a replacement gets the plan's private state: Delete then sees that the
// same collection is about to get its list again, and leaves the list in
// place instead of emptying it in between (everyone would lose access, and
// be e-mailed again).
const replacingKey = "replacing_list_of"

func (r *collectionPermissionsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var hash types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("collection_hash"), &hash)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		if !hash.IsUnknown() && !hash.IsNull() {
			b, err := json.Marshal(hash.ValueString())
			if err == nil {
				resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, b)...)
			}
		}
		return
	}
	var state collectionPermissionsModel
	var planned types.Set
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("permissions"), &planned)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A 46 stops the plan unless collection_hash names the new hash; a 43 warns.
	planAttached(ctx, r.client, req, resp, "its access list")
	if !hash.Equal(state.CollectionHash) {
		// The id is the collection hash, so it follows collection_hash: to
		// the new hash of a published collection (moved in place), or to a
		// new collection (replaced, planned again from a null state).
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), hash)...)
	}
	if !planned.Equal(state.Permissions) || !hash.Equal(state.CollectionHash) {
		return // skipped_permissions is known after the apply that sends the list
	}
	// The list stays as it is: so do the entries the service skipped, and
	// nothing is sent.
	skipped := state.Skipped
	if skipped.IsNull() || skipped.IsUnknown() {
		skipped = emptyPermissionsSet()
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("skipped_permissions"), skipped)...)
	if entries, _ := entriesFromSet(skipped, &resp.Diagnostics); len(entries) > 0 {
		resp.Diagnostics.AddAttributeWarning(path.Root("skipped_permissions"), "Access List Entries Still Skipped",
			describeStillSkipped(hash.ValueString(), entries))
	}
}

func (r *collectionPermissionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createWith(ctx, &r.resourceBase, req, resp, func(plan *collectionPermissionsModel) {
		ctx, cancel := withTimeout(ctx, plan.Timeouts.Create, defaultPermissionsTimeout, &resp.Diagnostics)
		defer cancel()
		if resp.Diagnostics.HasError() {
			return
		}
		plan.ID = plan.CollectionHash
		// The saved list is read first only when notifying: it decides who is
		// e-mailed. Without notification the list is sent as it is: the same
		// list sent again changes nothing and e-mails nobody.
		if r.converge(ctx, plan, plan.NotifyViaEmail.ValueBool(), "Error Setting Collection Permissions", &resp.Diagnostics) != converged {
			// Nothing is stored, so nothing is tainted: the next apply reads
			// and sends again.
			return
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
}

func (r *collectionPermissionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateWith(ctx, &r.resourceBase, req, resp, func(plan, state *collectionPermissionsModel) {
		if resp.Private != nil {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, nil)...)
		}
		plan.ID = plan.CollectionHash
		if plan.Permissions.Equal(state.Permissions) && plan.CollectionHash.Equal(state.CollectionHash) {
			// Only notify_via_email or timeouts changed: sending the same list
			// again would change nothing but could email everyone.
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			return
		}
		ctx, cancel := withTimeout(ctx, plan.Timeouts.Update, defaultPermissionsTimeout, &resp.Diagnostics)
		defer cancel()
		if resp.Diagnostics.HasError() {
			return
		}
		if r.followedMove(ctx, plan, state, &resp.Diagnostics) {
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			return
		}
		// The planned collection is the target, whichever the state names
		// (a collection moved to its new hash is updated in place): its saved
		// list is read, and sent to only when it differs from the plan.
		switch r.converge(ctx, plan, true, "Error Updating Collection Permissions", &resp.Diagnostics) {
		case converged, heldOther:
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		default:
			// Nothing was saved: keep the prior state, not the plan the
			// framework starts the new state from.
			resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		}
	})
}

// followedMove handles an update that only follows the collection to the
// new hash publishing gave it: when the list saved there is the one the state
// records as saved (the configured entries less those the service skipped),
// nothing is sent, and the skipped entries stay skipped. It reports whether
// that was so.
func (r *collectionPermissionsResource) followedMove(ctx context.Context, plan, state *collectionPermissionsModel, diags *diag.Diagnostics) bool {
	if plan.CollectionHash.Equal(state.CollectionHash) || !plan.Permissions.Equal(state.Permissions) {
		return false
	}
	entries, _ := entriesFromSet(plan.Permissions, diags)
	skipped := map[string]bool{}
	if !state.Skipped.IsNull() && !state.Skipped.IsUnknown() {
		s, _ := entriesFromSet(state.Skipped, diags)
		for _, e := range s {
			skipped[e.key()] = true
		}
	}
	if diags.HasError() {
		return false
	}
	var saved []permissionEntry
	for _, e := range entries {
		if !skipped[e.key()] {
			saved = append(saved, e)
		}
	}
	hash := plan.CollectionHash.ValueString()
	current, err := r.getPermissions(ctx, hash)
	if err != nil || !sameList(current, saved) {
		return false // converge reads again and says what failed
	}
	tflog.Info(ctx, "followed the collection to its new hash; its saved access list is unchanged, nothing sent",
		map[string]any{"collection_hash": hash})
	plan.Skipped = state.Skipped
	return true
}

// convergence is how converge ended.
type convergence int

const (
	notSaved  convergence = iota // the call failed: the model is unchanged
	converged                    // the saved list is the plan's, less the skipped entries (m.Skipped)
	heldOther                    // every entry was skipped and the collection kept another list: m holds that list
)

// converge makes the saved list of m's collection the planned one. With
// readFirst it reads the saved list and sends nothing when it already
// matches; entries the list lacks are the only ones notified. Entries the
// service skips stay in m.Permissions and are listed in m.Skipped, with a
// warning: the resource converges on them instead of failing.
func (r *collectionPermissionsResource) converge(ctx context.Context, m *collectionPermissionsModel, readFirst bool, summary string, diags *diag.Diagnostics) convergence {
	entries, elems := entriesFromSet(m.Permissions, diags)
	if diags.HasError() {
		return notSaved
	}
	hash := m.CollectionHash.ValueString()
	var current []apiclient.Permission
	if readFirst {
		// Afresh: the list sent is worked out from it, and a notifying call
		// takes it as the list before (SetPermissionsAfter), so it must be
		// no older than this call.
		var err error
		if current, err = r.getPermissions(apiclient.WithFreshRead(ctx), hash); err != nil {
			addPermissionsAPIError(diags, summary, "reading the access list of collection "+hash+" before changing it", err)
			return notSaved
		}
		if sameList(current, entries) {
			tflog.Info(ctx, "the saved access list is already the planned one; nothing sent", map[string]any{"collection_hash": hash})
			markListWritten(r.client, hash)
			m.Skipped = emptyPermissionsSet()
			return converged
		}
	}
	saved, err := r.setPermissions(ctx, hash, permissionsToSend(entries, m.NotifyViaEmail.ValueBool(), current), current)
	if err != nil {
		addPermissionEntryErrors(diags, summary, err, elems)
		addPermissionsAPIError(diags, summary, "replacing the access list of collection "+hash, err)
		return notSaved
	}
	markListWritten(r.client, hash)
	skipped := skippedPermissions(entries, saved)
	if len(entries) > 0 && len(saved) == 0 {
		// Spec, rule 6: "When all entries are skipped, nothing is saved and
		// `permissions` is an empty array": the collection keeps the list it
		// had, which only a read shows.
		held, err := r.getPermissions(ctx, hash)
		if err != nil {
			addAPIError(diags, summary, "reading back the access list of collection "+hash+" after the service skipped every entry", err)
			return notSaved
		}
		if len(held) > 0 {
			diags.AddAttributeError(path.Root("permissions"), "Every Access List Entry Skipped", describeAllSkipped(hash, skipped, held))
			m.Permissions = setFromEntries(permissionsFromAPI(held, entries), diags)
			m.Skipped = emptyPermissionsSet()
			return heldOther
		}
	}
	m.Skipped = setFromEntries(entriesOfSkipped(skipped), diags)
	if len(skipped) > 0 {
		diags.AddAttributeWarning(path.Root("skipped_permissions"), "Access List Entries Skipped", describeSkipped(hash, skipped, len(entries)))
	}
	return converged
}

// getPermissions reads a collection's saved list, waiting out code 38 (spec,
// "Permissions can be set or read only for a published ... flipbook; a
// flipbook still publishing is rejected with code 38").
func (r *collectionPermissionsResource) getPermissions(ctx context.Context, hash string) ([]apiclient.Permission, error) {
	var saved []apiclient.Permission
	err := retryWhileInProgress(ctx, "reading permissions", hash, func() error {
		var err error
		saved, err = r.client.GetPermissions(ctx, hash)
		return err
	})
	return saved, err
}

// listsWritten records, per API client (one per configured provider, so per
// Terraform run), the collections whose list a create or update of this run
// set. A destroy in the same run leaves such a list alone: with
// create_before_destroy the new object has already set it (emptying it would
// undo that), and a second resource on the collection owns it now.
var listsWritten = struct {
	sync.Mutex
	m map[listWrite]bool
}{m: map[listWrite]bool{}}

type listWrite struct {
	client *apiclient.Client
	hash   string
}

func markListWritten(c *apiclient.Client, hash string) {
	listsWritten.Lock()
	defer listsWritten.Unlock()
	listsWritten.m[listWrite{c, hash}] = true
}

func listWrittenThisRun(c *apiclient.Client, hash string) bool {
	listsWritten.Lock()
	defer listsWritten.Unlock()
	return listsWritten.m[listWrite{c, hash}]
}

// addPermissionEntryErrors shows each message of a refused list that names
// an entry ("... at index N", the spec's collection.setPermissions table) on
// that entry: entries are sent in the order of elems.
func addPermissionEntryErrors(diags *diag.Diagnostics, summary string, err error, elems []attr.Value) {
	var ae *apiclient.APIError
	if !errors.As(err, &ae) {
		return
	}
	for _, msg := range ae.Errors {
		if i := answerIndex(msg, len(elems)); i >= 0 {
			diags.AddAttributeError(path.Root("permissions").AtSetValue(elems[i]), summary, fmt.Sprintf(
				"The service refused this entry: %s (code %d). Correct the entry and apply again.", msg, ae.Code))
		}
	}
}

// setPermissions calls collection.setPermissions, waiting out code 38 (the
// collection is still being published) until ctx ends.
func (r *collectionPermissionsResource) setPermissions(ctx context.Context, hash string, perms, before []apiclient.Permission) ([]apiclient.Permission, error) {
	var saved []apiclient.Permission
	err := retryWhileInProgress(ctx, "setting permissions", hash, func() error {
		var err error
		saved, err = r.client.SetPermissionsAfter(ctx, hash, perms, before)
		return err
	})
	return saved, err
}

// addPermissionsAPIError is addAPIError for collection.setPermissions: a
// refused list (40) is shown on permissions; a collection that cannot take
// one (48), is gone or is not ours, on collection_hash.
func addPermissionsAPIError(diags *diag.Diagnostics, summary, doing string, err error) {
	switch {
	case apiclient.IsValidation(err):
		addAPIAttributeError(diags, path.Root("permissions"), summary, doing, err)
	case apiclient.IsNotEligible(err):
		addAPIAttributeError(diags, path.Root("collection_hash"), summary, doing, err)
	default:
		addCollectionAPIError(diags, summary, doing, err)
	}
}

func (r *collectionPermissionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readWith(ctx, &r.resourceBase, req, resp, func(state *collectionPermissionsModel) {
		hash := state.CollectionHash.ValueString()
		if hash == "" {
			hash = state.ID.ValueString()
		}
		saved, err := r.client.GetPermissions(ctx, hash)
		if apiclient.IsNotEligible(err) {
			resp.Diagnostics.AddWarning("Collection No Longer Takes An Access List", fmt.Sprintf(
				"Collection %s is no longer published, private and without a password, so it has no access list to manage; "+
					"the list was removed from the state. Restore those settings and apply to set it again.", hash))
			resp.State.RemoveResource(ctx)
			return
		}
		if (collectionRead{hash: hash, what: "its access list", summary: "Error Reading Collection Permissions",
			doing: "reading the access list of collection " + hash}).done(ctx, resp, err) {
			return
		}
		var prior, skipped []permissionEntry
		if !state.Permissions.IsNull() && !state.Permissions.IsUnknown() {
			prior, _ = entriesFromSet(state.Permissions, &resp.Diagnostics)
		}
		if !state.Skipped.IsNull() && !state.Skipped.IsUnknown() {
			skipped, _ = entriesFromSet(state.Skipped, &resp.Diagnostics)
		}
		list, stillSkipped := refreshedEntries(prior, skipped, saved)
		state.ID = types.StringValue(hash)
		state.CollectionHash = types.StringValue(hash)
		state.Permissions = setFromEntries(list, &resp.Diagnostics)
		state.Skipped = setFromEntries(stillSkipped, &resp.Diagnostics)
		if resp.Private != nil {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, nil)...)
		}
		if resp.Diagnostics.HasError() {
			return
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	})
}

func (r *collectionPermissionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state collectionPermissionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, state.Timeouts.Delete, defaultPermissionsTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}
	hash := state.CollectionHash.ValueString()
	if next, _ := req.Private.GetKey(ctx, replacingKey); next != nil {
		var replacing string
		if json.Unmarshal(next, &replacing) == nil && replacing == hash {
			tflog.Info(ctx, "replacement on the same collection: its list is left for the new object to set in one call, "+
				"never emptied in between", map[string]any{"collection_hash": hash})
			return
		}
	}
	if listWrittenThisRun(r.client, hash) {
		tflog.Info(ctx, "this run already set the collection's list for another object: not emptied", map[string]any{"collection_hash": hash})
		return
	}
	_, err := r.setPermissions(ctx, hash, []apiclient.Permission{}, nil) // notifies no one: nothing read before
	switch {
	case err == nil, apiclient.IsCollectionNotFound(err):
		// Gone (46): no access list is left to remove.
	case apiclient.IsForbidden(err):
		// 43 cannot tell a deleted collection (nothing left to clear) from
		// one the credentials may not touch (the list stays): warn rather
		// than fail, since failing would block destroy of a deleted one.
		resp.Diagnostics.AddWarning("Access List Not Removed", fmt.Sprintf(
			"The service refused to empty the access list of collection %s (code 43: %s), so the resource was removed "+
				"from the Terraform state without clearing it. Code 43 means the collection was deleted, belongs to another "+
				"account, or the provider's credentials (api_key, api_secret) are not those of the account that owns it. "+
				"If the collection was deleted, nothing is left to do. Otherwise its access list may still be in place: "+
				"check that the provider uses the owning account's api_key, then import the resource and destroy it again, "+
				"or empty the list in the web application.", hash, err))
	case apiclient.IsNotEligible(err):
		resp.Diagnostics.AddWarning("Access List Not Removed", fmt.Sprintf(
			"Collection %s is no longer published, private and without a password, so the service refused to empty its "+
				"access list; the resource was removed from the state. Rows may reappear if the collection becomes private again.", hash))
	default:
		addPermissionsAPIError(&resp.Diagnostics, "Error Removing Collection Permissions", "emptying the access list of collection "+hash, err)
	}
}
