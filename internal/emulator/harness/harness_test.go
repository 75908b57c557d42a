package harness

import (
	"testing"
	"time"
)

// What the harness hands out are copies, and Replace starts it afresh.
func TestHarnessCopiesAndReplace(t *testing.T) {
	h := New(Faults{Rate: 0.5, Kinds: []string{FaultSlow}}, time.Second, 7)
	h.Count("user.getStats", "20")
	h.Count("user.getStats", "20")
	h.Notify([]Notification{{Email: "a@example.com"}, {Email: "b@example.com"}})
	reqs := h.Requests()
	reqs["user.getStats"]["20"] = 99
	if got := h.Requests()["user.getStats"]["20"]; got != 2 {
		t.Fatalf("requests changed through a copy: %d", got)
	}
	f := h.Faults()
	f.Kinds[0] = FaultReset
	if got := h.Faults().Kinds[0]; got != FaultSlow {
		t.Fatalf("faults changed through a copy: %s", got)
	}
	if n := h.Notifications(); len(n) != 2 || n[0].Email != "a@example.com" {
		t.Fatalf("notifications %v", n)
	}
	if code := h.TakeRate("k", time.Unix(0, 0), 1, 0); code != 0 {
		t.Fatalf("first call: %d", code)
	}
	if code := h.TakeRate("k", time.Unix(0, 0), 1, 0); code != CodeRatePerSecond {
		t.Fatalf("second call in the same second: %d", code)
	}
	h.Replace(New(Faults{}, time.Second, 7))
	if len(h.Requests()) != 0 || len(h.Notifications()) != 0 || h.Faults().Rate != 0 {
		t.Fatalf("after Replace: %v %v %+v", h.Requests(), h.Notifications(), h.Faults())
	}
	if code := h.TakeRate("k", time.Unix(0, 0), 1, 0); code != 0 {
		t.Fatalf("rate windows survived Replace: %d", code)
	}
}

// The same seed draws the same faults for the same calls.
func TestHarnessDiceReplay(t *testing.T) {
	draw := func() []string {
		h := New(Faults{Rate: 0.5, Kinds: []string{FaultHTTP502, FaultReset}}, time.Second, 42)
		var out []string
		for range 20 {
			out = append(out, h.DrawFault("user.getStats", map[string]string{"apiKey": "k"}))
		}
		return out
	}
	a, b := draw(), draw()
	hit := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("call %d: %q then %q", i, a[i], b[i])
		}
		if a[i] != "" {
			hit++
		}
	}
	if hit == 0 || hit == len(a) {
		t.Fatalf("rate 0.5 hit %d of %d calls", hit, len(a))
	}
}
