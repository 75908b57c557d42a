package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// Each kind of failure gets advice of its own: what happened and what to do.
func TestAPIErrorAdvice(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&apiclient.APIError{Action: "collection.getCollection", Code: 22, Status: "Maintenance mode"}, "maintenance mode"},
		{&apiclient.APIError{Action: "collection.getCollection", Code: 27, Status: "Something new"}, "does not list"},
		{&apiclient.APIError{Action: "collection.getCollection", Code: 31}, "-parallelism"},
		{&apiclient.OutcomeUnknownError{Action: "flipbook.add", Err: fmt.Errorf("reset")}, "could not prove"},
		{fmt.Errorf("waiting: %w", context.Canceled), "interrupted"},
		{fmt.Errorf("waiting: %w", context.DeadlineExceeded), "timeouts block"},
		{&apiclient.OutcomeUnknownError{Action: "collection.createCatalog", Err: fmt.Errorf("reset")}, "terraform import flipbook_catalog."},
		{&apiclient.APIError{Action: "collection.setPermissions", Code: 40}, "Enable SSO in the workspace settings"},
		{&apiclient.APIError{Action: "collection.createCatalog", Code: 40}, "Correct the attributes named above"},
		{&apiclient.APIError{Action: "collection.getPermissions", Code: 48}, "not password-protected"},
		{&apiclient.JobFailedError{What: apiclient.JobConversion, Hash: "f-1", Status: "FAILED"}, "PDF opens in a viewer"},
		{&apiclient.JobFailedError{What: apiclient.JobDownloadPackage, Hash: "c-1", Status: "FAILED"}, "regenerate or fix it"},
	} {
		if got := apiErrorAdvice(tt.err); !strings.Contains(got, tt.want) {
			t.Errorf("advice for %v: %q lacks %q", tt.err, got, tt.want)
		}
	}
	// The detail names the code and status as the service sent them.
	d := apiErrorDetail("reading collection c-1", &apiclient.APIError{Action: "collection.getCollection", Code: 27, Status: "Something new"})
	if !strings.Contains(d, "code 27 (Something new)") {
		t.Errorf("detail %q", d)
	}
	// Advice is given once: the client's error states what happened only.
	d = apiErrorDetail("adding the document", &apiclient.OutcomeUnknownError{Action: "flipbook.add", Err: fmt.Errorf("reset")})
	if n := strings.Count(d, "could not prove"); n != 1 || !strings.Contains(d, "it was not re-sent") {
		t.Errorf("detail gives the advice %d times, or lacks what was tried: %q", n, d)
	}
}
