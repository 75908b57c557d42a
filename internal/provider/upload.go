package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// This file is what the two uploading resources, flipbook_document and
// flipbook_collection_logo (spec: flipbook.add and collection.setLogo take
// `file` or `fileUrl`), call at plan and apply: the plan-time hash that makes
// new content on disk a planned change, and the check that the bytes sent are
// the bytes planned. Beside it: upload_content_type.go (what a file is, by its
// leading bytes), upload_file_problems.go (why a local file cannot be sent),
// upload_hashing_reader.go (the upload body that hashes what it streams) and
// upload_validators.go (the checks of the source attributes).

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
