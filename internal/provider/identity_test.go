package provider

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// Resource identity needs Terraform 1.12 (or OpenTofu 1.12); the older CLI
// skips these tests and keeps importing by ID in every resource's own test.
var identityCLIs = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// identityCase is one resource's identity test.
type identityCase struct {
	addr string
	cfg  string // creates addr
	want map[string]knownvalue.Check
	// from maps each identity attribute to the state attribute it mirrors.
	from map[string]string
	// adopts: the service cannot report every argument (sections, a file),
	// so the import plans an in-place update that adopts the configuration.
	adopts bool
	// generated checks the plan of `terraform plan -generate-config-out`;
	// nil when the generated block cannot be complete (adopts).
	generated plancheck.PlanCheck
}

// testAccIdentity creates the resource and checks its identity, that the
// identity survives a refresh with an empty plan, that an import {} block by
// identity finds the same object (plugin-testing compares the identities),
// and, where the generated configuration can be complete, that it imports
// with no change.
func testAccIdentity(t *testing.T, c identityCase) {
	t.Helper()
	checks := []statecheck.StateCheck{statecheck.ExpectIdentity(c.addr, c.want)}
	for id, st := range c.from {
		checks = append(checks, statecheck.ExpectIdentityValueMatchesStateAtPath(c.addr, tfjsonpath.New(id), tfjsonpath.New(st)))
	}
	importStep := resource.TestStep{
		ResourceName:    c.addr,
		ImportState:     true,
		ImportStateKind: resource.ImportBlockWithResourceIdentity,
	}
	if c.adopts {
		importStep.ExpectNonEmptyPlan = true
		importStep.ImportPlanChecks.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionUpdate)}
	}
	steps := []resource.TestStep{
		{Config: c.cfg, ConfigStateChecks: checks},
		{
			Config:            c.cfg,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(c.addr, c.want)},
		},
		importStep,
	}
	if c.generated != nil {
		steps = append(steps, resource.TestStep{
			ResourceName:     c.addr,
			ImportState:      true,
			ImportStateKind:  resource.ImportBlockWithResourceIdentity,
			GenerateConfig:   true,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{c.generated}},
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

var attachedIdentityWant = map[string]knownvalue.Check{"collection_hash": knownvalue.StringExact("col-private")}

func TestAccIdentity_collectionBackground(t *testing.T) {
	emu := newTestEmulator(t, nil)
	testAccIdentity(t, identityCase{
		addr: "flipbook_collection_background.test",
		cfg:  backgroundConfig(emu, "col-private", ""),
		want: attachedIdentityWant,
		from: map[string]string{"collection_hash": "collection_hash"},
		generated: plancheck.ExpectKnownValue("flipbook_collection_background.generated", tfjsonpath.New("collection_hash"),
			knownvalue.StringExact("col-private")),
	})
}

func TestAccIdentity_collectionPermissions(t *testing.T) {
	emu := newTestEmulator(t, nil)
	testAccIdentity(t, identityCase{
		addr: "flipbook_collection_permissions.test",
		cfg:  permissionsConfig(emu, "col-private", "", `{ type = "teammate", group = "Sales" }`),
		want: attachedIdentityWant,
		from: map[string]string{"collection_hash": "collection_hash"},
		generated: plancheck.ExpectKnownValue("flipbook_collection_permissions.generated", tfjsonpath.New("permissions"),
			knownvalue.SetExact([]knownvalue.Check{permissionValue("teammate", "", "Sales")})),
	})
}

func TestAccIdentity_collectionLogo(t *testing.T) {
	emu := newTestEmulator(t, nil)
	logo := writeTestPNG(t, t.TempDir(), "logo.png", 8, 8, color.White)
	testAccIdentity(t, identityCase{
		addr:   "flipbook_collection_logo.test",
		cfg:    logoConfig(emu, fmt.Sprintf("file = %q", logo)),
		want:   attachedIdentityWant,
		from:   map[string]string{"collection_hash": "collection_hash"},
		adopts: true, // the service cannot report the file a logo came from
	})
}

func TestAccIdentity_document(t *testing.T) {
	emu := newTestEmulator(t, nil)
	pdf := writeTestPDF(t, t.TempDir(), "manual.pdf", 2)
	testAccIdentity(t, identityCase{
		addr: "flipbook_document.test",
		cfg:  documentConfig(emu, "col-private", fmt.Sprintf("file = %q", pdf)),
		want: map[string]knownvalue.Check{
			"collection_hash": knownvalue.StringExact("col-private"),
			"flipbook_hash":   knownvalue.StringRegexp(hashPattern),
		},
		from:   map[string]string{"collection_hash": "collection_hash", "flipbook_hash": "id"},
		adopts: true, // nor the file a document came from
	})
}

func TestAccIdentity_templateCollection(t *testing.T) {
	emu := newTestEmulator(t, nil)
	testAccIdentity(t, identityCase{
		addr:   brochureAddr,
		cfg:    emu.providerConfig("") + brochure("Identity", ""),
		want:   map[string]knownvalue.Check{"collection_hash": knownvalue.StringRegexp(hashPattern)},
		from:   map[string]string{"collection_hash": "id"},
		adopts: true, // nor the sections a collection was generated from
	})
}

func TestAccIdentity_catalog(t *testing.T) {
	emu := newTestEmulator(t, nil)
	testAccIdentity(t, identityCase{
		addr:   shoesAddr,
		cfg:    emu.providerConfig("") + catalog(trailByPrice),
		want:   map[string]knownvalue.Check{"collection_hash": knownvalue.StringRegexp(hashPattern)},
		from:   map[string]string{"collection_hash": "id"},
		adopts: true,
	})
}

// An identity that names no usable hash is refused before any call.
func TestAccIdentity_invalidImportIdentity(t *testing.T) {
	emu := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		TerraformVersionChecks:   identityCLIs,
		Steps: []resource.TestStep{
			{
				Config: emu.providerConfig("") + `
import {
  to       = flipbook_collection_background.test
  identity = { collection_hash = " " }
}
resource "flipbook_collection_background" "test" {
  collection_hash = "col-private"
}
`,
				ExpectError: msgRe("Invalid Import Identity", "needs collection_hash"),
			},
			{
				Config: emu.providerConfig("") + `
import {
  to       = flipbook_document.test
  identity = { collection_hash = "col-private", flipbook_hash = "a/b" }
}
resource "flipbook_document" "test" {
  collection_hash = "col-private"
  file_url        = "https://example.com/manual.pdf"
}
`,
				ExpectError: msgRe("Invalid Import Identity", "needs flipbook_hash"),
			},
		},
	})
	expectNoAPICalls(t, emu)
}

// The identity follows the state without Terraform: the mapping each kind
// of resource declares, both ways.
func TestIdentityMapping(t *testing.T) {
	ctx := t.Context()
	cases := []struct {
		res    fwresource.Resource
		state  map[string]string // state attributes set
		want   map[string]string // identity
		wantID string            // import ID built from that identity
	}{
		{newCollectionBackgroundResource(), map[string]string{"id": "c1", "collection_hash": "c1"}, map[string]string{"collection_hash": "c1"}, "c1"},
		{newCollectionPermissionsResource(), map[string]string{"id": "c2", "collection_hash": "c2"}, map[string]string{"collection_hash": "c2"}, "c2"},
		{newCollectionLogoResource(), map[string]string{"id": "c3", "collection_hash": "c3"}, map[string]string{"collection_hash": "c3"}, "c3"},
		{newTemplateCollectionResource(), map[string]string{"id": "c4"}, map[string]string{"collection_hash": "c4"}, "c4"},
		{newCatalogResource(), map[string]string{"id": "c5"}, map[string]string{"collection_hash": "c5"}, "c5"},
		{newDocumentResource(), map[string]string{"id": "f6", "collection_hash": "c6"}, map[string]string{"collection_hash": "c6", "flipbook_hash": "f6"}, "c6/f6"},
	}
	for _, tc := range cases {
		var md fwresource.MetadataResponse
		tc.res.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "flipbook"}, &md)
		t.Run(md.TypeName, func(t *testing.T) {
			withID, ok := tc.res.(fwresource.ResourceWithIdentity)
			if !ok {
				t.Fatal("not a ResourceWithIdentity")
			}
			var is fwresource.IdentitySchemaResponse
			withID.IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &is)
			if len(is.IdentitySchema.Attributes) != len(tc.want) {
				t.Fatalf("identity schema has %d attributes, want %d", len(is.IdentitySchema.Attributes), len(tc.want))
			}
			var ss fwresource.SchemaResponse
			tc.res.Schema(ctx, fwresource.SchemaRequest{}, &ss)
			state := tfsdk.State{Schema: ss.Schema, Raw: tftypes.NewValue(ss.Schema.Type().TerraformType(ctx), nil)}
			for k, v := range tc.state {
				if d := state.SetAttribute(ctx, path.Root(k), v); d.HasError() {
					t.Fatal(d)
				}
			}
			identity := &tfsdk.ResourceIdentity{Schema: is.IdentitySchema, Raw: tftypes.NewValue(is.IdentitySchema.Type().TerraformType(ctx), nil)}
			base := baseOf(t, tc.res)
			var diags diag.Diagnostics
			base.setIdentity(ctx, &state, identity, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			for k, v := range tc.want {
				var got string
				if d := identity.GetAttribute(ctx, path.Root(k), &got); d.HasError() || got != v {
					t.Errorf("identity %s = %q (%v), want %q", k, got, d, v)
				}
			}
			req := fwresource.ImportStateRequest{Identity: identity}
			if !base.importIDFromIdentity(ctx, &req, &diags) || req.ID != tc.wantID {
				t.Errorf("import ID from identity = %q (%v), want %q", req.ID, diags, tc.wantID)
			}

			// A state without the hashes (a create that failed early)
			// leaves the identity null rather than half set.
			empty := tfsdk.State{Schema: ss.Schema, Raw: tftypes.NewValue(ss.Schema.Type().TerraformType(ctx), nil)}
			if d := empty.SetAttribute(ctx, path.Root("id"), ""); d.HasError() {
				t.Fatal(d)
			}
			fresh := &tfsdk.ResourceIdentity{Schema: is.IdentitySchema, Raw: tftypes.NewValue(is.IdentitySchema.Type().TerraformType(ctx), nil)}
			base.setIdentity(ctx, &empty, fresh, &diags)
			if !fresh.Raw.IsNull() {
				t.Errorf("identity from a state without hashes = %v, want null", fresh.Raw)
			}
		})
	}
}

// baseOf is the resourceBase a resource embeds.
func baseOf(t *testing.T, r fwresource.Resource) *resourceBase {
	t.Helper()
	switch r := r.(type) {
	case *collectionResource:
		return &r.resourceBase
	case *collectionPermissionsResource:
		return &r.resourceBase
	case *collectionLogoResource:
		return &r.resourceBase
	case *collectionBackgroundResource:
		return &r.resourceBase
	case *documentResource:
		return &r.resourceBase
	}
	t.Fatalf("%T embeds no resourceBase this test knows", r)
	return nil
}
