package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

var (
	_ action.Action              = (*htmlPackageDownloadAction)(nil)
	_ action.ActionWithConfigure = (*htmlPackageDownloadAction)(nil)
)

func newHTMLPackageDownloadAction() action.Action {
	return &htmlPackageDownloadAction{actionBase{objectBase{typeSuffix: "html_package_download"}}}
}

// htmlPackageDownloadAction waits for a collection's offline HTML package
// and writes the ZIP to a local path. Unlike the flipbook_html_package
// ephemeral resource it never hands the one-minute link to the
// configuration: the link is used inside the provider and forgotten.
type htmlPackageDownloadAction struct {
	actionBase
}

type htmlPackageDownloadModel struct {
	CollectionHash types.String   `tfsdk:"collection_hash"`
	Path           types.String   `tfsdk:"path"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// linkAttempts bounds how often a link whose download failed, or that
// expired before its download finished (spec, Limits: one minute each), is
// replaced by a fresh one.
const linkAttempts = 3

func (a *htmlPackageDownloadAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	tmo, ok := unwrapTimeouts[schema.SingleNestedAttribute](timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		InvokeDescription: "How long to wait for the package and its download, such as `\"10m\"`; default `\"5m\"`.",
	}), &resp.Diagnostics)
	if !ok {
		return
	}
	tmo.MarkdownDescription = "Operation timeouts. `invoke` bounds the wait for the package and the download."
	resp.Schema = schema.Schema{
		MarkdownDescription: "Downloads a collection packaged as standalone HTML (`collection.downloadHTML`) to a local " +
			"ZIP file. Invoking it starts package generation (or resumes one already running, or reuses a finished " +
			"package), waits until the package is `COMPLETE`, reporting progress while it waits, and writes the archive " +
			"to `path`. The file is written atomically: the download goes to a temporary file in the same directory, " +
			"every entry of the archive is checked, and only then is it renamed into place, so `path` holds either the " +
			"previous file or a complete package. A `FAILED` package, or a wait longer than the `invoke` timeout " +
			"(default 5 minutes), is an error and leaves `path` as it was.\n\n" +
			"The download link is valid for one minute and is used only inside the provider: it never appears in the " +
			"plan, the state or the logs. Run it with `terraform apply -invoke=action.flipbook_html_package_download.<name>`, " +
			"or from an `action_trigger` in a resource's `lifecycle`. Requires Terraform 1.14 or later; with older " +
			"versions use the `flipbook_html_package` ephemeral resource.",
		Attributes: map[string]schema.Attribute{
			"collection_hash": schema.StringAttribute{
				MarkdownDescription: "Hash of the collection to package.",
				Required:            true,
				Validators:          nonEmptyString(),
			},
			"path": schema.StringAttribute{
				MarkdownDescription: "Where the ZIP archive is written, such as `\"${path.module}/handbook.zip\"`. A relative " +
					"path is taken from the directory Terraform runs in. Missing parent directories are created; an existing " +
					"file is replaced only once the new one is complete.",
				Required: true,
				// Not API input: a local file needs a name, or there is nowhere to write the ZIP.
				Validators: nonEmptyString(),
			},
			"timeouts": tmo,
		},
	}
}

func (a *htmlPackageDownloadAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m htmlPackageDownloadModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, m.Timeouts.Invoke, defaultPackageTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}
	hash := m.CollectionHash.ValueString()
	dest, err := filepath.Abs(m.Path.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("path"), "Invalid Path", fmt.Sprintf(
			"The path %q cannot be made absolute: %v. Set path to a file name, such as \"${path.module}/package.zip\".",
			m.Path.ValueString(), err))
		return
	}
	ctx = tflog.SetField(ctx, "collection_hash", hash)
	progress := func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}

	var sum zipSummary
	for attempt := 1; ; attempt++ {
		progress(fmt.Sprintf("Requesting the HTML package of collection %s", hash))
		pkg, ok := a.waitForPackage(ctx, hash, progress, &resp.Diagnostics)
		if !ok {
			return
		}
		progress(fmt.Sprintf("The HTML package of collection %s is ready; downloading it to %s", hash, dest))
		sum, err = writeZIPAtomically(dest, func(w io.Writer) (int64, error) {
			return a.client.FetchPackage(ctx, pkg.ResourceURL, w)
		})
		var fetch *apiclient.PackageFetchError
		if errors.As(err, &fetch) && fetch.Retryable() && attempt < linkAttempts && ctx.Err() == nil {
			// The link expired or the transfer failed: the package exists,
			// so the next call answers at once with a fresh link.
			tflog.Info(ctx, "the package download failed; requesting a new link", map[string]any{
				"http_status": fetch.HTTPStatus, "expired": fetch.Expired(), "attempt": attempt,
			})
			progress(fmt.Sprintf("The download failed (%v); requesting a new link", fetch))
			continue
		}
		break
	}
	var problem *fileProblem
	switch {
	case errors.As(err, &problem):
		resp.Diagnostics.AddAttributeError(path.Root("path"), problem.Summary, problem.Detail)
		return
	case err != nil:
		addAPIAttributeError(&resp.Diagnostics, path.Root("collection_hash"), "Error Downloading HTML Package",
			fmt.Sprintf("downloading the HTML package of collection %s to %s", hash, dest), err)
		return
	}
	tflog.Info(ctx, "HTML package written", map[string]any{"path": dest, "bytes": sum.Bytes, "entries": sum.Entries})
	progress(fmt.Sprintf("Wrote the HTML package of collection %s to %s (%d bytes, %d files)", hash, dest, sum.Bytes, sum.Entries))
}

// waitForPackage waits for a COMPLETE package, reporting each poll both to
// the log and to Terraform's progress output. A FAILED package is an error
// here: unlike the ephemeral resource, the action has no status to return.
func (a *htmlPackageDownloadAction) waitForPackage(ctx context.Context, hash string, progress func(string), diags *diag.Diagnostics) (*apiclient.DownloadPackage, bool) {
	logProgress := progressLogger(ctx)
	var pkg *apiclient.DownloadPackage
	err := retryWhileInProgress(ctx, "requesting the HTML package", hash, func() error {
		var err error
		pkg, err = a.client.WaitForDownload(ctx, hash, func(p apiclient.Progress) {
			logProgress(p)
			progress(fmt.Sprintf("Waiting for the HTML package of collection %s: %s after %s",
				hash, p.Status, p.Elapsed.Round(time.Second)))
		})
		return err
	})
	var job *apiclient.JobFailedError
	switch {
	case errors.As(err, &job):
		diags.AddAttributeError(path.Root("collection_hash"), "HTML Package Generation Failed", fmt.Sprintf(
			"The service reported that packaging collection %s as HTML failed (status %s), so nothing was written.\n\n%s",
			hash, job.Status, apiErrorAdvice(err)))
		return nil, false
	case err != nil:
		addAPIAttributeError(diags, path.Root("collection_hash"), "Error Generating HTML Package",
			"packaging collection "+hash+" as HTML", err)
		return nil, false
	}
	return pkg, true
}
