package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is the one place for the plumbing every resource repeats, so
// that a resource's file holds only what is particular to it: the client and
// type name (resourceBase), import by ID or by identity (ImportState, with
// the kind's own ID format in identity.go), the identity set after every
// Create, Read and Update (createWith, readWith, updateWith, which also
// decode the plan and state), and what the resources on a collection by its
// hash share: the id and collection_hash attributes and the Read path when
// the collection is refused (readFromCollection).

// resourceBase gives a resource its client, its type name, its identity
// (identity.go) and its import; embed it and set typeSuffix and identity.
type resourceBase struct {
	objectBase
	identity identityKind
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.typeNameIn(req.ProviderTypeName)
	// Publishing issues a collection a new final hash, and every resource on
	// it moves there in place (collection_refused_or_moved.go): its identity changes.
	resp.ResourceBehavior.MutableIdentity = true
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// typeName is the full resource type name, for diagnostics.
func (b *resourceBase) typeName() string { return b.typeNameIn("flipbook") }

// ImportState imports by ID, or by identity (`import { identity = {...} }`)
// turned into that ID, and lets the resource's identity kind write the state
// the ID names.
func (b *resourceBase) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !b.importIDFromIdentity(ctx, &req, &resp.Diagnostics) {
		return
	}
	b.identity.importState(ctx, b.typeName(), req, resp)
}

// createWith is the opening of every Create: it decodes the plan into a
// model M and hands it to do, then sets the identity from the state do
// leaves (none when do stored nothing).
func createWith[M any](ctx context.Context, b *resourceBase, req resource.CreateRequest, resp *resource.CreateResponse, do func(plan *M)) {
	defer b.setIdentity(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	do(&plan)
}

// updateWith is createWith for Update: do gets the plan and the prior state.
func updateWith[M any](ctx context.Context, b *resourceBase, req resource.UpdateRequest, resp *resource.UpdateResponse, do func(plan, state *M)) {
	defer b.setIdentity(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	do(&plan, &state)
}

// readWith is createWith for Read: do gets the prior state. The identity
// comes from the prior state: the hashes never change in a Read, and a
// resource Read removes still needs its identity.
func readWith[M any](ctx context.Context, b *resourceBase, req resource.ReadRequest, resp *resource.ReadResponse, do func(state *M)) {
	defer b.setIdentity(ctx, &req.State, resp.Identity, &resp.Diagnostics)
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	do(&state)
}

// importCollectionHash is the import of a resource whose id is the hash of
// the collection it configures (attachedIdentity); typeName names it in the
// error.
func importCollectionHash(ctx context.Context, typeName string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if strings.TrimSpace(req.ID) == "" {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf(
			"The import ID is empty, and %s is identified by the hash of the collection it configures. "+
				"Import it with that hash, such as `terraform import %s.example <collection_hash>`.", typeName, typeName))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("collection_hash"), req.ID)...)
	markImporting(ctx, resp.Private, &resp.Diagnostics)
}

// importGeneratedCollection is the import of a generated collection
// (generatedCollectionIdentity): the ID is the collection hash, its id.
func importGeneratedCollection(ctx context.Context, _ string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	markImporting(ctx, resp.Private, &resp.Diagnostics)
}

// collectionIDAttribute is the id of a resource that configures one
// collection: that collection's hash, which never changes for the resource.
func collectionIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "The collection hash.",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// collectionHashAttribute is the collection a resource is attached to. The
// API cannot move a setting or a document to another collection, so a new
// hash replaces the resource, unless the old hash is gone (collection_refused_or_moved.go).
func collectionHashAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description + " Changing it replaces the resource, except after the collection was " +
			"published under a new hash (the old one answers code 46): then the resource moves to the new hash in place.",
		Required:      true,
		PlanModifiers: []planmodifier.String{replaceUnlessMoved},
		Validators:    nonEmptyString(),
	}
}

// collectionRead is what a resource's Read says about the collection it
// reads.
type collectionRead struct {
	hash    string
	what    string // what could not be read when the collection is refused: "its logo"
	summary string // of any other failure: "Error Reading Logo"
	doing   string // for that failure; "reading collection <hash>" when empty
}

// done is the Read path every resource on a collection shares, once its call
// has answered err: nil goes on (false) and forgets any earlier refusal.
// Codes 46 and 43 keep the state as it was, with a warning, and are
// remembered for the plan (collection_refused_or_moved.go). Any other error is an error.
func (rd collectionRead) done(ctx context.Context, resp *resource.ReadResponse, err error) bool {
	switch {
	case err == nil:
		readSucceeded(ctx, resp.Private, &resp.Diagnostics)
		return false
	case refusedRead(ctx, resp, rd.hash, rd.what, err):
	default:
		doing := rd.doing
		if doing == "" {
			doing = "reading collection " + rd.hash
		}
		addAPIError(&resp.Diagnostics, rd.summary, doing, err)
	}
	return true
}

// readFromCollection is the Read of a resource that mirrors part of a
// collection: it decodes the state into a model M, reads the collection
// (collection.getCollection) along the path at returns for that state, and
// lets apply copy what the service reports into the model, which is saved
// unless apply returns false (having said why in resp).
func readFromCollection[M any](ctx context.Context, b *resourceBase, req resource.ReadRequest, resp *resource.ReadResponse,
	at func(*M) collectionRead, apply func(*M, *apiclient.Collection, *resource.ReadResponse) bool,
) {
	readWith(ctx, b, req, resp, func(state *M) {
		rd := at(state)
		col, err := b.client.GetCollection(ctx, rd.hash)
		if rd.done(ctx, resp, err) || !apply(state, col, resp) || resp.Diagnostics.HasError() {
			return
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	})
}
