package apiclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// virtualBudget returns a budget whose clock is *now.
func virtualBudget(perSecond, perMinute int, now *time.Time) *Budget {
	b := NewBudget(perSecond, perMinute)
	b.now = func() time.Time { return *now }
	return b
}

// virtualClock is a budget clock that moves only when a test moves it:
// take's waits (Budget.after) fire when the clock passes their end.
type virtualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*virtualTimer
}

type virtualTimer struct {
	at time.Time
	ch chan time.Time
}

func newVirtualClock() *virtualClock {
	return &virtualClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (v *virtualClock) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

func (v *virtualClock) After(d time.Duration) (<-chan time.Time, func() bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vt := &virtualTimer{at: v.now.Add(d), ch: make(chan time.Time, 1)}
	v.timers = append(v.timers, vt)
	return vt.ch, func() bool {
		v.mu.Lock()
		defer v.mu.Unlock()
		i := slices.Index(v.timers, vt)
		if i >= 0 {
			v.timers = slices.Delete(v.timers, i, i+1)
		}
		return i >= 0
	}
}

// pending returns the end of the earliest wait in progress.
func (v *virtualClock) pending() (time.Time, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.timers) == 0 {
		return time.Time{}, false
	}
	return slices.MinFunc(v.timers, func(a, b *virtualTimer) int { return a.at.Compare(b.at) }).at, true
}

// advanceTo moves the clock to t and fires every wait that ended.
func (v *virtualClock) advanceTo(t time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if t.After(v.now) {
		v.now = t
	}
	kept := v.timers[:0]
	for _, vt := range v.timers {
		if vt.at.After(v.now) {
			kept = append(kept, vt)
			continue
		}
		vt.ch <- v.now
	}
	v.timers = kept
}

// awaitWait returns the end of the first wait some goroutine starts on the
// clock; the real time it allows is only a bound against a hung test.
func (v *virtualClock) awaitWait(t *testing.T) time.Time {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if at, ok := v.pending(); ok {
			return at
		}
		time.Sleep(100 * time.Microsecond)
	}
	t.Fatal("no goroutine started waiting on the budget")
	return time.Time{}
}

// clockedBudget returns a budget that reads and waits on clock.
func clockedBudget(perSecond, perMinute int, clock *virtualClock) *Budget {
	b := NewBudget(perSecond, perMinute)
	b.now, b.after = clock.Now, clock.After
	return b
}

// admitNow takes a place at the budget's present moment, or fails the test.
func admitNow(t *testing.T, b *Budget) *slot {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if ok, _ := b.admitAt(b.now()); !ok {
		t.Fatalf("the budget refused a call at %v", b.now())
	}
	s := &slot{admitted: b.now()}
	addSlot(b, s)
	return s
}

// addSlot appends s to the calls b remembers, as take does. Callers hold
// b.mu.
func addSlot(b *Budget, s *slot) {
	if s.answered.IsZero() {
		s.flying = true
		b.flying++
	}
	b.sent = append(b.sent, s)
}

// On a virtual timeline, callers take every place as soon as it is free
// while answers come back after random delays, and the service counts each
// call at a random moment between its admission and its answer. No window
// of the service's (a time exactly one window old is out, as the emulator
// counts) ever holds more than the limit, an empty window admits the whole
// limit at once, and the sustained rate stays within 2% of the limit plus
// the round trip.
func TestBudgetNeverExceedsLimitInAnyWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // G404: a reproducible simulation; it protects nothing
	for _, window := range []time.Duration{time.Second, time.Minute} {
		for _, limit := range []int{1, 2, 3, 5, 8, 20, 60, 100} {
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			var b *Budget
			if window == time.Second {
				b = virtualBudget(limit, 0, &now)
			} else {
				b = virtualBudget(0, limit, &now)
			}
			type flight struct {
				s      *slot
				answer time.Time
			}
			var inFlight []flight
			var arrivals []time.Time
			const maxRTT = 40 * time.Millisecond
			for now.Sub(start) < 10*window {
				b.mu.Lock()
				ok, wake := b.admitAt(now)
				b.mu.Unlock()
				if ok {
					s := admitNow(t, b)
					rtt := time.Duration(rng.Int64N(int64(maxRTT)))
					arrivals = append(arrivals, now.Add(time.Duration(rng.Int64N(int64(rtt)+1))))
					inFlight = append(inFlight, flight{s, now.Add(rtt)})
					if len(arrivals) == limit && now != start {
						t.Fatalf("limit %d per %v: the first %d calls did not all go at once", limit, window, limit)
					}
					continue
				}
				// Next event: the earliest answer or the budget's wake time.
				sort.Slice(inFlight, func(i, j int) bool { return inFlight[i].answer.Before(inFlight[j].answer) })
				next := wake
				if len(inFlight) > 0 && (next.IsZero() || inFlight[0].answer.Before(next)) {
					next = inFlight[0].answer
					now = next
					b.answered(inFlight[0].s, CodeOK)
					inFlight = inFlight[1:]
					continue
				}
				if next.IsZero() {
					t.Fatalf("limit %d per %v: nothing in flight and no wake time", limit, window)
				}
				now = next
			}
			sort.Slice(arrivals, func(i, j int) bool { return arrivals[i].Before(arrivals[j]) })
			for i := range arrivals {
				// The emulator keeps a time while it is less than a window old.
				end := arrivals[i].Add(window)
				n := sort.Search(len(arrivals), func(j int) bool { return !arrivals[j].Before(end) }) - i
				if n > limit {
					t.Fatalf("limit %d per %v: %d arrivals in the window starting at %v", limit, window, n, arrivals[i].Sub(start))
				}
			}
			perWindow := float64(len(arrivals)) / 10
			if floor := float64(limit) * float64(window) / float64(window+maxRTT+occupyMargin) * 0.98; perWindow < floor {
				t.Errorf("limit %d per %v: only %.1f per window sustained, want at least %.1f", limit, window, perWindow, floor)
			}
		}
	}
}

// A throttle confirmed by a second one (no call accepted in between)
// teaches the window it names, and only that one: code 31 sets the
// per-second limit to the calls the service accepted within the last
// second, code 32 the per-minute one. A lone throttle amid accepted calls
// teaches nothing. A throttle of a call admitted under the old limit changes
// nothing more; one met while the limit already held is a multiplicative
// cut.
func TestBudgetLearnsFromThrottles(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(0, 0, &now)
	var burst []*slot
	for range 12 {
		burst = append(burst, admitNow(t, b))
	}
	now = now.Add(5 * time.Millisecond)
	for _, s := range burst[:8] {
		if ch := b.answered(s, CodeOK); len(ch) != 0 {
			t.Fatalf("a success changed the limits of an untaught budget: %+v", ch)
		}
	}
	if ch := b.answered(burst[8], CodePerSecondLimit); len(ch) != 0 {
		t.Fatalf("a lone throttle taught the budget: %+v", ch)
	}
	ch := b.answered(burst[9], CodePerSecondLimit)
	if len(ch) != 1 || ch[0].Window != "second" || ch[0].From != 0 || ch[0].To != 8 {
		t.Fatalf("confirmed throttle: %+v, want second 0 -> 8", ch)
	}
	for _, s := range burst[10:] {
		if ch := b.answered(s, CodePerSecondLimit); len(ch) != 0 {
			t.Errorf("throttles of calls admitted in the same burst cut again: %+v", ch)
		}
	}
	if ps, pm := b.Limits(); ps != 8 || pm != 0 {
		t.Errorf("limits %d/s %d/min, want 8/s and none per minute", ps, pm)
	}
	// The refused calls do not occupy the window: 8 occupy it until 1 s
	// after their answer.
	b.mu.Lock()
	ok, wake := b.admitAt(now)
	b.mu.Unlock()
	if want := now.Add(time.Second + occupyMargin); ok || !wake.Equal(want) {
		t.Errorf("admitAt = %v, %v; want a wait until %v", ok, wake, want)
	}

	// A 32 later teaches the per-minute window alone.
	now = now.Add(2 * time.Second)
	for range 4 {
		s := admitNow(t, b)
		b.answered(s, CodeOK)
	}
	s := admitNow(t, b)
	s2 := admitNow(t, b)
	if ch := b.answered(s, CodePerMinuteLimit); len(ch) != 0 {
		t.Fatalf("a lone 32 taught the budget: %+v", ch)
	}
	ch = b.answered(s2, CodePerMinuteLimit)
	if len(ch) != 1 || ch[0].Window != "minute" || ch[0].To != 12 {
		t.Fatalf("per-minute throttle: %+v, want minute 0 -> 12", ch)
	}
	// The per-second count, full once and then a whole second without a
	// throttle, was probed a quarter higher meanwhile (it is a first count).
	if ps, pm := b.Limits(); ps != 10 || pm != 12 {
		t.Errorf("limits %d/s %d/min, want 10 and 12", ps, pm)
	}

	// Throttled although the window held no more than the limit allows
	// (another client shares the key): a quarter off.
	now = now.Add(time.Minute)
	b.mu.Lock()
	for range 12 {
		addSlot(b, &slot{admitted: now, answered: now})
	}
	extra, extra2 := &slot{admitted: now}, &slot{admitted: now}
	addSlot(b, extra)
	addSlot(b, extra2)
	b.mu.Unlock()
	b.answered(extra, CodePerMinuteLimit)
	ch = b.answered(extra2, CodePerMinuteLimit)
	if len(ch) != 1 || ch[0].From != 12 || ch[0].To != 9 {
		t.Errorf("throttle at the learned limit: %+v, want minute 12 -> 9 (a quarter off)", ch)
	}
}

// fillWindow admits calls at now for as long as the budget admits them,
// the service accepting each, and returns the changes the answers made.
func fillWindow(t *testing.T, b *Budget, now time.Time) []RateChange {
	t.Helper()
	var changes []RateChange
	for {
		b.mu.Lock()
		ok, _ := b.admitAt(now)
		b.mu.Unlock()
		if !ok {
			return changes
		}
		changes = append(changes, b.answered(admitNow(t, b), CodeOK)...)
	}
}

// confirmThrottle makes the service refuse two calls of the window in a
// row (code), which teaches the budget; it returns the change.
func confirmThrottle(t *testing.T, b *Budget, code int) []RateChange {
	t.Helper()
	s, s2 := &slot{admitted: b.now()}, &slot{admitted: b.now()}
	b.mu.Lock()
	addSlot(b, s)
	addSlot(b, s2)
	b.mu.Unlock()
	b.answered(s, code)
	return b.answered(s2, code)
}

// A throttle met while the calls kept to a configured limit (another client
// shares the key) cuts the limit; while throttles keep coming the limit
// stays cut (and places are left to the client they show), and one whole
// window without a throttle brings it back to the configured limit.
func TestBudgetRecoversToConfiguredLimit(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(5, 0, &now)
	for range 3 {
		admitNow(t, b)
	}
	b.mu.Lock()
	for _, o := range b.sent {
		o.answered, o.flying = now, false
	}
	b.flying = 0
	b.mu.Unlock()
	if ch := confirmThrottle(t, b, CodePerSecondLimit); len(ch) != 1 || ch[0].From != 5 || ch[0].To != 3 {
		t.Fatalf("throttle after 3 calls: %+v, want 5 -> 3 (the calls the service accepted)", ch)
	}
	// The other client keeps the window busy: this budget takes its places
	// as they free, and just before each time it does, a call meets a
	// throttle.
	for step := 1; step <= 15; step++ {
		now = now.Add(300 * time.Millisecond)
		b.mu.Lock()
		free, _ := b.admitAt(now)
		b.mu.Unlock()
		if free {
			// Lone (accepted calls came between): it does not lower the
			// limit, but it shows the other client, which is left places.
			for _, ch := range b.answered(admitNowAnyway(b), CodePerSecondLimit) {
				if ch.To > ch.From || !strings.Contains(ch.Reason, "another client") {
					t.Fatalf("step %d: a lone throttle changed the limit: %+v", step, ch)
				}
			}
		}
		for _, ch := range fillWindow(t, b, now) {
			if ch.To > 3 {
				t.Fatalf("grew past the share while throttles kept coming: %+v", ch)
			}
		}
	}
	if ps, _ := b.Limits(); ps > 3 {
		t.Fatalf("per-second limit %d during contention, want at most 3", ps)
	}
	// Contention ends: one clear second later the limit is the configured 5.
	now = now.Add(time.Second + occupyMargin)
	ch := fillWindow(t, b, now)
	if len(ch) == 0 || ch[len(ch)-1].To != 5 {
		t.Fatalf("after a clear second: %+v, want back to 5", ch)
	}
	if ps, _ := b.Limits(); ps != 5 {
		t.Errorf("per-second limit %d, want the configured 5", ps)
	}
}

// admitNowAnyway records a call at the budget's present moment whether or
// not the budget would admit it (another process's call, say).
func admitNowAnyway(b *Budget) *slot {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &slot{admitted: b.now()}
	addSlot(b, s)
	return s
}

// A learned limit cut by contention doubles (at least halfway) toward the
// highest limit that held, one step per window without a throttle: it is
// back within two windows of the contention's end, not one call per three
// windows.
func TestBudgetRecoversWithinTwoWindows(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(0, 0, &now)
	// Alone on the key: the service refuses the 61st call of a minute.
	for range 60 {
		b.answered(admitNow(t, b), CodeOK)
	}
	if ch := confirmThrottle(t, b, CodePerMinuteLimit); len(ch) != 1 || ch[0].To != 60 {
		t.Fatalf("first throttle: %+v, want minute 0 -> 60", ch)
	}
	// Another client takes 45 of the next minute: 15 are accepted.
	now = now.Add(time.Minute + time.Second)
	for range 15 {
		b.answered(admitNow(t, b), CodeOK)
	}
	confirmThrottle(t, b, CodePerMinuteLimit)
	if _, pm := b.Limits(); pm != 15 {
		t.Fatalf("contention: per-minute limit %d, want 15 (the share given)", pm)
	}
	end := now // the other client stops
	var steps []RateChange
	for now.Sub(end) <= 2*time.Minute+10*time.Second {
		now = now.Add(time.Second)
		steps = append(steps, fillWindow(t, b, now)...)
		if _, pm := b.Limits(); pm == 60 {
			break
		}
	}
	if _, pm := b.Limits(); pm != 60 || now.Sub(end) > 2*time.Minute+2*time.Second {
		t.Fatalf("per-minute limit %d %v after the contention ended (steps %+v), want 60 within two minutes", pm, now.Sub(end), steps)
	}

	// A limit the throttles cut (with no count known to hold above it)
	// doubles, at least halfway, toward the ceiling.
	b = virtualBudget(0, 0, &now)
	w := b.windows[perMinute]
	w.learned, w.ceiling, w.lastCut, w.lastStep, w.throttled = 15, 60, now, now, now
	start := now
	fillWindow(t, b, now) // the 15 calls the service gave
	steps = nil
	for now.Sub(start) <= 2*time.Minute+10*time.Second {
		now = now.Add(time.Second)
		steps = append(steps, fillWindow(t, b, now)...)
		if _, pm := b.Limits(); pm == 60 {
			break
		}
	}
	if len(steps) != 2 || steps[0].To != 38 || steps[1].To != 60 || now.Sub(start) > 2*time.Minute+2*time.Second {
		t.Errorf("steps %+v in %v, want 15 -> 38 -> 60 within two minutes", steps, now.Sub(start))
	}
}

// At its ceiling a learned limit is probed a quarter higher after a full
// window without a throttle until the service refuses a probe, then only
// after probeCalls calls with the window full, and never while the calls
// do not fill the window; a probe the service refuses teaches the count it
// accepted.
func TestBudgetProbesPastTheCeilingSlowly(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(0, 0, &now)
	for range 8 {
		b.answered(admitNow(t, b), CodeOK)
	}
	if ch := confirmThrottle(t, b, CodePerSecondLimit); len(ch) != 1 || ch[0].To != 8 {
		t.Fatalf("first throttle: %+v, want second 0 -> 8", ch)
	}
	// Not full: 200 calls, one every 200 ms, never raise it.
	now = now.Add(time.Second + occupyMargin)
	for range 200 {
		now = now.Add(200 * time.Millisecond)
		if ch := b.answered(admitNow(t, b), CodeOK); len(ch) != 0 {
			t.Fatalf("grew while the window was never full: %+v", ch)
		}
	}
	// Full every second: a first count is probed after one full second
	// without a throttle; the service refuses the ninth call, which
	// confirms 8.
	now = now.Add(time.Second + occupyMargin)
	if ch := fillWindow(t, b, now); len(ch) != 0 {
		t.Fatalf("probed before a full second went by: %+v", ch)
	}
	now = now.Add(time.Second + occupyMargin)
	probe := b.answered(admitNow(t, b), CodeOK)
	if len(probe) != 1 || probe[0].From != 8 || probe[0].To != 10 {
		t.Fatalf("first probe %+v, want 8 -> 10 after a full second", probe)
	}
	for range 7 {
		b.answered(admitNow(t, b), CodeOK)
	}
	if ch := confirmThrottle(t, b, CodePerSecondLimit); len(ch) != 1 || ch[0].From != 10 || ch[0].To != 8 {
		t.Fatalf("refused first probe: %+v, want 10 -> 8", ch)
	}
	// Confirmed: the next probe comes once probeCalls calls succeeded.
	var changes []RateChange
	calls := 0
	for len(changes) == 0 && calls < 10*probeCalls {
		now = now.Add(time.Second + occupyMargin)
		for len(changes) == 0 { // stop at the probe: the ninth is not sent
			b.mu.Lock()
			ok, _ := b.admitAt(now)
			b.mu.Unlock()
			if !ok {
				break
			}
			changes = b.answered(admitNow(t, b), CodeOK)
			calls++
		}
	}
	if len(changes) != 1 || changes[0].From != 8 || changes[0].To != 10 || calls < probeCalls {
		t.Fatalf("probe %+v after %d calls, want 8 -> 10 after at least %d", changes, calls, probeCalls)
	}
	// The service still refuses the ninth: back to 8.
	now = now.Add(time.Second + occupyMargin)
	for range 8 {
		b.answered(admitNow(t, b), CodeOK)
	}
	if ch := confirmThrottle(t, b, CodePerSecondLimit); len(ch) != 1 || ch[0].From != 10 || ch[0].To != 8 {
		t.Errorf("refused probe: %+v, want 10 -> 8", ch)
	}
}

// Status polls wait behind other calls: when a place frees, a create that
// queued after a poll still goes first.
func TestBudgetPollsYieldToOtherCalls(t *testing.T) {
	clock := newVirtualClock()
	b := clockedBudget(1, 0, clock)
	first, err := b.take(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 2)
	var wg sync.WaitGroup
	// queue starts a call and returns once it waits in the budget's queue.
	queue := func(name string, ctx context.Context) {
		b.mu.Lock()
		want := len(b.queue) + 1
		b.mu.Unlock()
		wg.Go(func() {
			if s, err := b.take(ctx); err == nil {
				order <- name
				b.answered(s, CodeOK)
			}
		})
		for {
			b.mu.Lock()
			n := len(b.queue)
			b.mu.Unlock()
			if n == want {
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	queue("poll", withLowPriority(t.Context()))
	queue("create", t.Context())
	b.answered(first, CodeOK)
	// Each goes one second (and the margin) after the answer before it.
	for range 2 {
		at := clock.awaitWait(t)
		if want := clock.Now().Add(time.Second + occupyMargin); !at.Equal(want) {
			t.Errorf("a call waits until %v, want %v", at, want)
		}
		clock.advanceTo(at)
	}
	wg.Wait()
	close(order)
	var got []string
	for o := range order {
		got = append(got, o)
	}
	if strings.Join(got, ",") != "create,poll" {
		t.Errorf("order %v, want the create before the poll", got)
	}
}

// A change of a learned limit is logged at DEBUG through the Client's
// Logger.
func TestBudgetChangeIsLogged(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n < 2 { // a second refusal confirms the first
			writeJSON(w, http.StatusOK, throttleBody)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"views":1}`))
	})
	log := &recordingLogger{}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Logger = log })
	if _, err := c.GetUserStats(t.Context()); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, ev := range log.all() {
		if ev.Msg == "flipbook request budget changed" {
			found = true
			if ev.Level != LevelDebug || ev.Fields["window"] != "second" || ev.Fields["from_per_window"] != 0 ||
				ev.Fields["to_per_window"] != 1 || !strings.Contains(fmt.Sprint(ev.Fields["reason"]), "code 31") {
				t.Errorf("budget event: %v %+v", ev.Level, ev.Fields)
			}
		}
	}
	if !found {
		t.Errorf("no budget event among %+v", log.all())
	}
}

// Many goroutines share one budget: on the budget's clock, no second holds
// more calls than the limit as the service sees them arrive, and the 60
// calls take at least a second (50 at once, then the other 10 one second
// after answers came back).
func TestBudgetSharedAcrossGoroutines(t *testing.T) {
	clock := newVirtualClock()
	const rps, workers, each = 50, 20, 3
	budget := clockedBudget(rps, 6000, clock)
	var mu sync.Mutex
	var arrivals []time.Time
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, clock.Now())
		mu.Unlock()
		writeJSON(w, http.StatusOK, okEnvelope(`{"views":1}`))
	})
	c, err := New(func() Config {
		cfg := f.config()
		cfg.Budget = budget
		return cfg
	}())
	if err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
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
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	// Move the clock to the next wait's end whenever no call is in flight.
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
			continue
		case <-time.After(100 * time.Microsecond):
		}
		budget.mu.Lock()
		idle := budget.flying == 0
		budget.mu.Unlock()
		if at, ok := clock.pending(); ok && idle {
			clock.advanceTo(at)
		}
	}
	if elapsed := clock.Now().Sub(start); elapsed < time.Second {
		t.Errorf("%d requests took %v of the budget's clock, the budget allows no less than 1s", workers*each, elapsed)
	}
	if len(arrivals) != workers*each {
		t.Fatalf("%d requests arrived, want %d", len(arrivals), workers*each)
	}
	sort.Slice(arrivals, func(i, j int) bool { return arrivals[i].Before(arrivals[j]) })
	for i := range arrivals {
		n := sort.Search(len(arrivals), func(j int) bool { return !arrivals[j].Before(arrivals[i].Add(time.Second)) }) - i
		if n > rps {
			t.Errorf("%d requests arrived within one second (limit %d)", n, rps)
		}
	}
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
	clock := newVirtualClock()
	budget := clockedBudget(2, 0, clock) // 2 at once, then 2 a second
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
	start := clock.Now()
	for i := range 2 {
		if _, err := clients[i].GetUserStats(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	// Separate budgets would let the third through at once; one shared
	// budget holds it until a second after the first's answer.
	third := make(chan error)
	go func() {
		_, err := clients[0].GetUserStats(t.Context())
		third <- err
	}()
	at := clock.awaitWait(t)
	if want := start.Add(time.Second + occupyMargin); !at.Equal(want) {
		t.Fatalf("the third call waits until %v, want %v", at, want)
	}
	if f.count() != 2 {
		t.Fatalf("the service saw %d calls before the wait ended, want 2", f.count())
	}
	clock.advanceTo(at)
	if err := <-third; err != nil {
		t.Fatal(err)
	}
	if f.count() != 3 {
		t.Errorf("the service saw %d calls, want 3", f.count())
	}
}

// BenchmarkBudgetTake measures one admission and its answer on a budget
// that states no limit (it still remembers a minute of calls to weigh a
// throttle).
func BenchmarkBudgetTake(b *testing.B) {
	budget := NewBudget(0, 0)
	ctx := b.Context()
	for b.Loop() {
		s, err := budget.take(ctx)
		if err != nil {
			b.Fatal(err)
		}
		budget.answered(s, CodeOK)
	}
}

// BenchmarkBudgetTakeAtLimit: the same at 100 calls a second on a virtual
// clock, under limits of 100 a second and 6000 a minute (both windows
// full, every place taken as soon as it frees).
func BenchmarkBudgetTakeAtLimit(b *testing.B) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	budget := virtualBudget(100, 6000, &now)
	ctx := b.Context()
	for b.Loop() {
		now = now.Add(10*time.Millisecond + occupyMargin/100)
		s, err := budget.take(ctx)
		if err != nil {
			b.Fatal(err)
		}
		budget.answered(s, CodeOK)
	}
}

// Throttles that keep coming back between accepted calls (another client's
// bursts, or the emulator's rate_limit fault) never confirm one another, so
// they leave the pace alone: the budget learns only from a window the
// service keeps refusing.
func TestBudgetIgnoresLoneThrottles(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(0, 0, &now)
	for i := range 20 {
		now = now.Add(50 * time.Millisecond)
		code := CodeOK
		if i%2 == 1 {
			code = CodePerSecondLimit
			if i%4 == 3 {
				code = CodePerMinuteLimit
			}
		}
		if ch := b.answered(admitNow(t, b), code); len(ch) != 0 {
			t.Fatalf("call %d (code %d) changed the limits: %+v", i, code, ch)
		}
	}
	if ps, pm := b.Limits(); ps != 0 || pm != 0 {
		t.Errorf("limits %d/s %d/min after lone throttles, want none learned", ps, pm)
	}
}

// The ceiling a first throttle teaches counts only calls the service did
// accept: calls still in flight may yet be refused, and a ceiling counted
// with them would send every later climb into the same refusals.
func TestBudgetFirstCountIsWhatWasAccepted(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := virtualBudget(0, 0, &now)
	var burst []*slot
	for range 10 {
		burst = append(burst, admitNow(t, b))
	}
	for _, s := range burst[:6] {
		b.answered(s, CodeOK)
	}
	b.answered(burst[8], CodePerSecondLimit)
	ch := b.answered(burst[9], CodePerSecondLimit)
	if len(ch) != 1 || ch[0].To != 8 {
		t.Fatalf("first throttle: %+v, want second 0 -> 8 (6 accepted, 2 in flight)", ch)
	}
	b.mu.Lock()
	ceiling := b.windows[perSecond].ceiling
	b.mu.Unlock()
	if ceiling != 6 {
		t.Errorf("ceiling %d, want the 6 calls the service accepted", ceiling)
	}
}
