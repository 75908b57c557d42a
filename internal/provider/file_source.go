package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// This file holds what the two uploading resources, flipbook_document and
// flipbook_collection_logo, share around localfile.go: the file / file_url
// source attributes, the plan-time hash that makes new content on disk a
// planned change, and the check that the bytes sent are the bytes planned.

// httpURLValidators warn about a file_url that is not an absolute http(s)
// URL. The spec types fileUrl as a "string URL" and does not say which
// schemes the service fetches: a guess, so a warning.
var httpURLValidators = []validator.String{urlWarning{}}

type urlWarning struct{}

var _ validator.String = urlWarning{}

func (urlWarning) Description(context.Context) string {
	return "a value that is not an absolute http:// or https:// URL gets a warning"
}

func (v urlWarning) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (urlWarning) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	u, err := url.Parse(req.ConfigValue.ValueString())
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return
	}
	resp.Diagnostics.AddAttributeWarning(req.Path, "URL May Be Refused", fmt.Sprintf(
		"%q is not an absolute http:// or https:// URL. The spec only says the service fetches a \"string URL\"; "+
			"which URLs it can fetch is not stated, so this is a guess and the plan goes ahead. If the service cannot "+
			"fetch it, the apply fails with its answer.", req.ConfigValue.ValueString()))
}

// fileSourceValidators apply the spec's upload parameters (collection.setLogo,
// flipbook.add): "`file` ... or `fileUrl` ...: at least one must be sent,
// otherwise code 30; when both are sent only `file` is used". Both set is
// allowed, with a warning that file_url is not used.
func fileSourceValidators() []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.AtLeastOneOf(path.MatchRoot("file"), path.MatchRoot("file_url")),
		bothSourcesWarning{},
	}
}

type bothSourcesWarning struct{}

var _ resource.ConfigValidator = bothSourcesWarning{}

func (bothSourcesWarning) Description(context.Context) string {
	return "when both file and file_url are set, file_url is not used"
}

func (v bothSourcesWarning) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (bothSourcesWarning) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var file, fileURL types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file"), &file)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file_url"), &fileURL)...)
	if file.IsNull() || fileURL.IsNull() {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("file_url"), "File URL Not Used",
		"Both file and file_url are set. The spec says \"when both are sent only `file` is used\", so file_url has no "+
			"effect. Remove one of them.")
}

func fileSHA256Attribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "SHA-256 of `file`, computed at plan time, so that a changed file on disk is a planned " +
			"change. Null when `file_url` is used.",
		Computed: true,
	}
}

// fileSource names the attribute the content comes from and its value, for
// diagnostics.
func fileSource(file, fileURL types.String) (path.Path, string) {
	if !file.IsNull() {
		return path.Root("file"), file.ValueString()
	}
	return path.Root("file_url"), fileURL.ValueString()
}

// planFileSHA256 checks the configured local file and returns its hash for
// the plan: unknown when the path is, null when no file is configured.
func planFileSHA256(file types.String, kind fileKind, diags *diag.Diagnostics) types.String {
	switch {
	case file.IsUnknown():
		return types.StringUnknown()
	case file.IsNull():
		return types.StringNull()
	}
	info, err := inspectLocalFile(file.ValueString(), kind)
	if err != nil {
		addFileProblem(diags, path.Root("file"), err)
		return types.StringUnknown()
	}
	for _, d := range info.Doubts {
		diags.AddAttributeWarning(path.Root("file"), d.Summary, d.Detail)
	}
	return types.StringValue(info.SHA256)
}

// openPlannedUpload opens the configured file for upload, refusing it when
// it no longer has the planned hash; nil when that failed (reported on file).
func openPlannedUpload(file, plannedSHA256 types.String, kind fileKind, diags *diag.Diagnostics) *fileUpload {
	up, err := openUpload(file.ValueString(), kind, plannedSHA256.ValueString())
	if err != nil {
		addFileProblem(diags, path.Root("file"), err)
		return nil
	}
	return up
}

// recordSentSHA256 puts into sha the hash of the bytes up sent. A hash
// unknown at plan time (a path known only at apply) is simply filled in; a
// different planned one means the file changed while it was being sent, an
// error on file whose detail ends with consequence: what the service now
// holds, and what to do.
func recordSentSHA256(up *fileUpload, sha *types.String, consequence string, diags *diag.Diagnostics) {
	planned, sent := *sha, up.SentSHA256()
	*sha = types.StringValue(sent)
	if planned.IsUnknown() || planned.ValueString() == sent {
		return
	}
	diags.AddAttributeError(path.Root("file"), "File Changed During Upload", fmt.Sprintf(
		"The file %q changed while it was being uploaded: the service received content with SHA-256 %s, not the "+
			"planned %s. %s", up.file.Name(), sent, planned.ValueString(), consequence))
}

func addFileProblem(diags *diag.Diagnostics, at path.Path, err error) {
	var p *fileProblem
	if errors.As(err, &p) {
		diags.AddAttributeError(at, p.Summary, p.Detail)
		return
	}
	diags.AddAttributeError(at, "Cannot Use File", err.Error())
}
