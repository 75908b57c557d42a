package apiclient

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// retryLayer repeats a call's attempt while decide says another is safe
// and useful, waiting the backoff in between, and rewinds an upload that
// an attempt read. The error returned is the one that ended the retries,
// naming the one that caused them when the deadline cut them short.
func (c *Client) retryLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		rewind := uploadRewinder(cl.req.file)
		cl.rewinds = rewind != nil
		var lastErr error
		touched := false
		for attempt := 1; ; attempt++ {
			if touched {
				if err := rewind(); err != nil {
					return fmt.Errorf("%w; could not rewind the upload to retry: %w", lastErr, err)
				}
			}
			cl.attempt, cl.res, cl.retryable, cl.waited, cl.decided = attempt, attemptResult{}, false, false, false
			finalErr := next(ctx, cl)
			if cl.waited {
				if lastErr != nil {
					return fmt.Errorf("%w; stopped retrying: %w", lastErr, finalErr)
				}
				return fmt.Errorf("flipbook API %s: waiting for the request budget: %w", cl.req.action, finalErr)
			}
			touched = cl.res.touched
			if finalErr == nil {
				return nil
			}
			retry, backoff := c.decide(ctx, cl, finalErr)
			if !retry {
				if ctxErr := ctx.Err(); ctxErr != nil && lastErr != nil && !IsOutcomeUnknown(finalErr) {
					// The deadline cut a retry short: the failure worth
					// reporting is the one that caused the retries.
					return fmt.Errorf("%w; stopped retrying after %d attempts: %w", lastErr, attempt, ctxErr)
				}
				if cl.retryable && attempt > 1 {
					var ou *OutcomeUnknownError
					if errors.As(finalErr, &ou) {
						ou.Note = fmt.Sprintf("it was sent %d times (safe: it sets a state rather than adding one), the last without an answer", attempt)
					}
					return fmt.Errorf("%w (gave up after %d attempts)", finalErr, attempt)
				}
				return finalErr
			}
			lastErr = finalErr
			if err := c.sleep(ctx, backoff); err != nil {
				return fmt.Errorf("%w; stopped retrying after %d attempts: %w", lastErr, attempt, err)
			}
		}
	}
}

// decide says once per attempt whether the attempt that ended in err is
// tried again and after which wait; layers inside retry (logging) ask it
// too and get the same answer. An upload whose reader was consumed can
// only be re-sent if it rewinds; maintenance (22) has its own retry count.
func (c *Client) decide(ctx context.Context, cl *call, err error) (bool, time.Duration) {
	if cl.decided {
		return cl.retry, cl.backoff
	}
	cl.decided = true
	cl.retry, cl.backoff = false, 0
	if err == nil {
		return false, 0
	}
	rewindable := !cl.res.touched || cl.rewinds
	cl.retry = cl.retryable && cl.attempt <= c.retry.maxRetries && ctx.Err() == nil && rewindable &&
		(CodeOf(err) != CodeMaintenance || cl.attempt <= MaintenanceMaxRetries)
	if cl.retry {
		cl.backoff = c.backoff(cl.attempt, CodeOf(err))
	}
	return cl.retry, cl.backoff
}

// backoff is the wait before retry number n (1-based) after an answer with
// code: MinBackoff doubling up to MaxBackoff, with equal jitter (half fixed,
// half random), so a throttled client always waits at least half the step.
// A per-minute throttle (32) clears only as its minute slides by, so its
// steps start at PerMinuteMinBackoff and may grow to PerMinuteMaxBackoff:
// eight retries then wait out a full minute even with the least jitter.
func (c *Client) backoff(n int, code int) time.Duration {
	lo, hi := c.retry.minBackoff, c.retry.maxBackoff
	switch code {
	case CodePerMinuteLimit:
		lo, hi = max(lo, PerMinuteMinBackoff), max(hi, PerMinuteMaxBackoff)
	case CodeMaintenance:
		lo, hi = max(lo, MaintenanceMinBackoff), max(hi, MaintenanceMaxBackoff)
	}
	d := hi
	if n-1 < 32 {
		if step := lo << (n - 1); step > 0 && step < d {
			d = step
		}
	}
	half := d / 2
	return half + time.Duration(c.jitter()*float64(d-half))
}
