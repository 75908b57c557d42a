package apiclient

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Budget is a client-side request budget shared by every Client built with
// it (the provider keeps one per account for the life of the plugin
// process). It holds two sliding windows, the last second and the last
// minute, the way the service counts (Errors: 31 "too many requests per
// second with one key", 32 "too many requests per minute with one key";
// Limits: "numeric values not shown").
//
// Each window admits a call while fewer than its limit of calls occupy it.
// A call occupies a window from the moment it is admitted until one window
// length after its answer came back: the service counted it at some moment
// between the two, so a call admitted later can never arrive within one
// window of it, however the calls bunch on the way. That is the margin, and
// it costs one round trip per window (a few milliseconds on loopback), where
// a fixed margin would have to guess the worst scheduling delay of a loaded
// machine. A window that is empty admits its whole limit at once.
//
// A window's limit is the configured one (an upper bound) or, below it,
// the one learned from the service: a 31 teaches the per-second window, a
// 32 the per-minute one, once a second refusal with no accepted call in
// between shows the window really is full. The limit then drops to the
// calls of this process the service accepted in that window: while another
// client uses the key, this process keeps to the share it was given. Once
// no throttle came for a whole window, the limit climbs back
// multiplicatively (doubling, and at least halfway) to the highest limit
// that held, so that it is back within two windows of the contention's end;
// above that it probes a quarter higher: after one full window until a probe
// was refused (the first count may have been taken while another client had
// part of the window), then after probeCalls calls at the limit (see
// answered, learn and grow).
//
// A throttle met while this process held fewer calls in the window than
// the service is known to have held of them at once (all accepted) can
// only mean another client holds the rest. That is not learned as a limit:
// this process leaves the other client places, and takes them back evenly
// over the window that follows (see share), so that a client that wants
// more can grow into up to half the window and the key stays full.
type Budget struct {
	mu  sync.Mutex
	now func() time.Time
	// after starts a wait of d on the budget's clock: its channel fires when
	// d has passed, stop abandons it. Tests drive both with a virtual clock.
	after   func(d time.Duration) (fire <-chan time.Time, stop func() bool)
	windows [2]*window // second, minute
	sent    []*slot    // admitted calls, oldest first
	flying  int        // calls of sent not yet answered
	maxRTT  time.Duration
	queue   []*waiter // calls waiting, in the order they may go
	seq     uint64
	changed chan struct{} // closed and replaced whenever a waiter may go
}

// Window indexes of Budget.windows.
const (
	perSecond = 0
	perMinute = 1
)

// occupyMargin is added to every window: the service and this process read
// different clocks at different moments, and a call landing exactly one
// window after another must not be refused for a nanosecond.
const occupyMargin = 2 * time.Millisecond

// probeCalls is how many calls must succeed, with the window full and no
// throttle for a whole window, before a learned limit at its ceiling is
// probed a quarter higher: a probe past the service's limit costs two
// refused calls, so the steady state spends about 3% of its calls on
// probing, whatever the window.
const probeCalls = 64

// maxLog bounds the calls remembered when no limit applies.
const maxLog = 100_000

// window is one sliding window of the budget.
type window struct {
	name       string // "second" or "minute"
	length     time.Duration
	configured int // upper bound set by the user; 0: none
	learned    int // taught by throttles; 0: nothing learned
	successes  int // calls answered without a throttle since the window was last found full
	full       bool
	lastCut    time.Time // when a throttle last lowered the limit
	lastStep   time.Time // when the limit last changed, either way
	throttled  time.Time // when the window last met a throttle, lone or not
	// ceiling is the highest limit known to hold: the configured one, or the
	// highest learned limit that went a whole window full without a
	// throttle, or the count first learned. After contention the limit
	// climbs back to it within two windows.
	ceiling int
	// climbed: the last change was a climb toward the ceiling, not yet
	// through a whole window. stubborn: a climb met a throttle within its
	// window (another client still holds part of the key), so the next
	// climb waits two windows and goes straight to the ceiling.
	climbed, stubborn bool
	// confirmed: a probe past the ceiling was refused, so the ceiling is the
	// service's limit, not a count taken while another client had part of
	// the window. Until then a full window without a throttle is probe
	// enough.
	confirmed bool
	// reserve is how many places of the window this process leaves to
	// another client it saw using the key at sharedAt; yielding: it does so
	// until sharedAt is a whole window old (see share).
	reserve  int
	sharedAt time.Time
	yielding bool
	// known is the most calls of this process the service surely held in
	// one window of its own, all accepted (see surelyHeld): what the key
	// surely allows. Unlike the ceiling it never comes from a limit the user
	// set or one this process merely kept to. countedAt: when the calls
	// were last counted for it.
	known     int
	countedAt time.Time
	// suspect is when an unconfirmed throttle of this window came back
	// (zero: none). One throttle alone teaches nothing: a limit the calls
	// really reached refuses the next call too, while a lone 31 or 32 amid
	// accepted calls (another client's burst, a hiccup of the service) says
	// nothing about this process's pace and must not collapse it.
	suspect time.Time
}

// limit is the window's effective limit; 0 means none.
func (w *window) limit() int {
	switch {
	case w.learned == 0:
		return w.configured
	case w.configured == 0:
		return w.learned
	default:
		return min(w.learned, w.configured)
	}
}

// allowed is the limit in force at now: the window's limit, less the
// places left to another client while it is seen using the key.
func (w *window) allowed(now time.Time) int {
	lim := w.limit()
	if lim == 0 || !w.sharing(now) {
		return lim
	}
	return max(1, min(lim, w.known-w.leftAt(now)))
}

// leftAt is how many places are left to another client at now: the
// reserve, taken back evenly over the window after the last sign of it.
func (w *window) leftAt(now time.Time) int {
	if !w.sharing(now) {
		return 0
	}
	return w.reserve - int(int64(w.reserve)*int64(now.Sub(w.sharedAt))/int64(w.length))
}

// sharing says whether another client was seen using the key within the
// last window.
func (w *window) sharing(now time.Time) bool {
	return w.yielding && now.Sub(w.sharedAt) <= w.length
}

// slot is one admitted call.
type slot struct {
	admitted time.Time
	answered time.Time // zero while the call is in flight
	refused  bool      // answered 31 or 32: the service did not count it
	flying   bool      // counted in Budget.flying
}

type waiter struct {
	low bool // a status poll: goes after every other waiting call
	seq uint64
}

// RateChange describes one change of a learned limit, for logging.
type RateChange struct {
	Window   string // "second" or "minute"
	From, To int    // calls per window; 0 means no limit
	Reason   string
}

// NewBudget returns a budget of perSecond and perMinute requests; 0 means no
// configured limit of that kind (the budget then learns one from the
// service's throttles).
func NewBudget(perSecond, perMinute int) *Budget {
	return &Budget{
		now: time.Now,
		after: func(d time.Duration) (<-chan time.Time, func() bool) {
			t := time.NewTimer(d)
			return t.C, t.Stop
		},
		windows: [2]*window{
			{name: "second", length: time.Second, configured: max(perSecond, 0), ceiling: max(perSecond, 0)},
			{name: "minute", length: time.Minute, configured: max(perMinute, 0), ceiling: max(perMinute, 0)},
		},
		changed: make(chan struct{}),
	}
}

// Limits returns the effective per-second and per-minute limits (0: none).
func (b *Budget) Limits() (perSecond, perMinute int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	return b.windows[0].allowed(now), b.windows[1].allowed(now)
}

// broadcast wakes every waiter to look again. Callers hold b.mu.
func (b *Budget) broadcast() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// prune forgets the oldest calls while they occupy no window and can no
// longer count when a throttle is weighed (a call still in flight stops
// it: the rest goes at a later prune), and the oldest beyond maxLog.
// Callers hold b.mu.
func (b *Budget) prune(now time.Time) {
	horizon := now.Add(-time.Minute - occupyMargin)
	drop := 0
	for _, s := range b.sent {
		if s.answered.IsZero() || s.answered.After(horizon) {
			break
		}
		drop++
	}
	if over := len(b.sent) - maxLog; over > 0 {
		drop = max(drop, over+maxLog/4)
	}
	// Forgotten calls are cut off in batches, so that the copy is paid
	// once per many calls; the ones left behind meanwhile occupy nothing.
	if drop > 0 && (drop >= 256 || 2*drop >= len(b.sent)) {
		for _, s := range b.sent[:drop] {
			if s.flying {
				s.flying = false
				b.flying--
			}
		}
		b.sent = slices.Delete(b.sent, 0, drop)
	}
}

// admitAt says whether a call may leave at now and, if not, when it may at
// the earliest (zero: once a call in flight is answered). Callers hold b.mu.
func (b *Budget) admitAt(now time.Time) (bool, time.Time) {
	var wake time.Time
	ok := true
	for _, w := range b.windows {
		lim := w.allowed(now)
		if lim == 0 {
			continue
		}
		// Newest first; a call admitted more than a window and the longest
		// round trip ago was answered before the window began.
		oldest := now.Add(-w.length - occupyMargin - b.maxRTT)
		occupying := func(yield func(time.Time) bool) {
			for _, s := range slices.Backward(b.sent) {
				if s.admitted.Before(oldest) {
					return
				}
				if s.refused || s.answered.IsZero() {
					continue
				}
				if until := s.answered.Add(w.length + occupyMargin); until.After(now) && !yield(until) {
					return
				}
			}
		}
		busy := b.flying
		for range occupying {
			busy++
		}
		if busy < lim {
			continue
		}
		frees := slices.Collect(occupying) // when each answered call stops occupying
		ok = false
		if !w.full && lim == w.limit() {
			// Count the calls made at the limit; one held down by places
			// left to another client says nothing of what the service allows.
			w.full, w.successes = true, 0
		}
		// at: when this window admits at the earliest; need: the calls that
		// must stop occupying it first.
		var at time.Time
		if need := busy - lim + 1; need <= len(frees) {
			slices.SortFunc(frees, func(a, b time.Time) int { return a.Compare(b) })
			at = frees[need-1]
		}
		if t, ok := w.leavesRoomAt(busy); ok && (at.IsZero() || t.Before(at)) {
			at = t
		}
		if at.IsZero() {
			return false, time.Time{} // only an answer can free a place
		}
		if at.After(wake) {
			wake = at
		}
	}
	return ok, wake
}

// leavesRoomAt says when the places left to another client will have
// shrunk enough for busy+1 calls, if the window's own limit allows them.
func (w *window) leavesRoomAt(busy int) (time.Time, bool) {
	if !w.yielding || w.reserve == 0 || (w.limit() != 0 && busy >= w.limit()) {
		return time.Time{}, false
	}
	ends := w.sharedAt.Add(w.length + 1) // then none are left
	target := w.known - busy - 1         // the most that may be left
	if target < 0 {
		return ends, true
	}
	if target >= w.reserve {
		return w.sharedAt, true
	}
	since := (int64(w.reserve-target)*int64(w.length) + int64(w.reserve) - 1) / int64(w.reserve)
	if at := w.sharedAt.Add(time.Duration(since)); at.Before(ends) {
		return at, true
	}
	return ends, true
}

type lowPriorityKey struct{}

// withLowPriority marks the calls made with ctx as status polls: they wait
// behind every other call for the budget, so creates are not starved by
// polls when the budget is scarce.
func withLowPriority(ctx context.Context) context.Context {
	return context.WithValue(ctx, lowPriorityKey{}, true)
}

// take waits until the budget admits a call and returns its slot; a wait
// that would outlast ctx's deadline fails at once.
func (b *Budget) take(ctx context.Context) (*slot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // an ended call never spends a place
	}
	low, _ := ctx.Value(lowPriorityKey{}).(bool)
	b.mu.Lock()
	b.seq++
	me := &waiter{low: low, seq: b.seq}
	at, _ := slices.BinarySearchFunc(b.queue, me, func(a, t *waiter) int {
		if a.low != t.low {
			if a.low {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.seq, t.seq)
	})
	b.queue = slices.Insert(b.queue, at, me)
	for {
		now := b.now()
		var wake time.Time
		if b.queue[0] == me {
			b.prune(now)
			var ok bool
			if ok, wake = b.admitAt(now); ok {
				b.queue = b.queue[1:]
				s := &slot{admitted: now, flying: true}
				b.sent = append(b.sent, s)
				b.flying++
				b.broadcast() // the next waiter is now at the head
				b.mu.Unlock()
				return s, nil
			}
			if dl, has := ctx.Deadline(); has && !wake.IsZero() && dl.Before(wake) {
				b.leave(me)
				b.mu.Unlock()
				return nil, fmt.Errorf("the request budget allows no call before the deadline: %w", context.DeadlineExceeded)
			}
		}
		changed := b.changed
		b.mu.Unlock()
		var fire <-chan time.Time
		var stop func() bool
		if !wake.IsZero() {
			fire, stop = b.after(wake.Sub(now))
		}
		select {
		case <-ctx.Done():
			b.mu.Lock()
			b.leave(me)
			b.mu.Unlock()
			return nil, ctx.Err()
		case <-changed:
		case <-fire:
		}
		if stop != nil {
			stop()
		}
		b.mu.Lock()
	}
}

// leave takes a waiter out of the queue. Callers hold b.mu.
func (b *Budget) leave(me *waiter) {
	if i := slices.Index(b.queue, me); i >= 0 {
		b.queue = slices.Delete(b.queue, i, i+1)
		b.broadcast()
	}
}

// answered records what became of an admitted call: code is the envelope's
// code, or 0 when no envelope came back (a transport failure: the call may
// have been counted, so it keeps occupying its windows). It returns the
// limits that changed.
func (b *Budget) answered(s *slot, code int) []RateChange {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if s.answered.IsZero() {
		s.answered = now
		if s.flying {
			s.flying = false
			b.flying--
		}
		b.maxRTT = max(b.maxRTT, now.Sub(s.admitted))
	}
	var changes []RateChange
	switch code {
	case CodePerSecondLimit, CodePerMinuteLimit:
		s.refused = true
		w := b.windows[perSecond]
		if code == CodePerMinuteLimit {
			w = b.windows[perMinute]
		}
		w.throttled = now
		// Another client seen: leaving it places answers the throttle; the
		// limit stays as it is.
		ch, seen := b.share(w, s, now)
		if ch != nil {
			changes = append(changes, *ch)
		}
		if seen {
			break
		}
		// Learn only when the service refuses again within a window, with no
		// call accepted in between: the window is really full.
		if w.suspect.IsZero() || now.Sub(w.suspect) > w.length {
			w.suspect = now
			break
		}
		w.suspect = time.Time{}
		if ch, ok := b.learn(w, s, code); ok {
			changes = append(changes, ch)
		}
	case 0:
		// No envelope: the call may or may not have been counted, and says
		// nothing about a full window.
	default:
		for _, w := range b.windows {
			w.suspect = time.Time{} // the service accepted a call: not full
			if w.limit() != 0 && now.Sub(w.countedAt) >= w.length/16 {
				// Counted now and then, not at every answer: a minute of
				// calls at a high limit is long to scan.
				w.known, w.countedAt = max(w.known, b.surelyHeld(w, now)), now
			}
			if w.yielding && !w.sharing(now) {
				from := w.allowed(w.sharedAt)
				w.yielding = false
				if to := w.allowed(now); to != from {
					changes = append(changes, RateChange{Window: w.name, From: from, To: to,
						Reason: "no sign of another client for a whole " + w.name + ": its places are taken back"})
				}
			}
			if ch, ok := b.grow(w, now); ok {
				changes = append(changes, ch)
			}
		}
	}
	b.broadcast()
	return changes
}

// learn lowers a window's limit after the call s was throttled. The service
// turned s away because the window it counts already held its limit; of
// this process's calls, those admitted before s and answered less than a
// window before s left can have been among them. Their number is what the
// service demonstrably accepts now (less when another client shares the
// key), so the limit drops to it; when the limit in force already allowed
// no more than that, it is cut by a quarter (the multiplicative decrease).
// A throttle of a call admitted before the last change teaches nothing new
// beyond a lower count. Callers hold b.mu.
func (b *Budget) learn(w *window, s *slot, code int) (RateChange, bool) {
	now := b.now()
	observed, accepted := b.observed(w, s)
	w.known = max(w.known, b.surelyHeld(w, s.admitted))
	from := w.limit()
	to := max(observed, 1)
	if from != 0 && from > w.ceiling {
		// A probe past the ceiling the service refused: back to the
		// ceiling, which is now known to be the service's limit (the count
		// above may include calls in flight that it refuses too).
		if s.admitted.Before(w.lastCut) {
			return RateChange{}, false
		}
		to, w.confirmed = w.ceiling, true
	}
	if from != 0 && to >= from {
		if s.admitted.Before(w.lastCut) {
			return RateChange{}, false // admitted under a higher limit since cut
		}
		to = max(1, from*3/4)
	}
	if from != 0 && to >= from {
		return RateChange{}, false
	}
	if from == 0 {
		// The first count: the best guess of the real limit, of calls the
		// service did accept (those in flight may yet be refused).
		w.ceiling = max(w.ceiling, accepted, 1)
	}
	// A climb the service refused within its window: someone else still
	// uses the key. Leave it its share longer before the next climb.
	w.stubborn = w.climbed && now.Sub(w.lastStep) <= w.length
	w.climbed = false
	w.learned = to
	w.successes, w.full = 0, false
	w.lastCut, w.lastStep = now, now
	return RateChange{Window: w.name, From: from, To: to,
		Reason: fmt.Sprintf("throttled (code %d) after %d calls in the last %s", code, observed, w.name)}, true
}

// observed counts this process's calls that can have been in the
// service's window when it turned s away: those admitted before s and
// answered less than a window before s left, or not answered yet; accepted
// is those of them already answered. Callers hold b.mu.
func (b *Budget) observed(w *window, s *slot) (observed, accepted int) {
	for _, o := range b.sent {
		if o == s {
			break // b.sent is in the order of admission
		}
		if o.refused {
			continue
		}
		if o.answered.IsZero() || o.answered.After(s.admitted.Add(-w.length-occupyMargin)) {
			observed++
			if !o.answered.IsZero() {
				accepted++
			}
		}
	}
	return observed, accepted
}

// mayHold counts this process's calls that the service can have held in
// its window when it turned s away: any not refused, sent since, or
// answered less than a window before s left. Calls sent after s count too,
// for they may have overtaken it on the way. Callers hold b.mu.
func (b *Budget) mayHold(w *window, s *slot) int {
	n := 0
	for _, o := range slices.Backward(b.sent) {
		if o.answered.IsZero() || o.answered.After(s.admitted.Add(-w.length-occupyMargin)) {
			if o != s && !o.refused {
				n++
			}
		} else if o.admitted.Before(s.admitted.Add(-w.length - occupyMargin - b.maxRTT)) {
			break // answered before the window: so were all sent before it
		}
	}
	return n
}

// surelyHeld counts this process's accepted calls that left less than a
// window before at and were answered by then: each reached the service
// between leaving and its answer, so all of them were in the service's
// window at the last one's arrival, and it accepted them all. Callers hold
// b.mu.
func (b *Budget) surelyHeld(w *window, at time.Time) int {
	n := 0
	for _, o := range slices.Backward(b.sent) {
		if !o.admitted.After(at.Add(-w.length)) {
			break // b.sent is in the order of admission
		}
		if !o.refused && !o.answered.IsZero() && !o.answered.After(at) {
			n++
		}
	}
	return n
}

// share answers a throttle met while this process may have held fewer
// calls in the window than known, which the service is known to allow:
// another client holds the rest. This process then leaves it the places it
// holds, or twice as many when it held every place it was left (it may
// want more), up to half of known, so that a client that wants more grows
// into a fair half while one that wants a little costs little. A client
// that stays within what it is left is never refused, so it shows nothing:
// the places are taken back evenly over the window after the last sign
// (leftAt), and a client still there shows itself again at the first call
// that misses. Two refusals in a row while half is left and less than half
// held mean the key allows less than known: known is halved toward what is
// held, lest every call be refused. It reports whether the throttle was
// such a sign. Callers hold b.mu.
func (b *Budget) share(w *window, s *slot, now time.Time) (change *RateChange, seen bool) {
	observed := b.mayHold(w, s)
	if w.known < 2 || observed >= w.known {
		return nil, false
	}
	from := w.allowed(now)
	if observed < w.known/2 && w.sharing(now) && w.reserve >= w.known/2 && !w.suspect.IsZero() && now.Sub(w.suspect) <= w.length {
		// Half left, less than half held, and two refusals in a row: the
		// key allows less than it did (the spec gives no reason it would,
		// but a client that never learns it would be refused for ever).
		w.known = max(2, 2*observed)
	}
	w.suspect = now
	holds := w.known - observed
	room := holds
	if left := w.leftAt(now); s.admitted.After(w.sharedAt) && now.Sub(w.sharedAt) <= 2*w.length && holds >= left {
		room = 2 * holds // it holds every place it was left: it may want more
	} else {
		room = max(room, left) // the same sign again
	}
	w.reserve, w.sharedAt, w.yielding = min(room, w.known/2), now, true
	if to := w.allowed(now); to != from {
		return &RateChange{Window: w.name, From: from, To: to,
			Reason: fmt.Sprintf("another client holds %d of the %d calls a %s the key allows: leaving it %d", holds, w.known, w.name, w.reserve)}, true
	}
	return nil, true
}

// grow counts a call that was not throttled and, once a whole window went
// by without a throttle since the limit last changed, raises a learned
// limit: below the ceiling, to twice itself and at least halfway there (so
// two steps reach it, wherever the cut left it), or at the ceiling, after
// probeCalls calls with the window full, by a quarter. A limit that the
// calls never reach is not probed past its ceiling, and a configured limit
// stays the upper bound. Callers hold b.mu.
func (b *Budget) grow(w *window, now time.Time) (RateChange, bool) {
	if w.learned == 0 {
		return RateChange{}, false
	}
	w.successes++
	from := w.limit()
	hold := w.length
	if w.stubborn {
		hold = 2 * w.length
	}
	if now.Sub(w.lastStep) < hold || now.Sub(w.throttled) < w.length {
		return RateChange{}, false
	}
	if w.climbed {
		w.climbed, w.stubborn = false, false // the climb held a whole window
	}
	if w.full {
		w.ceiling = max(w.ceiling, from) // a whole window at the limit, none refused
	}
	var to int
	reason := "no throttle for a whole " + w.name
	switch {
	case w.learned < w.ceiling:
		to = min(w.ceiling, max(2*w.learned, (w.learned+w.ceiling+1)/2))
		if w.stubborn {
			to = w.ceiling
		}
		w.climbed = true
		reason += ": back toward the highest limit that held"
	case w.full && (w.successes >= probeCalls || !w.confirmed):
		to = w.learned + max(1, w.learned/4)
		reason = fmt.Sprintf("%d calls succeeded at the limit: probing higher", w.successes)
	default:
		return RateChange{}, false
	}
	if w.configured != 0 && to >= w.configured {
		w.learned = 0 // back to the configured limit
	} else {
		w.learned = to
	}
	w.successes, w.full, w.lastStep = 0, false, now
	if to = w.limit(); to == from {
		return RateChange{}, false
	}
	return RateChange{Window: w.name, From: from, To: to, Reason: reason}, true
}

// budgetLayer admits each attempt through the budget and tells the budget
// what the service answered, logging every limit the answer changed. A
// call the budget cannot admit (ctx ends, or the deadline comes before the
// budget would) is never sent: cl.waited says so.
func (c *Client) budgetLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		s, err := c.budget.take(ctx)
		if err != nil {
			cl.waited = true
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		err = next(ctx, cl)
		code := 0
		if cl.res.env != nil {
			code = int(cl.res.env.Code.Value)
		}
		for _, ch := range c.budget.answered(s, code) {
			if c.cfg.Logger == nil {
				continue
			}
			c.cfg.Logger.Log(ctx, LevelDebug, "flipbook request budget changed", map[string]any{
				"window": ch.Window, "from_per_window": ch.From, "to_per_window": ch.To, "reason": ch.Reason,
			})
		}
		return err
	}
}
