package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// This file holds the timeouts attribute of every object that waits: its
// schema, with a description for the docs, and the deadline it sets.

// unwrapTimeouts returns the attribute a timeouts package built (resource,
// ephemeral and action each have their own package and schema types) as the
// nested attribute T it is, so that a description can be set on it; false,
// with an error in diags, when it is not.
func unwrapTimeouts[T any](built any, diags *diag.Diagnostics) (T, bool) {
	attr, ok := built.(T)
	if !ok {
		diags.AddError("Provider Schema Bug", fmt.Sprintf("The timeouts attribute is a %T, not a single nested attribute. "+
			"This is a bug in the provider; please report it.", built))
	}
	return attr, ok
}

// timeoutsAttribute is a resource's timeouts attribute with a description
// for the docs, which timeouts.Attributes leaves out.
func timeoutsAttribute(ctx context.Context, opts timeouts.Opts, description string, diags *diag.Diagnostics) schema.SingleNestedAttribute {
	attr, _ := unwrapTimeouts[schema.SingleNestedAttribute](timeouts.Attributes(ctx, opts), diags)
	attr.MarkdownDescription = description
	return attr
}

// withTimeout bounds ctx by one operation's value of the timeouts attribute
// (such as plan.Timeouts.Create), def when it is unset. When the value cannot
// be read, diags says why and ctx is returned unbounded.
func withTimeout(ctx context.Context, timeout func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	def time.Duration, diags *diag.Diagnostics,
) (context.Context, context.CancelFunc) {
	limit, d := timeout(ctx, def)
	diags.Append(d...)
	if d.HasError() {
		return ctx, func() {}
	}
	tflog.Debug(ctx, "operation deadline set", map[string]any{"timeout": limit.String()})
	return context.WithTimeout(ctx, limit)
}

// defaultPackageTimeout bounds generation of the package when the timeouts
// attribute does not.
const defaultPackageTimeout = 5 * time.Minute
