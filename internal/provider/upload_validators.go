package provider

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// This file is the checks of the file / file_url source attributes of the
// uploading resources.

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
