package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is the one place that words a failed API call for the user. The
// client's errors state what happened; the advice here says what to do, and
// reads only the client's named codes and typed errors, never the service's
// message text (which the detail shows as sent).

// addAPIError reports a failed API call: summary is Title Case ("Error
// Creating Catalog"), doing says what the provider was doing ("creating the
// catalog"). The detail adds why it failed and what the user can do.
func addAPIError(diags *diag.Diagnostics, summary, doing string, err error) {
	diags.AddError(summary, apiErrorDetail(doing, err))
}

// addAPIAttributeError is addAPIError for a failure caused by one attribute.
func addAPIAttributeError(diags *diag.Diagnostics, p path.Path, summary, doing string, err error) {
	diags.AddAttributeError(p, summary, apiErrorDetail(doing, err))
}

// collectionGoneOrNotOurs: the service no longer knows the collection (46)
// or refuses it to these credentials (43, "collection deleted, owned by
// another user or workspace, or tenant mismatch").
func collectionGoneOrNotOurs(err error) bool {
	return apiclient.IsCollectionNotFound(err) || apiclient.IsForbidden(err)
}

// addCollectionAPIError is addAPIError for a call on the collection a
// resource names in collection_hash: when that collection is gone or not
// ours, the error is shown on collection_hash.
func addCollectionAPIError(diags *diag.Diagnostics, summary, doing string, err error) {
	if collectionGoneOrNotOurs(err) {
		addAPIAttributeError(diags, path.Root("collection_hash"), summary, doing, err)
		return
	}
	addAPIError(diags, summary, doing, err)
}

// apiErrorDetail is the detail of every diagnostic about a failed call: what
// the provider was doing, the client's account of the failure, and advice.
func apiErrorDetail(doing string, err error) string {
	return fmt.Sprintf("The provider failed while %s: %s.\n\n%s", doing, strings.TrimSuffix(err.Error(), "."), apiErrorAdvice(err))
}

// Advice on code 46 where the plan's published_hash route does not apply.
const (
	importOn46 = "The collection hash does not exist, so nothing was imported. Publishing a collection in the web " +
		"editor replaces its temporary hash with a final one: if that happened, import the new hash instead (the one " +
		"the web editor and the collection's link now show), and write the same new hash wherever the configuration " +
		"names the old one (a collection_hash)."
	dataSourceOn46 = "The collection hash does not exist. Publishing a collection in the web editor replaces its " +
		"temporary hash with a final one: if that happened, set this data source's collection_hash to the new hash " +
		"(the one the web editor and the collection's link now show)."
	collectionHashOn46 = "The service does not know this hash. Nothing was changed: write in collection_hash the " +
		"hash the web editor and the collection's link now show (after publishing, the new one)."
	publishedHashOn46 = "The service does not know this hash, so it is not the collection's new one. Check " +
		"published_hash against the hash the web editor and the collection's link now show. Nothing was changed."
)

// dataSourceErrorDetail is apiErrorDetail for a data source that reads a
// collection: a data source keeps no state to fall back on, so a hash the
// service no longer knows (46) or refuses (43) says what to change in it.
func dataSourceErrorDetail(doing string, err error) string {
	if apiclient.IsForbidden(err) {
		return apiErrorDetail(doing, err) + " If the collection was deleted in the web application, remove this data " +
			"source (and the resources on that collection) and apply."
	}
	return apiErrorDetailOn46(doing, err, dataSourceOn46)
}

// apiErrorDetailOn46 is apiErrorDetail with on46 as the advice when err is
// code 46.
func apiErrorDetailOn46(doing string, err error, on46 string) string {
	if !apiclient.IsCollectionNotFound(err) {
		return apiErrorDetail(doing, err)
	}
	return fmt.Sprintf("The provider failed while %s: %s.\n\n%s", doing, strings.TrimSuffix(err.Error(), "."), on46)
}

// destroyKeepsDetail explains a destroy the API cannot carry out: cannot is
// the operation the API lacks ("delete a document"), kept says what stays in
// the service and what the user can do about it.
func destroyKeepsDetail(cannot, kept string) string {
	return fmt.Sprintf("The Flipbook API cannot %s, so destroying this resource only removes it from the Terraform state: %s", cannot, kept)
}

// apiErrorAdvice says what a user can do about err.
func apiErrorAdvice(err error) string {
	var (
		outcome *apiclient.OutcomeUnknownError
		decode  *apiclient.DecodeError
		job     *apiclient.JobFailedError
		api     *apiclient.APIError
	)
	switch {
	case errors.As(err, &outcome):
		return outcomeUnknownAdvice(outcome.Action)
	case errors.As(err, &job):
		return jobFailedAdvice(job.What)
	case errors.As(err, &decode):
		return "The service answered with something that is not an API response, as a proxy or an outage does. " +
			"Try again later; if it persists, check base_url and upload_url."
	case errors.Is(err, context.Canceled):
		return "The operation was interrupted (Ctrl-C, or Terraform stopping the provider) before it finished. " +
			"What the service had already accepted is recorded in the state; apply again to continue."
	case errors.Is(err, context.DeadlineExceeded):
		return "The operation did not finish before its deadline. Raise the matching value in the resource's timeouts block, or try again."
	case errors.As(err, &api):
		return codeAdvice(api)
	}
	return adviceOtherwise
}

const adviceOtherwise = "Check the message above; if the problem persists, run with TF_LOG=DEBUG to see every API call (secrets are masked)."

// outcomeUnknownAdvice says how to find out whether a call whose answer was
// lost took effect (what the client tried is in the error itself).
func outcomeUnknownAdvice(action string) string {
	switch action {
	case apiclient.ActionCreateFromTemplate, apiclient.ActionCreateCatalog:
		typ := "flipbook_template_collection"
		if action == apiclient.ActionCreateCatalog {
			typ = "flipbook_catalog"
		}
		return "The API cannot look a collection up by title, so the provider cannot tell whether it was created, and it " +
			"did not send the request again: that could create a second one. Look in the account (the Flipbook web " +
			"application) for the collection named above, created just now.\n\n" +
			"- If it is there, adopt it instead of creating another: terraform import " + typ + ".<name> <collection-hash> " +
			"(the resource address is shown above), or an import block; then apply again.\n" +
			"- If it is not, apply again."
	case apiclient.ActionSetPermissions:
		return "The provider could not prove whether the access list was replaced. Read it back (the flipbook_permissions " +
			"data source, or collection.getPermissions) before applying again; notification emails may have been sent."
	case apiclient.ActionSetLogo:
		return "The provider could not prove whether the logo was set. Read the collection (the flipbook_collection data " +
			"source, settings.logo_image) before applying again."
	case apiclient.ActionDeleteBackgroundImage:
		return "The provider could not prove whether the background image was removed. Read the collection " +
			"(collection.getCollection) before applying again."
	case apiclient.ActionAddFlipbook:
		return "The provider could not prove whether the document was added. List the collection's items (the " +
			"flipbook_collection data source): a new flipbook may have been added and may count against the upload " +
			"quota; import it (flipbook_document, <collection_hash>/<flipbook_hash>) rather than adding it again."
	}
	return "The provider could not prove whether the request took effect. Check the account for the result before applying again."
}

// jobFailedAdvice says what to do when a job the service accepted ended in
// failure.
func jobFailedAdvice(what string) string {
	switch what {
	case apiclient.JobConversion:
		return "Check that the PDF opens in a viewer, then apply again."
	case apiclient.JobDownloadPackage:
		return "A collection whose own generation failed cannot be packaged: check the collection in the web " +
			"application (regenerate or fix it), then try again."
	}
	return "The service accepted the job but reported that it failed. Check the inputs it was given, then apply again."
}

// codeAdvice says what to do about an envelope code, and about the
// operation that answered it where the code's meaning depends on it.
func codeAdvice(api *apiclient.APIError) string {
	switch api.Code {
	case apiclient.CodeMaintenance:
		return "The service is in maintenance mode and completes no request; the provider retried with growing pauses. " +
			"Nothing was changed by the refused call. Apply again once the maintenance is over."
	case apiclient.CodePerSecondLimit, apiclient.CodePerMinuteLimit:
		return "The service kept throttling the requests until the retry limit or deadline. Lower Terraform's -parallelism, " +
			"set requests_per_second / requests_per_minute in the provider block, or raise max_retries."
	case apiclient.CodeUploadQuota:
		return "The account's monthly upload quota is used up; the flipbook_user_stats data source reports api_uploads_left. " +
			"Wait for the next month or raise the plan's quota."
	case apiclient.CodeFileTooLarge:
		return "The file is larger than the service accepts (100 MB for documents). Use a smaller file."
	case apiclient.CodeTooManyPages:
		return "The document has more pages than a collection may hold (500). Split it into several documents."
	case apiclient.CodeMultipleFiles:
		return "The service accepts one file per upload request. This is a bug in the provider; please report it."
	case apiclient.CodeInProgress:
		return "The collection is still being published or generated. Wait a few minutes and apply again."
	case apiclient.CodeBadRequest:
		if api.Action == apiclient.ActionSetPermissions {
			// Spec, collection.setPermissions: besides faults of the list,
			// code 40 answers "OTP not on the plan", "SSO not on the plan"
			// and "SSO not enabled for the workspace".
			return "The service refused the access list; its messages above say why. Correct the entries it names and " +
				"apply again. Some refusals are about the account, not the list: when the plan does not include " +
				"one-time-passcode (otp) or single sign-on (sso) access, upgrade the plan or use teammate entries; when " +
				"single sign-on is on the plan but not enabled for this workspace, Enable SSO in the workspace settings."
		}
		return "The service rejected the request as invalid. Correct the attributes named above and apply again."
	case apiclient.CodeInvalidCredentials:
		return "The API key is not valid. Check api_key (or FLIPBOOK_API_KEY)."
	case apiclient.CodeForbidden:
		return "The collection was deleted, or it belongs to another account or workspace. Check that the provider's " +
			"credentials are the ones that own it."
	case apiclient.CodeInvalidSignature:
		return "The request signature did not match. Check that api_secret (or FLIPBOOK_API_SECRET) belongs to the api_key in use."
	case apiclient.CodeInvalidFileFormat:
		return "The file's content is not of a type the service accepts (PDF for documents, an image for logos)."
	case apiclient.CodeCollectionNotFound:
		return "The collection hash does not exist. Publishing a collection in the web editor replaces its temporary hash " +
			"with a final one. If that happened, run terraform plan: it stops and says what to write (published_hash = " +
			"\"<new hash>\" in the collection's resource, or the new hash in a written-out collection_hash), and the " +
			"resources on the collection then move to the new hash in place."
	case apiclient.CodeFlipbookNotFound:
		return "The flipbook hash does not exist in that collection."
	case apiclient.CodeNotEligible:
		// Spec, Errors: 48 "not published, not private, or password set".
		return "An access list can be set or read only on a collection that is all three of:\n" +
			"  - published (not editable),\n  - private,\n  - not password-protected.\n" +
			"Change the collection's access settings in the service, then apply again."
	case apiclient.CodeOperationFailed:
		return "The service's permissions backend failed. Try again later."
	}
	if apiclient.IsUnlistedCode(api) {
		return "The service answered with a code the API specification does not list (code and status above, as sent). " +
			"Try again later; if it persists, report the code to the service's support."
	}
	return adviceOtherwise
}
