package apiclient

import (
	"context"
	"time"

	"golang.org/x/time/rate"
)

// windowLimiter returns a token bucket that admits at most limit requests
// in any window of the given length (nil when limit is 0: no limit).
//
// A bucket with burst b refilled at r per second admits up to b + r·window
// requests in one window, so a plain "limit per window, burst limit" bucket
// could let through twice the limit across a window boundary and earn a
// code 31/32. Here the burst is a tenth of the limit (at least 1) and the
// refill rate is (limit - burst) per window: b + r·window = limit. The cost
// is at most 10% of the sustained rate, which is cheaper than a throttle
// and its backoff. With limit 1 no burst can be subtracted; the bucket
// then refills one token per window.
func windowLimiter(limit int, window time.Duration) *rate.Limiter {
	if limit <= 0 {
		return nil
	}
	burst := max(1, limit/10)
	refill := limit - burst
	if refill <= 0 {
		refill = limit
	}
	return rate.NewLimiter(rate.Limit(float64(refill)/window.Seconds()), burst)
}

// waitBudget takes one token of each limiter, per-minute first: the
// per-second wait is the last one before the request leaves, so sending
// times keep the per-second spacing.
func (c *Client) waitBudget(ctx context.Context) error {
	if c.perMinute != nil {
		if err := c.perMinute.Wait(ctx); err != nil {
			return err
		}
	}
	if c.perSecond != nil {
		if err := c.perSecond.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}
