package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// withTimeout bounds the context by the configured value, and leaves it
// unbounded with the error when the value cannot be read.
func TestWithTimeout(t *testing.T) {
	var diags diag.Diagnostics
	var gotDefault time.Duration
	ctx, cancel := withTimeout(t.Context(), func(_ context.Context, def time.Duration) (time.Duration, diag.Diagnostics) {
		gotDefault = def
		return time.Hour, nil
	}, 5*time.Minute, &diags)
	defer cancel()
	deadline, ok := ctx.Deadline()
	if diags.HasError() || !ok || time.Until(deadline) < 59*time.Minute || time.Until(deadline) > time.Hour {
		t.Errorf("deadline %v (set: %v, diags %v), want an hour from now", deadline, ok, diags)
	}
	if gotDefault != 5*time.Minute {
		t.Errorf("the default passed on was %v", gotDefault)
	}

	ctx, cancel = withTimeout(t.Context(), func(context.Context, time.Duration) (time.Duration, diag.Diagnostics) {
		return 0, diag.Diagnostics{diag.NewErrorDiagnostic("Timeout Cannot Be Parsed", "bad")}
	}, time.Minute, &diags)
	defer cancel()
	if _, ok := ctx.Deadline(); ok || !diags.HasError() {
		t.Errorf("an unreadable value must be an error and set no deadline (diags %v)", diags)
	}
}

// A timeouts package that built another kind of attribute is a provider bug,
// said as an error rather than a panic.
func TestUnwrapTimeoutsRefusesOtherAttribute(t *testing.T) {
	var diags diag.Diagnostics
	if _, ok := unwrapTimeouts[schema.SingleNestedAttribute](schema.StringAttribute{}, &diags); ok || !diags.HasError() {
		t.Errorf("a string attribute was taken for timeouts (diags %v)", diags)
	}
	diags = nil
	if _, ok := unwrapTimeouts[schema.SingleNestedAttribute](schema.SingleNestedAttribute{}, &diags); !ok || diags.HasError() {
		t.Errorf("the nested attribute was refused (diags %v)", diags)
	}
}
