package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// These tests call the resource's methods directly: terraform-plugin-testing
// does not expose warnings, and the warnings are the point here.

func testCollectionResource(t *testing.T, e *testEmulator) (*collectionResource, tfsdk.State) {
	t.Helper()
	r, ok := newTemplateCollectionResource().(*collectionResource)
	if !ok {
		t.Fatal("newTemplateCollectionResource is not a *collectionResource")
	}
	return r, configuredResource(t, r, e)
}

// configuredResource configures r as the provider would, with a client of e
// (none when e is nil, so that any call would fail), and returns a null state
// of r's schema.
func configuredResource(t *testing.T, r resource.Resource, e *testEmulator) tfsdk.State {
	t.Helper()
	if e != nil {
		rc, ok := r.(resource.ResourceWithConfigure)
		if !ok {
			t.Fatalf("%T has no Configure", r)
		}
		var cresp resource.ConfigureResponse
		rc.Configure(t.Context(), resource.ConfigureRequest{ProviderData: &providerData{client: e.apiClient(t)}}, &cresp)
		if cresp.Diagnostics.HasError() {
			t.Fatal(cresp.Diagnostics)
		}
	}
	var sresp resource.SchemaResponse
	r.Schema(t.Context(), resource.SchemaRequest{}, &sresp)
	if sresp.Diagnostics.HasError() {
		t.Fatal(sresp.Diagnostics)
	}
	typ := sresp.Schema.Type().TerraformType(t.Context())
	return tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, nil)}
}

func stateWithID(t *testing.T, s tfsdk.State, id string) tfsdk.State {
	t.Helper()
	if d := s.SetAttribute(t.Context(), path.Root("id"), id); d.HasError() {
		t.Fatal(d)
	}
	return s
}

func onlyWarning(t *testing.T, diags diag.Diagnostics) diag.Diagnostic {
	t.Helper()
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want exactly one warning, got %v", diags)
	}
	return diags.Warnings()[0]
}

func TestCollectionReadAfterPublishWarns(t *testing.T) {
	e := newTestEmulator(t, nil)
	r, empty := testCollectionResource(t, e)
	if _, err := e.Emulator.Publish("col-draft"); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	req := resource.ReadRequest{State: stateWithID(t, empty, "col-draft")}
	resp := resource.ReadResponse{State: req.State}
	r.Read(ctx, req, &resp)

	expectDiagnostic(t, onlyWarning(t, resp.Diagnostics), "Flipbook Collection Hash No Longer Exists", "col-draft", "Publishing", "new hash")
	if resp.State.Raw.IsNull() {
		t.Error("a collection whose hash is gone must stay in the state: forgetting it generates a second one")
	}
}

func TestCollectionReadForbiddenKeepsStateWithWarning(t *testing.T) {
	e := newTestEmulator(t, nil)
	r, empty := testCollectionResource(t, e)
	ctx := t.Context()
	req := resource.ReadRequest{State: stateWithID(t, empty, "stranger-private")}
	resp := resource.ReadResponse{State: req.State}
	r.Read(ctx, req, &resp)
	expectDiagnostic(t, onlyWarning(t, resp.Diagnostics), "Flipbook Collection Refused", "stranger-private", "code 43")
	if resp.State.Raw.IsNull() {
		t.Error("a forbidden collection must never be removed from state")
	}
}

func TestCollectionDeleteKeepsItWithWarning(t *testing.T) {
	r, empty := testCollectionResource(t, nil) // no client: Delete must make no call
	req := resource.DeleteRequest{State: stateWithID(t, empty, "abc123")}
	resp := resource.DeleteResponse{State: req.State}
	r.Delete(t.Context(), req, &resp)
	expectDiagnostic(t, onlyWarning(t, resp.Diagnostics), "Flipbook Collection Kept In The Account", "abc123")
}

func TestCollectionDestroyPlanWarns(t *testing.T) {
	r, empty := testCollectionResource(t, nil)
	state := stateWithID(t, empty, "abc123")
	req := resource.ModifyPlanRequest{State: state, Plan: tfsdk.Plan{Schema: state.Schema, Raw: tftypes.NewValue(state.Raw.Type(), nil)}}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(t.Context(), req, &resp)
	expectDiagnostic(t, onlyWarning(t, resp.Diagnostics), "Destroy Keeps The Flipbook Collection", "abc123")
}

func TestCollectionReplacementPlanWarns(t *testing.T) {
	ctx := t.Context()
	r, empty := testCollectionResource(t, nil)
	state := stateWithID(t, empty, "abc123")
	sections := []templateSectionModel{{
		Type: types.StringValue("blank"), PageBreak: types.BoolNull(), PageCount: types.Int64Value(1),
	}}
	if d := state.SetAttribute(ctx, path.Root("sections"), sections); d.HasError() {
		t.Fatal(d)
	}
	if d := state.SetAttribute(ctx, path.Root("title"), "old"); d.HasError() {
		t.Fatal(d)
	}
	plan := tfsdk.Plan{Schema: state.Schema, Raw: state.Raw.Copy()}

	run := func(plan tfsdk.Plan) diag.Diagnostics {
		resp := resource.ModifyPlanResponse{Plan: plan}
		r.ModifyPlan(ctx, resource.ModifyPlanRequest{State: state, Plan: plan, Config: tfsdk.Config(plan)}, &resp)
		return resp.Diagnostics
	}
	if d := run(plan); len(d) != 0 {
		t.Errorf("an unchanged plan must not warn: %v", d)
	}
	if d := plan.SetAttribute(ctx, path.Root("title"), "new"); d.HasError() {
		t.Fatal(d)
	}
	expectDiagnostic(t, onlyWarning(t, run(plan)), "Replacement Keeps The Old Flipbook Collection", "abc123")
}

// The replacement warning follows the replace decision itself: a folder
// changed only in letter case is stored in place and must not warn, while a
// different folder, or any change to an imported collection's adopted
// configuration, warns or not exactly as it replaces or not.
func TestCollectionReplacementWarningFollowsReplaceDecision(t *testing.T) {
	ctx := t.Context()
	r, empty := testCollectionResource(t, nil)
	sections := []templateSectionModel{{
		Type: types.StringValue("blank"), PageBreak: types.BoolNull(), PageCount: types.Int64Value(1),
	}}
	set := func(s *tfsdk.State, at string, v any) {
		t.Helper()
		if d := s.SetAttribute(ctx, path.Root(at), v); d.HasError() {
			t.Fatal(d)
		}
	}
	generated := stateWithID(t, empty, "abc123")
	set(&generated, "sections", sections)
	set(&generated, "folder", "Marketing/Spring")
	imported := stateWithID(t, empty, "imp456") // an import holds no sections
	set(&imported, "folder", "Marketing/Spring")

	cases := []struct {
		name   string
		state  tfsdk.State
		folder string
		warn   bool
	}{
		{"folder case only", generated, "MARKETING/spring", false},
		{"other folder", generated, "Marketing/Summer", true},
		{"imported, other folder", imported, "Marketing/Summer", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			planned := tfsdk.State{Schema: generated.Schema, Raw: generated.Raw.Copy()}
			set(&planned, "folder", c.folder)
			plan := tfsdk.Plan(planned)
			resp := resource.ModifyPlanResponse{Plan: plan}
			r.ModifyPlan(ctx, resource.ModifyPlanRequest{State: c.state, Plan: plan, Config: tfsdk.Config(plan)}, &resp)
			if !c.warn {
				if len(resp.Diagnostics) != 0 {
					t.Fatalf("a change applied in place must not warn of replacement: %v", resp.Diagnostics)
				}
				return
			}
			if w := onlyWarning(t, resp.Diagnostics); w.Summary() != "Replacement Keeps The Old Flipbook Collection" {
				t.Errorf("warning %q, want the replacement warning", w.Summary())
			}
		})
	}
}

// flipbookStatus is the collection's as a whole: a failed document added to
// a healthy collection must not read as a failed generation.
func TestGenerationFailed(t *testing.T) {
	item := func(status string) apiclient.CollectionItem { return apiclient.CollectionItem{ConvertStatus: status} }
	cases := []struct {
		name   string
		col    apiclient.Collection
		failed bool
	}{
		{"complete", apiclient.Collection{FlipbookStatus: "complete", CollectionItems: []apiclient.CollectionItem{item("COMPLETE")}}, false},
		{"generation failed", apiclient.Collection{FlipbookStatus: "failed", CollectionItems: []apiclient.CollectionItem{item("FAILED")}}, true},
		{"failed with no item", apiclient.Collection{FlipbookStatus: "failed"}, true},
		{"an added document failed", apiclient.Collection{FlipbookStatus: "failed",
			CollectionItems: []apiclient.CollectionItem{item("COMPLETE"), item("FAILED")}}, false},
	}
	for _, c := range cases {
		if got := generationFailed(&c.col); got != c.failed {
			t.Errorf("%s: generationFailed = %v, want %v", c.name, got, c.failed)
		}
	}
}
