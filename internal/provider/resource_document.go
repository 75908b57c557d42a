package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ resource.Resource                     = (*documentResource)(nil)
	_ resource.ResourceWithConfigure        = (*documentResource)(nil)
	_ resource.ResourceWithImportState      = (*documentResource)(nil)
	_ resource.ResourceWithIdentity         = (*documentResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*documentResource)(nil)
	_ resource.ResourceWithConfigValidators = (*documentResource)(nil)
)

func newDocumentResource() resource.Resource {
	return &documentResource{resourceBase{objectBase: objectBase{typeSuffix: "document"}, identity: documentIdentity}}
}

// defaultConversionTimeout bounds upload plus conversion when the timeouts
// attribute does not.
const defaultConversionTimeout = 20 * time.Minute

type documentResource struct {
	resourceBase
}

type documentModel struct {
	ID             types.String   `tfsdk:"id"`
	CollectionHash types.String   `tfsdk:"collection_hash"`
	File           types.String   `tfsdk:"file"`
	FileURL        types.String   `tfsdk:"file_url"`
	FileSHA256     types.String   `tfsdk:"file_sha256"`
	Title          types.String   `tfsdk:"title"`
	Description    types.String   `tfsdk:"description"`
	PageCount      types.Int64    `tfsdk:"page_count"`
	Extension      types.String   `tfsdk:"extension"`
	ConvertStatus  types.String   `tfsdk:"convert_status"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

func (r *documentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	tmo := timeoutsAttribute(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: "How long to wait for the upload and the conversion, such as `\"30m\"`; default `\"20m\"`. " +
			"A conversion still running at the deadline (or when Terraform is interrupted) is kept in state with " +
			"`convert_status = \"PROCESSING\"`, not tainted, with a warning: the next apply waits for it instead of uploading again.",
	}, "Operation timeouts. Only `create` applies: the API has no update or delete operation for a document. "+
		"Changing it never replaces the resource.", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A PDF document added to a collection with `flipbook.add`, converted into a flipbook.\n\n" +
			"Give `file` (a local path, streamed from disk) or `file_url` (the service fetches it); with both, the service uses `file` (a warning says so). " +
			"A local file is checked and hashed when the plan is made: it must exist, be a PDF (by its content) and be at " +
			"most 100 MB, and a change of its content (`file_sha256`) is a planned replacement. The service has no update " +
			"for a document, so every change replaces it, and the plan warns that the old flipbook stays in the collection.\n\n" +
			"Create waits for conversion within the `create` timeout (default 20 minutes). A conversion that fails leaves " +
			"the resource tainted; the error names the flipbook hash. A wait cut short (Ctrl-C, the deadline) keeps the " +
			"document untainted, and the next apply waits for the conversion instead of uploading again. When the collection " +
			"is published under a new hash, the document follows it in place (see `collection_hash`).\n\n" +
			"The API has no way to delete a document: destroying the resource only removes it from the state (with a " +
			"warning) and the flipbook stays in the collection. Import with `<collection_hash>/<flipbook_hash>`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The flipbook hash.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"collection_hash": collectionHashAttribute("Hash of the collection the document is added to."),
			"file": schema.StringAttribute{
				MarkdownDescription: "Path of a local PDF of at most 100 MB (the spec's limits for documents). Wins over `file_url`.",
				Optional:            true,
				Validators:          nonEmptyString(),
			},
			"file_url": schema.StringAttribute{
				MarkdownDescription: "URL of a PDF that the service downloads. Not used when `file` is set. The provider cannot " +
					"see the content behind a URL: a change of content at the same URL is not detected.",
				Optional:   true,
				Validators: httpURLValidators,
			},
			"file_sha256": fileSHA256Attribute(),
			"title": schema.StringAttribute{
				MarkdownDescription: "Title of the flipbook; when omitted the service takes it from the document.",
				Optional:            true,
				Computed:            true,
				Validators:          nonEmptyString(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Description of the flipbook; when omitted the service fills it from the document.",
				Optional:            true,
				Computed:            true,
				Validators:          nonEmptyString(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "Pages of the converted flipbook.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"extension": schema.StringAttribute{
				MarkdownDescription: "The item's extension as the service reports it (`pdf`).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"convert_status": schema.StringAttribute{
				MarkdownDescription: "`PROCESSING`, `COMPLETE` or `FAILED`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"timeouts": tmo,
		},
	}
}

func (r *documentResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return fileSourceValidators()
}

// ModifyPlan hashes the local file, so that new content on disk is a planned
// change, and refuses a file the service would refuse before any call.
func (r *documentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan documentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sha := planFileSHA256(plan.File, documentFile, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("file_sha256"), sha)...)
	if req.State.Raw.IsNull() {
		return
	}
	var state documentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	moving := planAttached(ctx, r.client, req, resp, "flipbook "+state.ID.ValueString())
	replacing := sourceReplacePaths(state.File, state.FileURL, state.FileSHA256, plan.File, plan.FileURL, sha)
	if ref := refusalFrom(ctx, req.Private, &resp.Diagnostics); ref.forbidden() && len(replacing) > 0 && !resp.Diagnostics.HasError() {
		// A new file on disk is a change the configuration does not show.
		resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Flipbook Collection Refused",
			refusedDetail(ref.Hash, "flipbook "+state.ID.ValueString())+"\n\n"+refusedChangeStops)
		return
	}
	resp.RequiresReplace = append(resp.RequiresReplace, replacing...)
	var config documentModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	changedByConfig := func(configured, was types.String) bool {
		return !configured.IsNull() && !configured.IsUnknown() && !configured.Equal(was)
	}
	switch {
	case strings.EqualFold(state.ConvertStatus.ValueString(), apiclient.StatusFailed):
		// Read warned already: a failed conversion is uploaded again.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("convert_status"), types.StringUnknown())...)
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("convert_status"))
	case len(replacing) > 0 || changedByConfig(config.Title, state.Title) || changedByConfig(config.Description, state.Description) ||
		(!moving && !plan.CollectionHash.IsUnknown() && !plan.CollectionHash.Equal(state.CollectionHash)):
		resp.Diagnostics.AddWarning("Replacement Keeps The Old Document", fmt.Sprintf(
			"The API has no update and no delete for a document, so this change uploads the document again as a new "+
				"flipbook (it counts against the monthly upload quota). The current one, flipbook %s, stays in collection %s: "+
				"delete it in the Flipbook web application if it should go.", state.ID.ValueString(), state.CollectionHash.ValueString()))
	case strings.EqualFold(state.ConvertStatus.ValueString(), apiclient.StatusProcessing):
		// An interrupted create left the conversion running: Update waits for it.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("convert_status"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("page_count"), types.Int64Unknown())...)
	}
}

// sourceReplacePaths says which source attributes force a new upload: new
// content (hash), another URL, or a switch between file and URL. A file moved
// to another path with the same content is not a change worth an upload, and
// an imported document (no source in state) adopts the configured source.
func sourceReplacePaths(stateFile, stateURL, stateSHA, planFile, planURL, planSHA types.String) path.Paths {
	if stateFile.IsNull() && stateURL.IsNull() {
		return nil
	}
	var out path.Paths
	if stateFile.IsNull() != planFile.IsNull() {
		out = append(out, path.Root("file"))
	}
	if !stateURL.Equal(planURL) {
		out = append(out, path.Root("file_url"))
	}
	if !stateSHA.Equal(planSHA) {
		out = append(out, path.Root("file_sha256"))
	}
	return out
}

func (r *documentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createWith(ctx, &r.resourceBase, req, resp, func(plan *documentModel) {
		ctx, cancel := withTimeout(ctx, plan.Timeouts.Create, defaultConversionTimeout, &resp.Diagnostics)
		defer cancel()
		if resp.Diagnostics.HasError() {
			return
		}

		hash := plan.CollectionHash.ValueString()
		in := apiclient.AddFlipbookInput{
			CollectionHash: hash,
			FileURL:        plan.FileURL.ValueString(),
			Title:          plan.Title.ValueString(),
			Description:    plan.Description.ValueString(),
		}
		var up *fileUpload
		if !plan.File.IsNull() {
			if up = openPlannedUpload(plan.File, plan.FileSHA256, documentFile, &resp.Diagnostics); up == nil {
				return
			}
			defer up.Close()
			in.File = up.Upload
		}
		fb, err := r.client.AddFlipbook(ctx, in)
		if err != nil {
			r.addUploadError(ctx, &resp.Diagnostics, *plan, err)
			return
		}

		// From here the document exists: keep its id in state whatever happens.
		plan.ID = types.StringValue(fb.FlipbookHash)
		plan.Title = keepConfigured(plan.Title, fb.FlipbookTitle)
		plan.Description = keepConfigured(plan.Description, fb.FlipbookDescription)
		plan.PageCount = optionalInt(fb.FlipbookPageCount)
		plan.Extension = types.StringValue(fb.Extension)
		plan.ConvertStatus = types.StringValue(fb.ConvertStatus)
		if up != nil {
			recordSentSHA256(up, &plan.FileSHA256, fmt.Sprintf(
				"Flipbook %s was created from what was sent and is marked for replacement; apply again.", fb.FlipbookHash), &resp.Diagnostics)
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		if resp.Diagnostics.HasError() {
			return
		}

		item, _, err := r.client.WaitForConversion(ctx, hash, fb.FlipbookHash, progressLogger(ctx))
		if item != nil {
			applyItem(plan, item)
		}
		if waitCutShort(ctx, err) {
			// A warning, not an error: Terraform taints a resource whose create
			// fails, and the next apply would upload the document a second time.
			resp.Diagnostics.AddWarning("Document Still Converting", conversionCutShortDetail(err, fb.FlipbookHash, hash, plan.ConvertStatus.ValueString()))
			err = nil
		}
		if err != nil {
			var job *apiclient.JobFailedError
			if errors.As(err, &job) {
				plan.ConvertStatus = types.StringValue(apiclient.StatusFailed)
				resp.Diagnostics.AddError("Document Conversion Failed", fmt.Sprintf(
					"The service accepted the document as flipbook %s in collection %s, but its conversion failed (%v). "+
						"The resource is tainted: the next apply replaces it (the failed flipbook stays in the collection; remove it "+
						"in the web application).\n\n%s", fb.FlipbookHash, hash, err, apiErrorAdvice(err)))
			} else {
				addAPIError(&resp.Diagnostics, "Error Waiting For Document Conversion",
					fmt.Sprintf("waiting for flipbook %s in collection %s to convert", fb.FlipbookHash, hash), err)
			}
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	})
}

// keepConfigured keeps a configured value; otherwise takes the service's.
func keepConfigured(configured types.String, service string) types.String {
	if !configured.IsNull() && !configured.IsUnknown() {
		return configured
	}
	return types.StringValue(service)
}

func applyItem(m *documentModel, it *apiclient.CollectionItem) {
	m.Title = keepConfigured(m.Title, it.FlipbookTitle)
	m.Description = keepConfigured(m.Description, it.FlipbookDescription)
	m.PageCount = optionalInt(it.FlipbookPageCount)
	m.Extension = types.StringValue(it.Extension)
	m.ConvertStatus = types.StringValue(it.ConvertStatus)
}

// addUploadError says which limit an upload met; quota errors also say how
// many uploads are left.
func (r *documentResource) addUploadError(ctx context.Context, diags *diag.Diagnostics, plan documentModel, err error) {
	at, source := fileSource(plan.File, plan.FileURL)
	doing := fmt.Sprintf("adding %q to collection %s", source, plan.CollectionHash.ValueString())
	switch {
	case apiclient.IsQuotaExceeded(err):
		left := "could not be read"
		if st, serr := r.client.GetUserStats(ctx); serr == nil && st.APIUploadsLeft.Valid {
			left = fmt.Sprintf("is %d", st.APIUploadsLeft.Value)
		}
		diags.AddAttributeError(at, "Monthly Upload Quota Reached",
			apiErrorDetail(doing, err)+fmt.Sprintf("\n\nThe account's api_uploads_left (user.getStats) %s.", left))
	case apiclient.IsFileTooLarge(err):
		addAPIAttributeError(diags, at, "Document Too Large", doing, err)
	case apiclient.IsTooManyPages(err):
		addAPIAttributeError(diags, at, "Document Has Too Many Pages", doing, err)
	case apiclient.IsInvalidFileFormat(err):
		addAPIAttributeError(diags, at, "Document Is Not A Readable PDF", doing, err)
	default:
		addCollectionAPIError(diags, "Error Adding Document", doing, err)
	}
}

func (r *documentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readFromCollection(ctx, &r.resourceBase, req, resp, func(m *documentModel) collectionRead {
		hash, id := m.CollectionHash.ValueString(), m.ID.ValueString()
		return collectionRead{hash: hash, what: "flipbook " + id, summary: "Error Reading Document",
			doing: fmt.Sprintf("reading collection %s for flipbook %s", hash, id)}
	}, func(m *documentModel, col *apiclient.Collection, resp *resource.ReadResponse) bool {
		for i := range col.CollectionItems {
			if it := &col.CollectionItems[i]; it.FlipbookHash == m.ID.ValueString() {
				// Title and description follow the service, so that a change
				// made in the web application shows as drift.
				m.Title, m.Description = types.StringNull(), types.StringNull()
				applyItem(m, it)
				if strings.EqualFold(it.ConvertStatus, apiclient.StatusFailed) {
					resp.Diagnostics.AddWarning("Document Conversion Failed", fmt.Sprintf(
						"The service reports that the conversion of flipbook %s in collection %s failed. The next apply uploads "+
							"the document again as a new flipbook; %s stays in the collection: delete it in the Flipbook web "+
							"application.", it.FlipbookHash, col.CollectionHash, it.FlipbookHash))
				}
				return true
			}
		}
		resp.Diagnostics.AddWarning("Document No Longer Exists", fmt.Sprintf(
			"Collection %s no longer has flipbook %s (it was removed outside Terraform), so it was removed from the Terraform "+
				"state and the next plan proposes to add the document again.", m.CollectionHash.ValueString(), m.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return false
	})
}

// Update never uploads. It runs when the source attributes change without
// new content (a file moved to another path, an imported document adopting
// its configured source: nothing is sent), to follow the collection to the
// new hash publishing gave it (the flipbook is looked up there), and to wait
// for a conversion an interrupted create left running.
func (r *documentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateWith(ctx, &r.resourceBase, req, resp, func(plan, state *documentModel) {
		hash, id := plan.CollectionHash.ValueString(), state.ID.ValueString()
		state.File, state.FileURL, state.FileSHA256, state.Timeouts = plan.File, plan.FileURL, plan.FileSHA256, plan.Timeouts
		switch {
		case hash != state.CollectionHash.ValueString():
			col, err := r.client.GetCollection(ctx, hash)
			if err != nil {
				addCollectionAPIError(&resp.Diagnostics, "Error Reading Document", fmt.Sprintf("reading collection %s for flipbook %s", hash, id), err)
				return
			}
			var item *apiclient.CollectionItem
			for i := range col.CollectionItems {
				if col.CollectionItems[i].FlipbookHash == id {
					item = &col.CollectionItems[i]
				}
			}
			if item == nil {
				resp.Diagnostics.AddAttributeError(path.Root("collection_hash"), "Document Not In The New Collection", fmt.Sprintf(
					"Collection %s does not list flipbook %s, so this document cannot follow its collection there; nothing was "+
						"uploaded. Check that collection_hash names the hash publishing gave collection %s. If the flipbook is gone, "+
						"remove this resource block, apply, and add it back to upload the document again.", hash, id, state.CollectionHash.ValueString()))
				return
			}
			state.CollectionHash = plan.CollectionHash
			applyItem(state, item)
			rememberRefusal(ctx, resp.Private, nil, &resp.Diagnostics)
		case strings.EqualFold(state.ConvertStatus.ValueString(), apiclient.StatusProcessing):
			ctx, cancel := withTimeout(ctx, plan.Timeouts.Create, defaultConversionTimeout, &resp.Diagnostics)
			defer cancel()
			if resp.Diagnostics.HasError() {
				return
			}
			item, _, err := r.client.WaitForConversion(ctx, hash, id, progressLogger(ctx))
			if item != nil {
				applyItem(state, item)
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
			if waitCutShort(ctx, err) {
				// As for a create: the conversion goes on, the next apply waits again.
				resp.Diagnostics.AddWarning("Document Still Converting", conversionCutShortDetail(err, id, hash, state.ConvertStatus.ValueString()))
				return
			}
			if err != nil {
				// An update's error never taints: the document stays as it is.
				addAPIError(&resp.Diagnostics, "Document Conversion Did Not Complete", fmt.Sprintf(
					"waiting for flipbook %s in collection %s to convert (it stays in state; the next plan reads it again and "+
						"waits, or uploads the document again if the conversion failed)", id, hash), err)
			}
			return
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	})
}

// conversionCutShortDetail is the warning of a wait for a conversion that
// Terraform cut short (Ctrl-C, or timeouts.create).
func conversionCutShortDetail(err error, flipbookHash, hash, status string) string {
	return fmt.Sprintf("%s while flipbook %s in collection %s was still converting; the conversion goes on in the service. The "+
		"document is kept in the Terraform state with convert_status %q, not tainted. The next apply does not upload it "+
		"again: it reads it, and if it is still converting it waits for it (an in-place update, within timeouts.create); "+
		"if it finished, nothing changes; if the conversion failed, the plan says so and uploads it again (the failed "+
		"flipbook stays in the collection).", whyCutShort(err), flipbookHash, hash, status)
}

func (r *documentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state documentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Document Left In Collection", destroyKeepsDetail("delete a document", fmt.Sprintf(
		"flipbook %s stays in collection %s. Delete it in the Flipbook web application if it should go.",
		state.ID.ValueString(), state.CollectionHash.ValueString())))
}

// importDocument is the import of documentIdentity: the ID is
// "<collection_hash>/<flipbook_hash>".
func importDocument(ctx context.Context, _ string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	collection, flipbook, ok := strings.Cut(req.ID, "/")
	if !ok || collection == "" || flipbook == "" || strings.Contains(flipbook, "/") {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf(
			"Import flipbook_document with \"<collection_hash>/<flipbook_hash>\" (the API finds a flipbook only through its "+
				"collection); got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), flipbook)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("collection_hash"), collection)...)
	markImporting(ctx, resp.Private, &resp.Diagnostics)
}
