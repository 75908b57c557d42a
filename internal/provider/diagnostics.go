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

func apiErrorDetail(doing string, err error) string {
	return fmt.Sprintf("The provider failed while %s: %s.\n\n%s", doing, strings.TrimSuffix(err.Error(), "."), apiErrorAdvice(err))
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
	)
	switch {
	case errors.As(err, &outcome):
		return "The request may have reached the service before the connection failed, and reading the service back " +
			"could not prove whether it took effect, so it was not sent again (sending it twice could do it twice). " +
			"Check the account for the result before applying again."
	case errors.As(err, &job):
		return "The service accepted the job but reported that it failed. Check the inputs it was given, then apply again."
	case errors.As(err, &decode):
		return "The service answered with something that is not an API response, as a proxy or an outage does. " +
			"Try again later; if it persists, check base_url and upload_url."
	case errors.Is(err, context.Canceled):
		return "The operation was interrupted (Ctrl-C, or Terraform stopping the provider) before it finished. " +
			"What the service had already accepted is recorded in the state; apply again to continue."
	case errors.Is(err, context.DeadlineExceeded):
		return "The operation did not finish before its deadline. Raise the matching value in the resource's timeouts block, or try again."
	}
	if apiclient.IsUnlistedCode(err) {
		return "The service answered with a code the API specification does not list (code and status above, as sent). " +
			"Try again later; if it persists, report the code to the service's support."
	}
	switch apiclient.CodeOf(err) {
	case apiclient.CodeMaintenance:
		return "The service is in maintenance mode and completes no request; the provider retried with growing pauses. " +
			"Nothing was changed by the refused call. Apply again once the maintenance is over."
	case 31, 32:
		return "The service kept throttling the requests until the retry limit or deadline. Lower Terraform's -parallelism, " +
			"set requests_per_second / requests_per_minute in the provider block, or raise max_retries."
	case 33:
		return "The account's monthly upload quota is used up; the flipbook_user_stats data source reports api_uploads_left. " +
			"Wait for the next month or raise the plan's quota."
	case 34:
		return "The file is larger than the service accepts (100 MB for documents). Use a smaller file."
	case 35:
		return "The document has more pages than a collection may hold (500). Split it into several documents."
	case 36:
		return "The service accepts one file per upload request. This is a bug in the provider; please report it."
	case 38:
		return "The collection is still being published or generated. Wait a few minutes and apply again."
	case 40:
		return "The service rejected the request as invalid. Correct the attributes named above and apply again."
	case 41:
		return "The API key is not valid. Check api_key (or FLIPBOOK_API_KEY)."
	case 43:
		return "The collection was deleted, or it belongs to another account or workspace. Check that the provider's " +
			"credentials are the ones that own it."
	case 44:
		return "The request signature did not match. Check that api_secret (or FLIPBOOK_API_SECRET) belongs to the api_key in use."
	case 45:
		return "The file's content is not of a type the service accepts (PDF for documents, an image for logos)."
	case 46:
		return "The collection hash does not exist. Publishing a collection replaces its temporary hash with a final one: " +
			"import the new hash if that happened."
	case 47:
		return "The flipbook hash does not exist in that collection."
	case 48:
		return "Permissions are available only for collections that are published, private, and not password-protected. " +
			"Change the collection's access settings in the service, then apply again."
	case 50:
		return "The service's permissions backend failed. Try again later."
	}
	return "Check the message above; if the problem persists, run with TF_LOG=DEBUG to see every API call (secrets are masked)."
}
