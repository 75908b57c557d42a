package apiclient

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"
)

// Budget is a client-side request budget: at most a number of requests in
// any second and in any minute. It is safe for concurrent use, and Clients
// built with the same Budget share it.
type Budget struct {
	perSecond *rate.Limiter // nil: no limit
	perMinute *rate.Limiter // nil: no limit
}

// NewBudget returns a budget of perSecond and perMinute requests; 0 means no
// limit of that kind.
func NewBudget(perSecond, perMinute int) *Budget {
	return &Budget{
		perSecond: windowLimiter(perSecond, time.Second),
		perMinute: windowLimiter(perMinute, time.Minute),
	}
}

// windowLimiter returns a token bucket that admits at most limit requests
// in any window of the given length (nil when limit is 0: no limit).
//
// A bucket with burst b refilled at r tokens per window admits up to
// b + r - 1 requests in a half-open window [t, t+window) (the way a
// service counts "requests in the last second/minute"): b at once, then one
// every window/r. A naive bucket (burst = limit, rate = limit) would admit
// almost twice the limit across one window and earn a code 31/32. Here the
// burst is a twentieth of the limit (at least 1) and the refill is
// limit - burst + 1 per window stretched by 1%, so b + r - 1 <= limit with
// room for float rounding and a few milliseconds of scheduling jitter. The
// cost is at most about 6% of the sustained rate, cheaper than a throttle
// and its backoff. Limits under 40 get burst 1: evenly spaced requests.
func windowLimiter(limit int, window time.Duration) *rate.Limiter {
	if limit <= 0 {
		return nil
	}
	burst := max(1, limit/20)
	refill := limit - burst + 1
	return rate.NewLimiter(rate.Limit(float64(refill)/(1.01*window.Seconds())), burst)
}

// waitBudget takes one token of each limiter, per-minute first: the
// per-second wait is the last one before the request leaves, so sending
// times keep the per-second spacing.
func (c *Client) waitBudget(ctx context.Context) error {
	for _, lim := range []*rate.Limiter{c.budget.perMinute, c.budget.perSecond} {
		if lim == nil {
			continue
		}
		if err := lim.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				// rate refuses at once a wait that would outlast the deadline;
				// report it as the deadline it is.
				return fmt.Errorf("the request budget allows no call before the deadline: %w", context.DeadlineExceeded)
			}
			return ctx.Err()
		}
	}
	return nil
}
