package harness

import "time"

// The spec's codes for a spent budget.
const (
	CodeRatePerSecond = 31 // "Requests per second limit exceeded"
	CodeRatePerMinute = 32 // "Requests per minute limit exceeded"
)

// rateLimiter holds the times of one API key's accepted requests in the
// last second and the last minute. A request is refused when the window
// [now-1s, now] or [now-1m, now] already holds the limit: the service
// counts requests in the last second or minute, so a burst of N followed
// by anything within the same second is refused.
type rateLimiter struct {
	second, minute []time.Time
}

// window drops the times older than d before now and reports whether
// another request fits under limit (0 = unlimited).
func window(times []time.Time, now time.Time, d time.Duration, limit int) ([]time.Time, bool) {
	i := 0
	for i < len(times) && !times[i].After(now.Add(-d)) {
		i++
	}
	times = times[i:]
	return times, limit == 0 || len(times) < limit
}

// take spends one request of the budget and returns 31 or 32 when the last
// second or minute is full (a refused request spends nothing), 0 otherwise.
func (rl *rateLimiter) take(now time.Time, perSecond, perMinute int) int {
	var fits bool
	if rl.second, fits = window(rl.second, now, time.Second, perSecond); !fits {
		return CodeRatePerSecond
	}
	if rl.minute, fits = window(rl.minute, now, time.Minute, perMinute); !fits {
		return CodeRatePerMinute
	}
	if perSecond > 0 {
		rl.second = append(rl.second, now)
	}
	if perMinute > 0 {
		rl.minute = append(rl.minute, now)
	}
	return 0
}
