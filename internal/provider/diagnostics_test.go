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
}
