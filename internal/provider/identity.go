package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// This file is the resource identity (Terraform 1.12+, OpenTofu 1.12+) of
// every managed resource: the hashes the API finds an object by. Identity is
// derived from the state alone, so a resource needs only to name its kind in
// resourceBase; resource_base.go sets it after every operation and imports
// by it. Older CLIs ignore identity and keep importing by ID.

// identityAttr is one identity attribute and the state attribute whose value
// it carries.
type identityAttr struct {
	name        string
	description string
	from        path.Path
}

// identityKind is the identity of one kind of resource. importID turns the
// identity's values (in attrs order) into the import ID the resource already
// accepts, so import by identity and import by ID share one code path.
type identityKind struct {
	attrs    []identityAttr
	importID func(values []string) string
	// importState writes the state an import ID names; typeName is the
	// resource's, for its errors.
	importState func(ctx context.Context, typeName string, req resource.ImportStateRequest, resp *resource.ImportStateResponse)
}

const collectionHashIdentityDescription = "Hash of the collection."

// attachedIdentity is the identity of a resource that configures an existing
// collection (permissions, logo, background): the collection_hash argument.
var attachedIdentity = identityKind{
	attrs:       []identityAttr{{name: "collection_hash", description: collectionHashIdentityDescription, from: path.Root("collection_hash")}},
	importID:    func(v []string) string { return v[0] },
	importState: importCollectionHash,
}

// generatedCollectionIdentity is the identity of a collection the resource
// generates (template collection, catalog): its id is the collection hash.
var generatedCollectionIdentity = identityKind{
	attrs:       []identityAttr{{name: "collection_hash", description: collectionHashIdentityDescription, from: path.Root("id")}},
	importID:    func(v []string) string { return v[0] },
	importState: importGeneratedCollection,
}

// documentIdentity is flipbook_document's: the API finds a flipbook only
// through its collection (spec, collection.getCollection's collectionItems),
// so both hashes are needed.
var documentIdentity = identityKind{
	attrs: []identityAttr{
		{name: "collection_hash", description: "Hash of the collection the document was added to.", from: path.Root("collection_hash")},
		{name: "flipbook_hash", description: "Hash of the flipbook the document became.", from: path.Root("id")},
	},
	importID:    func(v []string) string { return v[0] + "/" + v[1] },
	importState: importDocument,
}

// IdentitySchema makes every resource that embeds resourceBase a
// resource.ResourceWithIdentity.
func (b *resourceBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attrs := make(map[string]identityschema.Attribute, len(b.identity.attrs))
	for _, a := range b.identity.attrs {
		attrs[a.name] = identityschema.StringAttribute{RequiredForImport: true, Description: a.description}
	}
	resp.IdentitySchema = identityschema.Schema{Attributes: attrs}
}

// setIdentity fills identity from state. createWith, readWith and
// updateWith (resource_base.go) defer it with the state that is final when
// the operation returns (for Read, the prior state: the hashes never change,
// and a resource Read removes still needs its identity). A state without the
// hashes (a create that failed before the service answered) leaves identity
// alone.
func (b *resourceBase) setIdentity(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state == nil || state.Raw.IsNull() {
		return
	}
	values := make([]types.String, len(b.identity.attrs))
	for i, a := range b.identity.attrs {
		if d := state.GetAttribute(ctx, a.from, &values[i]); d.HasError() {
			diags.Append(d...)
			return
		}
		if values[i].IsNull() || values[i].IsUnknown() || values[i].ValueString() == "" {
			return
		}
	}
	for i, a := range b.identity.attrs {
		diags.Append(identity.SetAttribute(ctx, path.Root(a.name), values[i])...)
	}
}

// importIDFromIdentity sets req.ID from the identity of an import block
// (`import { identity = {...} }`) so that ImportState goes on as for an
// import by ID. It reports false, with diagnostics, when the identity is
// unusable; an import by ID passes through untouched.
func (b *resourceBase) importIDFromIdentity(ctx context.Context, req *resource.ImportStateRequest, diags *diag.Diagnostics) bool {
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		return true
	}
	values := make([]string, len(b.identity.attrs))
	for i, a := range b.identity.attrs {
		var v types.String
		if d := req.Identity.GetAttribute(ctx, path.Root(a.name), &v); d.HasError() {
			diags.Append(d...)
			return false
		}
		values[i] = strings.TrimSpace(v.ValueString())
		if values[i] == "" || strings.Contains(values[i], "/") {
			diags.AddAttributeError(path.Root(a.name), "Invalid Import Identity", fmt.Sprintf(
				"The import identity of %s needs %s (%s), a hash without \"/\"; got %q. Set it to the hash, "+
					"as `terraform state show` or the Flipbook web application shows it.",
				b.typeName(), a.name, a.description, v.ValueString()))
			return false
		}
	}
	req.ID = b.identity.importID(values)
	return true
}
