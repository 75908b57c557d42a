// Package harness holds what the emulator adds to the service for tests:
// the fault dice, the per-key rate limiters, the request counters and the
// notification e-mails setPermissions would have sent. None of it is the
// service's state (that is package store), so a reset or a new fixture
// replaces both, and the HTTP layer reaches each only through methods.
package harness

import (
	"maps"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Notification is an e-mail collection.setPermissions would have sent
// because an entry had notifyViaEmail true.
type Notification struct {
	APIKey         string    `json:"apiKey"`
	CollectionHash string    `json:"collectionHash"`
	Email          string    `json:"email"` // the recipient
	Type           string    `json:"type"`  // the entry's type
	Group          string    `json:"group,omitempty"`
	Time           time.Time `json:"time"`
}

// Faults are fault settings: a share Rate of API calls meets one of Kinds,
// limited to Actions when that is not empty.
type Faults struct {
	Rate    float64
	Kinds   []string
	Actions []string
}

// Harness is safe for concurrent use: one mutex guards it all, and no
// blocking I/O happens while it is held.
type Harness struct {
	mu            sync.Mutex
	faults        faultConfig
	dice          *mrand.Rand
	requests      map[string]map[string]int
	notifications []Notification
	rates         map[string]*rateLimiter
}

// New is a harness with the given faults (checked by the caller with
// CheckFaults), the slow fault's delay, and dice seeded with seed.
func New(f Faults, slow time.Duration, seed uint64) *Harness {
	return &Harness{
		faults:   faultConfig{rate: f.Rate, kinds: slices.Clone(f.Kinds), actions: slices.Clone(f.Actions), slow: slow, seed: seed},
		dice:     mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		requests: map[string]map[string]int{},
		rates:    map[string]*rateLimiter{},
	}
}

// Replace takes in the contents of a fresh harness (a reset).
func (h *Harness) Replace(n *Harness) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults, h.dice, h.requests, h.notifications, h.rates = n.faults, n.dice, n.requests, n.notifications, n.rates
}

// DrawFault rolls the fault dice for one call: the kind it meets, or "".
func (h *Harness) DrawFault(action string, params map[string]string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.faults.draw(action, params)
}

// Coin is a fair coin from the seeded dice.
func (h *Harness) Coin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dice.IntN(2) == 1
}

// SlowDelay is how long the slow fault holds an answer.
func (h *Harness) SlowDelay() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.faults.slow
}

// SetFaults replaces the fault settings (checked by the caller).
func (h *Harness) SetFaults(f Faults) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults.rate = f.Rate
	h.faults.kinds = slices.Clone(f.Kinds)
	h.faults.actions = slices.Clone(f.Actions)
}

// Faults copies the fault settings; Kinds is never nil.
func (h *Harness) Faults() Faults {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Faults{Rate: h.faults.rate, Kinds: append([]string{}, h.faults.kinds...), Actions: slices.Clone(h.faults.actions)}
}

// TakeRate spends one request of the key's budget (see rateLimiter.take).
func (h *Harness) TakeRate(key string, now time.Time, perSecond, perMinute int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	rl := h.rates[key]
	if rl == nil {
		rl = &rateLimiter{}
		h.rates[key] = rl
	}
	return rl.take(now, perSecond, perMinute)
}

// Count counts one answered call of action by its outcome.
func (h *Harness) Count(action, outcome string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.requests[action]
	if m == nil {
		m = map[string]int{}
		h.requests[action] = m
	}
	m[outcome]++
}

// Requests copies the request counters.
func (h *Harness) Requests() map[string]map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]map[string]int, len(h.requests))
	for a, m := range h.requests {
		out[a] = maps.Clone(m)
	}
	return out
}

// ResetRequests zeroes the request counters.
func (h *Harness) ResetRequests() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = map[string]map[string]int{}
}

// Notify records e-mails sent.
func (h *Harness) Notify(sent []Notification) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notifications = append(h.notifications, sent...)
}

// Notifications copies the e-mails, oldest first.
func (h *Harness) Notifications() []Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Notification{}, h.notifications...)
}
