package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/ephemeral/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ ephemeral.EphemeralResource              = (*htmlPackageEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*htmlPackageEphemeral)(nil)
)

func newHTMLPackageEphemeral() ephemeral.EphemeralResource {
	return &htmlPackageEphemeral{ephemeralBase{objectBase{typeSuffix: "html_package"}}}
}

type htmlPackageEphemeral struct {
	ephemeralBase
}

type htmlPackageModel struct {
	CollectionHash types.String   `tfsdk:"collection_hash"`
	Status         types.String   `tfsdk:"status"`
	ResourceURL    types.String   `tfsdk:"resource_url"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

func (e *htmlPackageEphemeral) Schema(ctx context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	tmo, ok := unwrapTimeouts[schema.SingleNestedAttribute](timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		OpenDescription: "How long to wait for the package, such as `\"10m\"`; default `\"5m\"`.",
	}), &resp.Diagnostics)
	if !ok {
		return
	}
	tmo.MarkdownDescription = "Operation timeouts. Only `open` applies: it bounds the wait for the package."
	resp.Schema = schema.Schema{
		MarkdownDescription: "A download link for a collection packaged as standalone HTML (`collection.downloadHTML`). " +
			"Opening it starts package generation (or resumes one already running, or reuses a finished package) and waits " +
			"until the package is `COMPLETE` or `FAILED`, within the `open` timeout (default 5 minutes); a collection still " +
			"being generated is waited for too. A `FAILED` package is a result, not an error: `status` is `FAILED`, " +
			"`resource_url` is null, and a warning names the collection and says what to do, so check `status` before " +
			"using the link. Any other failure, including running out of time, is an error.\n\n" +
			"The link is valid for one minute only, so it is an ephemeral value: it never reaches the plan or the state. " +
			"Pass it to something that uses it at once, such as a provider configuration or a write-only attribute. " +
			"Requires Terraform 1.10 or later.",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the collection to package.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The package's status as the service reports it: `COMPLETE` once the link is ready, " +
					"or `FAILED` when the package could not be made (then `resource_url` is null).",
				Computed: true,
			},
			"resource_url": schema.StringAttribute{
				MarkdownDescription: "URL of the package (a ZIP archive), valid for one minute; null when `status` is `FAILED`.",
				Computed:            true,
				Sensitive:           true,
			},
			"timeouts": tmo,
		},
	}
}

func (e *htmlPackageEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m htmlPackageModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, m.Timeouts.Open, defaultPackageTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	hash := m.CollectionHash.ValueString()
	var pkg *apiclient.DownloadPackage
	err := retryWhileInProgress(ctx, "requesting the HTML package", hash, func() error {
		var err error
		pkg, err = e.client.WaitForDownload(ctx, hash, progressLogger(ctx))
		return err
	})
	var job *apiclient.JobFailedError
	switch {
	case errors.As(err, &job):
		// FAILED is one of the two outcomes the wait ends in: return it, so
		// that the configuration can test status, and warn.
		resp.Diagnostics.AddAttributeWarning(path.Root("collection_hash"), "HTML Package Generation Failed", fmt.Sprintf(
			"The service reported that packaging collection %s as HTML failed (status %s), so status is %q and "+
				"resource_url is null. Whatever uses the link should check status == \"COMPLETE\" first (for example in "+
				"a precondition).\n\n%s", hash, job.Status, job.Status, apiErrorAdvice(err)))
		m.Status = types.StringValue(job.Status)
		m.ResourceURL = types.StringNull()
	case err != nil:
		addAPIAttributeError(&resp.Diagnostics, path.Root("collection_hash"), "Error Generating HTML Package",
			"packaging collection "+hash+" as HTML", err)
		return
	default:
		m.Status = types.StringValue(pkg.Status)
		m.ResourceURL = types.StringValue(pkg.ResourceURL)
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}
