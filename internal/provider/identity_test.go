package provider

import (
	"fmt"
	"image/color"
	"regexp"
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

// identitySteps follow a step that applied cfg: the identity survives a
// refresh, and an import {} block by identity of addr plans nothing beyond
// the import (or, for a resource that adopts its configuration, an update).
func identitySteps(cfg, addr string, identity map[string]knownvalue.Check, importPlan []plancheck.PlanCheck, expectChange bool) []resource.TestStep {
	return []resource.TestStep{
		{
			// The identity survives refresh, and the plan stays empty.
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(addr, identity),
			},
		},
		{
			ResourceName:       addr,
			ImportState:        true,
			ImportStateKind:    resource.ImportBlockWithResourceIdentity,
			ExpectNonEmptyPlan: expectChange,
			ImportPlanChecks:   resource.ImportPlanChecks{PreApply: importPlan},
		},
	}
}

func TestAccIdentity_collectionBackground(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const hash = "pub-private-1"
	addr := "flipbook_collection_background.test"
	steps := []resource.TestStep{{
		Config: backgroundConfig(emu, hash, ""),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"collection_hash": knownvalue.StringExact(hash)}),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("collection_hash")),
		},
	}}
	steps = append(steps, identitySteps(steps[0].Config, addr, map[string]knownvalue.Check{"collection_hash": knownvalue.StringExact(hash)}, nil, false)...)
	steps = append(steps, resource.TestStep{
		// terraform plan -generate-config-out writes a configuration that
		// imports with no change.
		ResourceName:    addr,
		ImportState:     true,
		ImportStateKind: resource.ImportBlockWithResourceIdentity,
		GenerateConfig:  true,
		ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownValue("flipbook_collection_background.generated", tfjsonpath.New("collection_hash"), knownvalue.StringExact(hash)),
		}},
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

func TestAccIdentity_collectionPermissions(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const hash = "pub-private-1"
	addr := "flipbook_collection_permissions.test"
	cfg := permissionsConfig(emu, hash, "", `{ type = "teammate", group = "Sales" }`)
	want := map[string]knownvalue.Check{"collection_hash": knownvalue.StringExact(hash)}
	steps := []resource.TestStep{{
		Config:            cfg,
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(addr, want)},
	}}
	steps = append(steps, identitySteps(steps[0].Config, addr, want, nil, false)...)
	steps = append(steps, resource.TestStep{
		ResourceName:    addr,
		ImportState:     true,
		ImportStateKind: resource.ImportBlockWithResourceIdentity,
		GenerateConfig:  true,
		ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownValue("flipbook_collection_permissions.generated", tfjsonpath.New("permissions"),
				knownvalue.SetExact([]knownvalue.Check{permissionValue("teammate", "", "Sales")})),
		}},
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

func TestAccIdentity_collectionLogo(t *testing.T) {
	emu := newTestEmulator(t, nil)
	addr := "flipbook_collection_logo.test"
	logo := writeTestPNG(t, t.TempDir(), "logo.png", 8, 8, color.White)
	want := map[string]knownvalue.Check{"collection_hash": knownvalue.StringExact("pub-private-1")}
	steps := []resource.TestStep{{
		Config:            logoConfig(emu, fmt.Sprintf("file = %q", logo)),
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(addr, want)},
	}}
	// The service cannot report the file a logo came from: the import
	// adopts the configured file in place.
	steps = append(steps, identitySteps(steps[0].Config, addr, want, []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
	}, true)...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

func TestAccIdentity_document(t *testing.T) {
	emu := newTestEmulator(t, nil)
	const col = "pub-private-1"
	addr := "flipbook_document.test"
	pdf := writeTestPDF(t, t.TempDir(), "manual.pdf", 2)
	want := map[string]knownvalue.Check{
		"collection_hash": knownvalue.StringExact(col),
		"flipbook_hash":   knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{16}$`)),
	}
	steps := []resource.TestStep{{
		Config: documentConfig(emu, col, fmt.Sprintf("file = %q", pdf)),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(addr, want),
			statecheck.ExpectIdentityValueMatchesStateAtPath(addr, tfjsonpath.New("flipbook_hash"), tfjsonpath.New("id")),
		},
	}}
	steps = append(steps, identitySteps(steps[0].Config, addr, want, []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
	}, true)...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

func TestAccIdentity_templateCollection(t *testing.T) {
	emu := newTestEmulator(t, nil)
	addr := brochureAddr
	want := map[string]knownvalue.Check{"collection_hash": knownvalue.StringRegexp(hashPattern)}
	steps := []resource.TestStep{{
		Config: emu.providerConfig("") + brochure("Identity", ""),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(addr, want),
			statecheck.ExpectIdentityValueMatchesStateAtPath(addr, tfjsonpath.New("collection_hash"), tfjsonpath.New("id")),
		},
	}}
	// The service cannot report the sections a collection was generated
	// from: the import adopts them in place, never by a new generation.
	steps = append(steps, identitySteps(steps[0].Config, addr, want, []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
	}, true)...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

func TestAccIdentity_catalog(t *testing.T) {
	emu := newTestEmulator(t, nil)
	want := map[string]knownvalue.Check{"collection_hash": knownvalue.StringRegexp(hashPattern)}
	steps := []resource.TestStep{{
		Config: emu.providerConfig("") + catalog(trailByPrice),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectIdentity(shoesAddr, want),
			statecheck.ExpectIdentityValueMatchesStateAtPath(shoesAddr, tfjsonpath.New("collection_hash"), tfjsonpath.New("id")),
		},
	}}
	steps = append(steps, identitySteps(steps[0].Config, shoesAddr, want, []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(shoesAddr, plancheck.ResourceActionUpdate),
	}, true)...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps:                    steps,
	})
}

// An identity that names no usable hash is refused before any call.
func TestAccIdentity_invalidImportIdentity(t *testing.T) {
	emu := newTestEmulator(t, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   identityCLIs,
		Steps: []resource.TestStep{
			{
				Config: emu.providerConfig("") + `
import {
  to       = flipbook_collection_background.test
  identity = { collection_hash = " " }
}
resource "flipbook_collection_background" "test" {
  collection_hash = "pub-private-1"
}
`,
				ExpectError: msgRe("Invalid Import Identity", "needs collection_hash"),
			},
			{
				Config: emu.providerConfig("") + `
import {
  to       = flipbook_document.test
  identity = { collection_hash = "pub-private-1", flipbook_hash = "a/b" }
}
resource "flipbook_document" "test" {
  collection_hash = "pub-private-1"
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
