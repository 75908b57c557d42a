package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is what every resource on a collection does when the service
// stops answering for that collection: code 46 ("collection does not
// exist", which is what publishing leaves at a temporary hash) and code 43
// ("collection deleted, owned by another user or workspace, or tenant
// mismatch"). Neither removes the resource from state: the API deletes
// nothing and cannot list collections, so a resource forgotten on 46 would be
// generated or uploaded again on the next apply, and one forgotten on 43 may
// only be hidden from the wrong credentials. Read remembers the refusal in
// the resource's private state; the plan then stops on 46 with the words to
// write (published_hash, or a new collection_hash, both in place), and goes
// on with a warning on 43 so that destroy and removal from the configuration
// keep working; only a plan that would change a refused resource stops, since
// with another account's credentials the change would be made in that account.

// privateRefused is the private-state key of the last refusal Read met.
const privateRefused = "collection_refused"

// refusal is the code the service refused a collection hash with.
type refusal struct {
	Hash string `json:"hash"`
	Code int    `json:"code"`
}

func (r *refusal) gone() bool { return r != nil && r.Code == apiclient.CodeCollectionNotFound }

func (r *refusal) forbidden() bool { return r != nil && r.Code == apiclient.CodeForbidden }

// refusalFrom reads the refusal Read remembered; nil when the last Read
// succeeded.
func refusalFrom(ctx context.Context, p privateGetter, diags *diag.Diagnostics) *refusal {
	if p == nil {
		return nil
	}
	b, d := p.GetKey(ctx, privateRefused)
	diags.Append(d...)
	if len(b) == 0 {
		return nil
	}
	var r refusal
	if err := json.Unmarshal(b, &r); err != nil || r.Hash == "" {
		return nil
	}
	return &r
}

// rememberRefusal records r, or forgets the last refusal when r is nil.
func rememberRefusal(ctx context.Context, p privateSetter, r *refusal, diags *diag.Diagnostics) {
	if noPrivate(p) {
		return
	}
	var b []byte
	if r != nil {
		b, _ = json.Marshal(r)
	}
	diags.Append(p.SetKey(ctx, privateRefused, b)...)
}

// noPrivate reports a response without private state, as the framework
// never sends but a unit test calling a method directly does.
func noPrivate(p privateSetter) bool {
	return p == nil || reflect.ValueOf(p).IsNil()
}

// privateImporting marks a state that an import just made: its first Read
// must find the collection, or the import fails instead of adopting a hash
// that answers nothing.
const privateImporting = "importing"

// markImporting is called by every ImportState.
func markImporting(ctx context.Context, p privateSetter, diags *diag.Diagnostics) {
	if noPrivate(p) {
		return
	}
	diags.Append(p.SetKey(ctx, privateImporting, []byte("true"))...)
}

// readSucceeded forgets an earlier refusal and the import mark.
func readSucceeded(ctx context.Context, p privateSetter, diags *diag.Diagnostics) {
	if noPrivate(p) {
		return
	}
	rememberRefusal(ctx, p, nil, diags)
	diags.Append(p.SetKey(ctx, privateImporting, nil)...)
}

// refusedRead handles a Read's refused call: it keeps the state as it was,
// remembers the refusal and warns; the Read of an import fails instead. It
// reports false for any other error.
func refusedRead(ctx context.Context, resp *resource.ReadResponse, hash, what string, err error) bool {
	if !apiclient.IsCollectionNotFound(err) && !apiclient.IsForbidden(err) {
		return false
	}
	if !noPrivate(resp.Private) {
		if b, _ := resp.Private.GetKey(ctx, privateImporting); len(b) > 0 {
			resp.Diagnostics.AddError("Cannot Import: Collection Not Found",
				apiErrorDetailOn46(fmt.Sprintf("importing %s of collection %s", what, hash), err, importOn46))
			return true
		}
	}
	var code int
	switch {
	case apiclient.IsCollectionNotFound(err):
		code = apiclient.CodeCollectionNotFound
		resp.Diagnostics.AddWarning("Flipbook Collection Hash No Longer Exists", fmt.Sprintf(
			"The service no longer knows collection %s (code 46), so %s could not be read. It stays in the Terraform "+
				"state as it was: nothing is generated or uploaded again for it. Publishing a collection in the web editor "+
				"replaces its temporary hash with a final one; the plan says how to move to the new hash in place.", hash, what))
	case apiclient.IsForbidden(err):
		code = apiclient.CodeForbidden
		resp.Diagnostics.AddWarning("Flipbook Collection Refused", refusedDetail(hash, what))
	default:
		return false
	}
	rememberRefusal(ctx, resp.Private, &refusal{Hash: hash, Code: code}, &resp.Diagnostics)
	return true
}

func refusedDetail(hash, what string) string {
	return fmt.Sprintf("The service refused collection %s (code 43: the collection was deleted, or it belongs to another "+
		"account or workspace, or the credentials do not match its tenant), so %s could not be read. It stays in the "+
		"Terraform state as it was, so that credentials of another account never make Terraform forget or re-create a "+
		"real collection.\n\n"+
		"- If the collection was deleted in the web application: remove this resource block from the configuration (for "+
		"one instance of a for_each, remove its key) and apply. The resource leaves the state with a warning; the API "+
		"deletes nothing.\n"+
		"- If the provider uses the wrong account: set api_key and api_secret (or FLIPBOOK_API_KEY and "+
		"FLIPBOOK_API_SECRET) to the account that owns the collection; the next plan reads it again.", hash, what)
}

// refusedChangeStops is why a plan that would change a refused resource
// stops: with another account's credentials, a replacement would make the
// new object in that account and forget the real one.
const refusedChangeStops = "This plan would change it, so it stops here: with credentials of another account a change " +
	"(a replacement above all) would be made in that account while the real one is forgotten. Fix the credentials, or " +
	"if the collection was deleted, remove the resource block as said above."

// Advice for a resource whose collection answered 46, as a plan error. The
// words are meant to be copied: the attribute and the HCL to write.
const (
	publishedHashAdvice = "If the collection was published in the web editor, add its new hash to this resource block " +
		"and plan again:\n\n    published_hash = \"<new hash>\"\n\n" +
		"The new hash is the one the web editor and the collection's link now show. The resource, and every resource " +
		"whose collection_hash refers to its id, moves to that hash in place: nothing is generated or uploaded again, " +
		"no access list is emptied and nobody is e-mailed."
	collectionHashAdvice = "If the collection was published in the web editor, point this resource at its new hash " +
		"(the one the web editor and the collection's link now show) and plan again:\n\n" +
		"- when collection_hash refers to a flipbook_catalog or flipbook_template_collection, add " +
		"published_hash = \"<new hash>\" to that resource;\n" +
		"- when collection_hash is written out, set collection_hash = \"<new hash>\".\n\n" +
		"The resource moves to the new hash in place: nothing is uploaded again, no access list is emptied and nobody is e-mailed."
	goneOtherwiseAdvice = "If the collection really no longer exists and should not be managed any more, remove this " +
		"resource block (for one instance of a for_each, its key) and apply: the resource leaves the state. With the " +
		"CLI instead: terraform state rm <address>, then terraform import <address> <new hash> to adopt the published one."
)

// goneDetail is the plan error of a resource whose collection answered 46
// and whose configuration does not name where it went.
func goneDetail(hash, what, advice string) string {
	return fmt.Sprintf("The service no longer knows collection %s (code 46, \"Invalid collection hash\"), so %s cannot "+
		"be planned: this plan stops here rather than generate or upload anything a second time. Publishing a "+
		"collection in the web editor replaces its temporary hash with a final one, and the temporary hash then answers 46.\n\n%s\n\n%s",
		hash, what, advice, goneOtherwiseAdvice)
}

// planAttached is the plan-time check every resource attached to a
// collection by collection_hash shares (logo, background, document, access
// list). After a 46 it lets a new collection_hash through as a move (the
// collection_hash modifier does not replace then) and stops when the
// configuration still names the gone hash; after a 43 it warns. It reports
// whether the plan moves the resource to another hash.
func planAttached(ctx context.Context, client *apiclient.Client, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, what string) (moving bool) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return false
	}
	var planned, was types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("collection_hash"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("collection_hash"), &was)...)
	if client != nil && !planned.IsUnknown() && !planned.IsNull() && planned.ValueString() != was.ValueString() {
		// A new collection_hash the service refuses would destroy this
		// resource on the live collection (an access list is emptied there)
		// and then fail: stop before anything changes.
		if _, err := client.GetCollection(ctx, planned.ValueString()); collectionGoneOrNotOurs(err) {
			resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Collection Hash Not Found", apiErrorDetailOn46(
				fmt.Sprintf("reading collection %s, which collection_hash names", planned.ValueString()), err, collectionHashOn46))
			return false
		}
	}
	ref := refusalFrom(ctx, req.Private, &resp.Diagnostics)
	if ref == nil {
		return false
	}
	switch {
	case ref.gone() && (planned.IsUnknown() || planned.ValueString() != ref.Hash):
		return true
	case ref.gone():
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Flipbook Collection Hash No Longer Exists",
			goneDetail(ref.Hash, what, collectionHashAdvice))
	case ref.forbidden() && planned.ValueString() == ref.Hash && !req.Plan.Raw.Equal(req.State.Raw):
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Flipbook Collection Refused", refusedDetail(ref.Hash, what)+
			"\n\n"+refusedChangeStops)
	case ref.forbidden() && planned.ValueString() == ref.Hash:
		resp.Diagnostics.AddAttributeWarning(path.Root("collection_hash"), "Flipbook Collection Refused", refusedDetail(ref.Hash, what))
	}
	return false
}

// replaceUnlessMoved is collection_hash's plan modifier: the API cannot move
// a setting or a document to another collection, so a new hash replaces the
// resource, except when the old hash answered 46 (publishing issued a new
// one): then the same collection is followed to its new hash in place.
var replaceUnlessMoved = stringplanmodifier.RequiresReplaceIf(
	func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		ref := refusalFrom(ctx, req.Private, &resp.Diagnostics)
		resp.RequiresReplace = !(ref.gone() && ref.Hash == req.StateValue.ValueString())
	},
	"Replaces the resource when the collection hash changes, except when the old hash no longer exists (code 46, as after publishing): then the resource moves to the new hash in place.",
	"Replaces the resource when the collection hash changes, except when the old hash no longer exists (code 46, as after publishing): then the resource moves to the new hash in place.",
)
