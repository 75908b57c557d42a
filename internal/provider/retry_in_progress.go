package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is the wait every operation on a collection shares while the
// service answers code 38 (the collection is still being generated or
// published): the access list, and the HTML package.

// The pauses between attempts grow from inProgressFirstWait to
// inProgressMaxWait; the operation's timeout ends them.
const (
	inProgressFirstWait = time.Second
	inProgressMaxWait   = 15 * time.Second
)

// retryWhileInProgress repeats call while it fails with code 38 (the
// collection is still being generated or published), with growing pauses,
// until ctx ends.
func retryWhileInProgress(ctx context.Context, doing, hash string, call func() error) error {
	wait := inProgressFirstWait
	for attempt := 1; ; attempt++ {
		err := call()
		if err == nil || !apiclient.IsInProgress(err) {
			return err
		}
		tflog.Info(ctx, "collection still in progress; waiting before trying again", map[string]any{
			"operation": doing, "collection_hash": hash, "attempt": attempt, "wait": wait.String(),
		})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (the collection was still in progress after %d attempts: %w)", ctx.Err(), attempt, err)
		case <-t.C:
		}
		wait = min(2*wait, inProgressMaxWait)
	}
}
