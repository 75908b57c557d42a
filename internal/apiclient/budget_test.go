package apiclient

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"
)

// On a virtual timeline, a caller that takes every token as soon as it is
// available never fits more than the limit into any window, and still gets
// at least 93% of the limit over a long run.
func TestWindowLimiterNeverExceedsLimitInAnyWindow(t *testing.T) {
	for _, window := range []time.Duration{time.Second, time.Minute} {
		for _, limit := range []int{1, 2, 3, 7, 10, 20, 60, 100, 600} {
			lim := windowLimiter(limit, window)
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			var sends []time.Time
			for now.Sub(start) < 20*window {
				r := lim.ReserveN(now, 1)
				if !r.OK() {
					t.Fatalf("limit %d: reservation refused", limit)
				}
				now = now.Add(r.DelayFrom(now))
				sends = append(sends, now)
			}
			for i := range sends {
				// Half-open window [sends[i], sends[i]+window).
				end := sends[i].Add(window)
				n := sort.Search(len(sends), func(j int) bool { return !sends[j].Before(end) }) - i
				if n > limit {
					t.Fatalf("limit %d per %v: %d requests in the window starting at %v", limit, window, n, sends[i].Sub(start))
				}
			}
			perWindow := float64(len(sends)) / 20
			if perWindow < 0.93*float64(limit) {
				t.Errorf("limit %d per %v: only %.1f per window sustained", limit, window, perWindow)
			}
		}
	}
	if windowLimiter(0, time.Second) != nil {
		t.Error("0 must mean no limiter")
	}
}

// Many goroutines share one budget. The lower bound on elapsed time is
// guaranteed by the limiter (a slow machine only makes it longer); the
// server-side window count allows for scheduling jitter of a request or two.
func TestBudgetSharedAcrossGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("takes about 1.3 s of real time")
	}
	var mu sync.Mutex
	var arrivals []time.Time
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		writeJSON(w, http.StatusOK, okEnvelope(`{"views":1}`))
	})
	const rps, workers, each = 50, 20, 3
	c, err := New(func() Config {
		cfg := f.config()
		cfg.RequestsPerSecond = rps
		cfg.RequestsPerMinute = 6000
		return cfg
	}())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				if _, err := c.GetUserStats(t.Context()); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	// Burst 2, then 49 per 1.01 s: 58 more requests need at least 1.19 s.
	if minimum := 1190 * time.Millisecond; elapsed < minimum {
		t.Errorf("%d requests took %v, the budget allows no less than %v", workers*each, elapsed, minimum)
	}
	sort.Slice(arrivals, func(i, j int) bool { return arrivals[i].Before(arrivals[j]) })
	for i := range arrivals {
		n := sort.Search(len(arrivals), func(j int) bool { return !arrivals[j].Before(arrivals[i].Add(time.Second)) }) - i
		if n > rps+2 {
			t.Errorf("%d requests arrived within one second (limit %d)", n, rps)
		}
	}
	t.Logf("%d requests in %v", len(arrivals), elapsed)
}

// A budget that cannot admit a call before the deadline fails at once with
// an error that reads as the deadline.
func TestBudgetWaitPastDeadlineIsDeadlineExceeded(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{"views":1}`))
	})
	c, err := New(func() Config { cfg := f.config(); cfg.RequestsPerMinute = 1; return cfg }())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetUserStats(t.Context()); err != nil { // spends the only token
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.GetUserStats(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("err = %v after %v, want an immediate deadline error", err, time.Since(start))
	}
	if f.count() != 1 {
		t.Errorf("server saw %d requests, want 1", f.count())
	}
}

// Clients built with one Budget draw on it together, as the provider's
// clients of successive Terraform graph walks do.
func TestBudgetSharedAcrossClients(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{"views":1}`))
	})
	budget := NewBudget(20, 0) // burst 1, then one call every 50.5 ms
	var clients []*Client
	for range 2 {
		cfg := f.config()
		cfg.Budget = budget
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	start := time.Now()
	for i := range 5 {
		if _, err := clients[i%2].GetUserStats(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	// Separate budgets would let each client's first calls through at once;
	// one shared budget spaces all five: four gaps of 50.5 ms.
	if elapsed, minimum := time.Since(start), 200*time.Millisecond; elapsed < minimum {
		t.Errorf("5 calls through two clients sharing a 20/s budget took %v, want at least %v", elapsed, minimum)
	}
}
