package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ resource.Resource                     = (*collectionLogoResource)(nil)
	_ resource.ResourceWithConfigure        = (*collectionLogoResource)(nil)
	_ resource.ResourceWithImportState      = (*collectionLogoResource)(nil)
	_ resource.ResourceWithIdentity         = (*collectionLogoResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*collectionLogoResource)(nil)
	_ resource.ResourceWithConfigValidators = (*collectionLogoResource)(nil)
)

func newCollectionLogoResource() resource.Resource {
	return &collectionLogoResource{resourceBase{objectBase: objectBase{typeSuffix: "collection_logo"}, identity: attachedIdentity}}
}

// privateAppliedLogo is the private-state key holding the logoImage this
// resource last set, so that a logo replaced outside Terraform is drift.
const privateAppliedLogo = "applied_logo_image"

type collectionLogoResource struct {
	resourceBase
}

type collectionLogoModel struct {
	ID             types.String `tfsdk:"id"`
	CollectionHash types.String `tfsdk:"collection_hash"`
	File           types.String `tfsdk:"file"`
	FileURL        types.String `tfsdk:"file_url"`
	FileSHA256     types.String `tfsdk:"file_sha256"`
	ClickURL       types.String `tfsdk:"click_url"`
	LogoImage      types.String `tfsdk:"logo_image"`
}

func (r *collectionLogoResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The logo a collection's player shows (`collection.setLogo`).\n\n" +
			"Give `file` (a local image, streamed from disk) or `file_url` (the service fetches it); with both, the service uses `file` (a warning says so). A local " +
			"file is checked and hashed when the plan is made: it must exist. The spec states no allowed types or size for " +
			"logos, so a file that is not a PNG, JPEG, GIF, WebP or SVG image (by its content), or is over 100 MB, only gets " +
			"a warning and the service decides. New content on disk (`file_sha256`), another URL or another `click_url` sets " +
			"the logo again, in place.\n\n" +
			"What refresh can see: `collection.getCollection` reports the logo's identifier (`logo_image`) but never the " +
			"click URL (the spec marks `logoUrl` deprecated there). A logo replaced outside Terraform shows as a planned " +
			"update that sets this logo again; a changed click URL cannot be seen.\n\n" +
			"The API cannot remove a logo: destroying the resource only removes it from the state (with a warning) and " +
			"the logo stays. Import by collection hash.",
		Attributes: map[string]schema.Attribute{
			"id":              collectionIDAttribute(),
			"collection_hash": collectionHashAttribute("Hash of the collection whose logo this is."),
			"file": schema.StringAttribute{
				MarkdownDescription: "Path of a local image. The spec states no allowed types or size for logos: a file that is not PNG, JPEG, GIF, WebP or SVG, or is over 100 MB, gets a warning and is sent. Wins over `file_url`.",
				Optional:            true,
				Validators:          nonEmptyString(),
			},
			"file_url": schema.StringAttribute{
				MarkdownDescription: "URL of an image that the service downloads. Not used when `file` is set. A change of " +
					"content at the same URL is not detected.",
				Optional:   true,
				Validators: httpURLValidators,
			},
			"file_sha256": fileSHA256Attribute(),
			"click_url": schema.StringAttribute{
				MarkdownDescription: "URL opened when a viewer clicks the logo (the API's `logoUrl`). Removing it from the " +
					"configuration leaves the service's value as it is: the API has no way to clear it.",
				Optional:   true,
				Validators: httpURLValidators,
			},
			"logo_image": schema.StringAttribute{
				MarkdownDescription: "Identifier of the logo image, as `collection.setLogo` reports it.",
				Computed:            true,
			},
		},
	}
}

func (r *collectionLogoResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return fileSourceValidators()
}

func (r *collectionLogoResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan collectionLogoModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.FileSHA256 = planFileSHA256(plan.File, logoFile, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		plan.LogoImage = types.StringUnknown()
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	var state collectionLogoModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	moving := planAttached(ctx, r.client, req, resp, "its logo")
	if !moving && !plan.CollectionHash.Equal(state.CollectionHash) {
		resp.Diagnostics.AddAttributeWarning(path.Root("collection_hash"), "Replacement Keeps The Old Logo", fmt.Sprintf(
			"The API cannot remove a logo, so moving this resource to another collection sets the logo there and leaves "+
				"the one on collection %s in place. Change it in the Flipbook web application if it should go.",
			state.CollectionHash.ValueString()))
	}
	if moving {
		plan.ID = plan.CollectionHash
	}
	applied, replacedOutside := appliedLogo(ctx, req.Private, &resp.Diagnostics)
	replacedOutside = replacedOutside && !state.LogoImage.Equal(types.StringValue(applied))
	changed := !plan.File.Equal(state.File) || !plan.FileURL.Equal(state.FileURL) ||
		!plan.FileSHA256.Equal(state.FileSHA256) || !plan.ClickURL.Equal(state.ClickURL)
	if adoptsImported(state) {
		changed = false // the configured source is recorded; nothing is sent
	}
	if changed || replacedOutside || moving {
		plan.LogoImage = types.StringUnknown()
	} else {
		plan.LogoImage = state.LogoImage
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// privateGetter is the read side of the framework's private state.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// appliedLogo returns the logoImage this resource last set; ok is false when
// it is not known (an imported logo).
func appliedLogo(ctx context.Context, p privateGetter, diags *diag.Diagnostics) (string, bool) {
	b, d := p.GetKey(ctx, privateAppliedLogo)
	diags.Append(d...)
	if len(b) == 0 {
		return "", false
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", false
	}
	return s, true
}

func (r *collectionLogoResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createWith(ctx, &r.resourceBase, req, resp, func(plan *collectionLogoModel) {
		if r.setLogo(ctx, plan, &resp.Diagnostics) {
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			r.rememberLogo(ctx, resp.Private, plan.LogoImage.ValueString(), &resp.Diagnostics)
		}
	})
}

func (r *collectionLogoResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateWith(ctx, &r.resourceBase, req, resp, func(plan, state *collectionLogoModel) {
		if moved, done := r.followMove(ctx, plan, *state, resp); done {
			if moved {
				resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
				r.rememberLogo(ctx, resp.Private, plan.LogoImage.ValueString(), &resp.Diagnostics)
				rememberRefusal(ctx, resp.Private, nil, &resp.Diagnostics)
			}
			return
		}
		if adoptsImported(*state) && plan.CollectionHash.Equal(state.CollectionHash) {
			plan.ID, plan.LogoImage = state.ID, state.LogoImage
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			return
		}
		if adoptsImported(*state) && plan.CollectionHash.Equal(state.CollectionHash) {
			plan.ID, plan.LogoImage = state.ID, state.LogoImage
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			return
		}
		if r.setLogo(ctx, plan, &resp.Diagnostics) {
			resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
			r.rememberLogo(ctx, resp.Private, plan.LogoImage.ValueString(), &resp.Diagnostics)
			rememberRefusal(ctx, resp.Private, nil, &resp.Diagnostics)
			return
		}
		// Nothing was set: keep the prior state rather than the plan.
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	})
}

// adoptsImported reports an imported logo meeting its configuration for the
// first time: the service does not report the file a logo came from, so the
// configured source is recorded and the logo the collection shows is kept,
// not uploaded again (the import example says so).
func adoptsImported(state collectionLogoModel) bool {
	return state.File.IsNull() && state.FileURL.IsNull() && state.LogoImage.ValueString() != ""
}

// followMove handles an update that only follows the collection to the new
// hash publishing gave it: publishing keeps the logo, so it is read there
// and adopted rather than uploaded again; only a collection that shows no
// logo gets it sent. done is false when the update is not such a move.
func (r *collectionLogoResource) followMove(ctx context.Context, plan *collectionLogoModel, state collectionLogoModel,
	resp *resource.UpdateResponse,
) (moved, done bool) {
	sameSource := plan.File.Equal(state.File) && plan.FileURL.Equal(state.FileURL) &&
		plan.FileSHA256.Equal(state.FileSHA256) && plan.ClickURL.Equal(state.ClickURL)
	if plan.CollectionHash.Equal(state.CollectionHash) || !sameSource {
		return false, false
	}
	hash := plan.CollectionHash.ValueString()
	col, err := r.client.GetCollection(ctx, hash)
	if err != nil {
		addCollectionAPIError(&resp.Diagnostics, "Error Reading Logo", "reading collection "+hash+" to follow its logo there", err)
		return false, true
	}
	if col.Settings.LogoImage == "" {
		return false, false
	}
	plan.ID = plan.CollectionHash
	plan.LogoImage = types.StringValue(col.Settings.LogoImage)
	return true, true
}

// privateSetter is the write side of the framework's private state.
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func (r *collectionLogoResource) rememberLogo(ctx context.Context, p privateSetter, logo string, diags *diag.Diagnostics) {
	b, _ := json.Marshal(logo)
	diags.Append(p.SetKey(ctx, privateAppliedLogo, b)...)
}

// setLogo calls collection.setLogo and fills the computed attributes; false
// when nothing was set.
func (r *collectionLogoResource) setLogo(ctx context.Context, m *collectionLogoModel, diags *diag.Diagnostics) bool {
	hash := m.CollectionHash.ValueString()
	in := apiclient.SetLogoInput{CollectionHash: hash, FileURL: m.FileURL.ValueString(), LogoURL: m.ClickURL.ValueString()}
	at, source := fileSource(m.File, m.FileURL)
	if !m.File.IsNull() {
		up := openPlannedUpload(m.File, m.FileSHA256, logoFile, diags)
		if up == nil {
			return false
		}
		defer up.Close()
		in.File = up.Upload
		defer func() {
			if !diags.HasError() {
				recordSentSHA256(up, &m.FileSHA256, "The logo now shows what was sent; apply again to upload the current file.", diags)
			}
		}()
	}
	col, err := r.client.SetLogo(ctx, in)
	if err != nil {
		doing := fmt.Sprintf("setting %q as the logo of collection %s", source, hash)
		switch {
		case apiclient.IsFileTooLarge(err):
			addAPIAttributeError(diags, at, "Logo Image Too Large", doing, err)
		case apiclient.IsInvalidFileFormat(err):
			addAPIAttributeError(diags, at, "Logo Image Not Accepted", doing, err)
		default:
			addCollectionAPIError(diags, "Error Setting Logo", doing, err)
		}
		return false
	}
	m.ID = types.StringValue(hash)
	m.LogoImage = types.StringValue(col.Settings.LogoImage)
	return true
}

func (r *collectionLogoResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readFromCollection(ctx, &r.resourceBase, req, resp, func(m *collectionLogoModel) collectionRead {
		return collectionRead{hash: m.CollectionHash.ValueString(), what: "its logo", summary: "Error Reading Logo"}
	}, func(m *collectionLogoModel, col *apiclient.Collection, _ *resource.ReadResponse) bool {
		m.ID = types.StringValue(m.CollectionHash.ValueString())
		// The click URL is never returned; the logo identifier is, and a
		// different one means the logo was replaced (ModifyPlan plans it back).
		if logo := col.Settings.LogoImage; logo != "" {
			m.LogoImage = types.StringValue(logo)
		}
		return true
	})
}

func (r *collectionLogoResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state collectionLogoModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Logo Left On Collection", destroyKeepsDetail("remove a logo", fmt.Sprintf(
		"the logo of collection %s still shows in the player. Change it in the Flipbook web application if it should go.",
		state.CollectionHash.ValueString())))
}
