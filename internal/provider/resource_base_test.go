package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// attachedResources are the resources whose Read asks the service about the
// collection in collection_hash (or id, for the generated collections).
var attachedResources = []struct {
	name   string
	new    func() resource.Resource
	hashAt []string // attributes set to the collection hash
	id     string   // the id when it is not the collection hash
}{
	{"template collection", newTemplateCollectionResource, []string{"id"}, ""},
	{"catalog", newCatalogResource, []string{"id"}, ""},
	{"logo", newCollectionLogoResource, []string{"id", "collection_hash"}, ""},
	{"background", newCollectionBackgroundResource, []string{"id", "collection_hash"}, ""},
	{"permissions", newCollectionPermissionsResource, []string{"id", "collection_hash"}, ""},
	{"document", newDocumentResource, []string{"collection_hash"}, "0123456789abcdef"},
}

// attachedState is state with hash in the attributes hashAt names, and id
// (unless "") in id.
func attachedState(t *testing.T, state tfsdk.State, hashAt []string, id, hash string) tfsdk.State {
	t.Helper()
	values := map[string]string{}
	for _, name := range hashAt {
		values[name] = hash
	}
	if id != "" {
		values["id"] = id
	}
	for name, v := range values {
		if d := state.SetAttribute(t.Context(), path.Root(name), v); d.HasError() {
			t.Fatal(d)
		}
	}
	return state
}

// readAttached runs Read of the resource on a state pointing at hash.
func readAttached(t *testing.T, e *testEmulator, newResource func() resource.Resource, hashAt []string, id, hash string) resource.ReadResponse {
	t.Helper()
	r := newResource()
	state := attachedState(t, configuredResource(t, r, e), hashAt, id, hash)
	req := resource.ReadRequest{State: state}
	resp := resource.ReadResponse{State: tfsdk.State{Schema: state.Schema, Raw: state.Raw.Copy()}}
	r.Read(t.Context(), req, &resp)
	return resp
}

// A published collection's old hash answers 46: every attached resource
// stays in the state as it was, with a warning that names the hash and says
// that nothing is made again: forgetting it would make the next apply
// generate or upload a second one.
func TestReadKeepsStateWithWarningWhenCollectionGone(t *testing.T) {
	e := newTestEmulator(t, nil)
	if _, err := e.Emulator.Publish("col-draft"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range attachedResources {
		t.Run(tc.name, func(t *testing.T) {
			resp := readAttached(t, e, tc.new, tc.hashAt, tc.id, "col-draft")
			w := onlyWarning(t, resp.Diagnostics)
			if w.Summary() != "Flipbook Collection Hash No Longer Exists" {
				t.Errorf("summary %q", w.Summary())
			}
			for _, want := range []string{"col-draft", "code 46", "stays in the Terraform state", "new hash"} {
				if !strings.Contains(w.Detail(), want) {
					t.Errorf("warning %q does not mention %q", w.Detail(), want)
				}
			}
			if resp.State.Raw.IsNull() {
				t.Error("a collection whose hash is gone must stay in the state")
			}
		})
	}
}

// Another account's (or a deleted) collection answers 43: a warning, and the
// state stays, so that wrong credentials never make Terraform forget real
// objects and a deleted collection never blocks the workspace.
func TestReadKeepsStateWhenCollectionForbidden(t *testing.T) {
	e := newTestEmulator(t, nil)
	for _, tc := range attachedResources {
		t.Run(tc.name, func(t *testing.T) {
			resp := readAttached(t, e, tc.new, tc.hashAt, tc.id, "stranger-private")
			w := onlyWarning(t, resp.Diagnostics)
			for _, want := range []string{"stranger-private", "code 43", "remove this resource block", "api_key"} {
				if !strings.Contains(w.Detail(), want) {
					t.Errorf("warning %q does not mention %q", w.Detail(), want)
				}
			}
			if resp.State.Raw.IsNull() {
				t.Error("a forbidden collection must stay in state")
			}
		})
	}
}

// The resources that configure a collection import by its hash, which
// becomes both id and collection_hash; an empty ID says how to import.
func TestImportByCollectionHash(t *testing.T) {
	for _, tc := range attachedResources {
		if len(tc.hashAt) != 2 {
			continue // not identified by the collection hash alone
		}
		t.Run(tc.name, func(t *testing.T) {
			r, ok := tc.new().(resource.ResourceWithImportState)
			if !ok {
				t.Fatalf("%s does not import", tc.name)
			}
			empty := configuredResource(t, r, nil)
			resp := resource.ImportStateResponse{State: empty}
			r.ImportState(t.Context(), resource.ImportStateRequest{ID: " "}, &resp)
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "<collection_hash>") {
				t.Errorf("an empty ID must be an error that shows the form, got %v", resp.Diagnostics)
			}

			resp = resource.ImportStateResponse{State: empty}
			r.ImportState(t.Context(), resource.ImportStateRequest{ID: "abc123"}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			for _, name := range tc.hashAt {
				var got string
				if d := resp.State.GetAttribute(t.Context(), path.Root(name), &got); d.HasError() || got != "abc123" {
					t.Errorf("%s = %q (%v), want abc123", name, got, d)
				}
			}
		})
	}
}

// Destroying a resource the API cannot undo makes no call and warns, naming
// the collection, that what it made stays in the service.
func TestDestroyWithoutAPIOperationWarns(t *testing.T) {
	for _, tc := range attachedResources {
		if tc.name == "permissions" {
			continue // emptying the access list is a real delete
		}
		t.Run(tc.name, func(t *testing.T) {
			r := tc.new()
			// No client: any call would panic.
			state := attachedState(t, configuredResource(t, r, nil), tc.hashAt, "abc123", "abc123")
			resp := resource.DeleteResponse{State: state}
			r.Delete(t.Context(), resource.DeleteRequest{State: state}, &resp)
			w := onlyWarning(t, resp.Diagnostics)
			for _, want := range []string{"abc123", "cannot", "Terraform state"} {
				if !strings.Contains(w.Detail(), want) {
					t.Errorf("warning %q does not mention %q", w.Detail(), want)
				}
			}
		})
	}
}
