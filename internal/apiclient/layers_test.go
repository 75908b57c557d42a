package apiclient

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Each layer of the call path on its own, around a fake inner step.

// testClient builds a Client whose layers the tests call directly; it
// never reaches a network.
func layerClient(t *testing.T, edit func(*Config)) (*Client, *fakeSleep) {
	t.Helper()
	cfg := Config{BaseURL: "http://127.0.0.1:1/v1/", UploadURL: "http://127.0.0.1:1/v1/", APIKey: testKey, Secret: testSecret}
	if edit != nil {
		edit(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeSleep{}
	c.sleep, c.now, c.jitter = fs.sleep, fs.clock, func() float64 { return 1 }
	return c, fs
}

// answer is an inner step that gives each attempt the next envelope code
// (data {"views":7} on 20) and counts the attempts.
func answer(codes ...int) (step, *int) {
	n := 0
	return func(_ context.Context, cl *call) error {
		code := codes[min(n, len(codes)-1)]
		n++
		env := &envelope{Code: Int{Value: int64(code), Valid: true}, Status: "status"}
		if code == CodeOK {
			env.Data = []byte(`{"views":7}`)
		}
		cl.res = attemptResult{httpStatus: 200, env: env, sent: true}
		return nil
	}, &n
}

func TestSignLayer(t *testing.T) {
	c, _ := layerClient(t, nil)
	var seen *call
	s := c.signLayer(func(_ context.Context, cl *call) error { seen = cl; return nil })
	if err := s(t.Context(), &call{req: &request{action: ActionGetCollection, params: map[string]string{"collectionHash": "h"}}}); err != nil {
		t.Fatal(err)
	}
	p := seen.params
	unsigned := map[string]string{"action": ActionGetCollection, "apiKey": testKey, "collectionHash": "h"}
	if p["action"] != ActionGetCollection || p["apiKey"] != testKey || p["signature"] != Sign(testSecret, unsigned) {
		t.Fatalf("signed params %v", p)
	}
	if got := seen.red.redact("secret " + testSecret + " sig " + p["signature"]); strings.Contains(got, testSecret) || strings.Contains(got, p["signature"]) {
		t.Errorf("the redactor left a secret: %q", got)
	}
}

func TestDecodeLayer(t *testing.T) {
	c, _ := layerClient(t, nil)
	cases := []struct {
		code      int
		mutating  bool
		retryable bool
		wantErr   bool
	}{
		{code: CodeOK},
		{code: CodePerSecondLimit, retryable: true, wantErr: true},
		{code: CodeCollectionNotFound, wantErr: true},
		{code: CodeMaintenance, mutating: true, retryable: true, wantErr: true},
	}
	for _, tc := range cases {
		inner, _ := answer(tc.code)
		var out UserStats
		cl := &call{req: &request{action: ActionUserGetStats, mutating: tc.mutating}, out: &out, red: newRedactor()}
		err := c.decodeLayer(inner)(t.Context(), cl)
		if (err != nil) != tc.wantErr || cl.retryable != tc.retryable || CodeOf(err) != map[bool]int{true: tc.code, false: 0}[tc.wantErr] {
			t.Errorf("code %d: err %v, retryable %v; want error %v, retryable %v", tc.code, err, cl.retryable, tc.wantErr, tc.retryable)
		}
		if tc.code == CodeOK && (!out.Views.Valid || out.Views.Value != 7) {
			t.Errorf("data not decoded: %+v", out)
		}
	}
}

func TestRetryLayer(t *testing.T) {
	c, fs := layerClient(t, nil)
	inner, n := answer(CodePerSecondLimit, CodePerSecondLimit, CodeOK)
	s := c.retryLayer(c.decodeLayer(inner))
	if err := s(t.Context(), &call{req: &request{action: ActionUserGetStats}, red: newRedactor()}); err != nil {
		t.Fatal(err)
	}
	if *n != 3 || len(fs.recorded()) != 2 {
		t.Fatalf("%d attempts, %d waits; want 3 and 2", *n, len(fs.recorded()))
	}
	// A refusal that is final is not retried.
	inner, n = answer(CodeForbidden)
	err := c.retryLayer(c.decodeLayer(inner))(t.Context(), &call{req: &request{action: ActionUserGetStats}, red: newRedactor()})
	if !IsForbidden(err) || *n != 1 {
		t.Errorf("err %v after %d attempts, want 43 after 1", err, *n)
	}
	// MaxRetries bounds the attempts.
	zero := 0
	c2, _ := layerClient(t, func(cfg *Config) { cfg.Retry.MaxRetries = &zero })
	inner, n = answer(CodePerSecondLimit)
	err = c2.retryLayer(c2.decodeLayer(inner))(t.Context(), &call{req: &request{action: ActionUserGetStats}, red: newRedactor()})
	if CodeOf(err) != CodePerSecondLimit || *n != 1 {
		t.Errorf("err %v after %d attempts, want 31 after 1", err, *n)
	}
}

func TestBudgetLayer(t *testing.T) {
	c, _ := layerClient(t, nil)
	inner, n := answer(CodePerSecondLimit, CodePerSecondLimit)
	s := c.budgetLayer(inner)
	for range 2 {
		if err := s(t.Context(), &call{req: &request{action: ActionUserGetStats}}); err != nil {
			t.Fatal(err)
		}
	}
	if ps, _ := c.budget.Limits(); ps != 1 || *n != 2 {
		t.Fatalf("after two refusals in a row the per-second limit is %d (%d attempts), want 1 learned", ps, *n)
	}
	// A call the budget does not admit is never sent.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	cl := &call{req: &request{action: ActionUserGetStats}}
	if err := s(ctx, cl); !errors.Is(err, context.Canceled) || !cl.waited || *n != 2 {
		t.Errorf("err %v, waited %v, %d attempts; want canceled before sending", err, cl.waited, *n)
	}
}

func TestLogLayer(t *testing.T) {
	log := &recordingLogger{}
	c, _ := layerClient(t, func(cfg *Config) { cfg.Logger = log })
	inner, _ := answer(CodePerSecondLimit)
	cl := &call{req: &request{action: ActionUserGetStats, method: "GET"}, attempt: 1, red: newRedactor(testSecret)}
	err := c.logLayer(c.decodeLayer(inner))(t.Context(), cl)
	if err == nil {
		t.Fatal("a throttle logged as success")
	}
	ev := log.all()
	if len(ev) != 1 || ev[0].Level != LevelWarn || ev[0].Fields["action"] != ActionUserGetStats || ev[0].Fields["code"] != CodePerSecondLimit ||
		ev[0].Fields["retry"] != true || ev[0].Fields["attempt"] != 1 {
		t.Fatalf("events %+v", ev)
	}
	// The retry layer acts on the decision the log reported.
	if retry, backoff := c.decide(t.Context(), cl, err); !retry || ev[0].Fields["backoff_ms"] != backoff.Milliseconds() {
		t.Errorf("decision %v %v differs from the logged %+v", retry, backoff, ev[0].Fields)
	}
}

// Calls that read or write no view pass through the coalescing layer: two
// identical reads make two attempts.
func TestCoalesceLayerPassesOtherCalls(t *testing.T) {
	c, _ := layerClient(t, nil)
	inner, n := answer(CodeOK)
	s := c.coalesceLayer(inner)
	for range 2 {
		if err := s(t.Context(), &call{req: &request{action: ActionUserGetStats}, out: &UserStats{}}); err != nil {
			t.Fatal(err)
		}
	}
	if *n != 2 {
		t.Errorf("%d attempts, want 2", *n)
	}
}
