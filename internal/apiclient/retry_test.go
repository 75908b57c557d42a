package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const throttleBody = `{"code":31,"status":"Requests per second limit exceeded"}`

const html502 = "<html><head><title>502 Bad Gateway</title></head><body>upstream said apiKey=" + testKey + "</body></html>"

// resetConn drops the connection without an answer, after the request
// was fully read: the "reset after send" case.
func resetConn(t *testing.T, w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // RST rather than FIN
	}
	_ = conn.Close()
}

func TestThrottleRetriedUntilSuccess(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n < 2 {
			writeJSON(w, http.StatusOK, throttleBody)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"new-1"}`))
	})
	c, fs := newTestClient(t, f, nil)
	// A mutating call: a throttle means "not done", so it is safe to resend.
	hash, err := c.CreateFromTemplate(t.Context(), CreateFromTemplateInput{Sections: []Section{{Type: SectionStatic}}})
	if err != nil || hash != "new-1" {
		t.Fatalf("got %q, %v", hash, err)
	}
	if n := f.count(); n != 3 {
		t.Errorf("server saw %d requests, want 3", n)
	}
	if got, want := fs.recorded(), []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}; !reflect.DeepEqual(got, want) {
		t.Errorf("backoffs %v, want %v", got, want)
	}
	// Each attempt is signed afresh and identically.
	reqs := f.requests()
	if !reqs[0].SigOK || reqs[0].Params.Get("signature") != reqs[2].Params.Get("signature") {
		t.Error("retried request not signed like the first")
	}
}

func TestBackoffScheduleEqualJitter(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	for _, tt := range []struct {
		code   int
		jitter float64
		want   []time.Duration
	}{
		{31, 1, []time.Duration{250 * ms, 500 * ms, s, 2 * s, 4 * s, 8 * s, 10 * s, 10 * s}},
		{31, 0, []time.Duration{125 * ms, 250 * ms, 500 * ms, s, 2 * s, 4 * s, 5 * s, 5 * s}},
		// A per-minute throttle waits long enough, even at the least jitter,
		// for the service's minute to slide past: 157.5 s in all.
		{32, 1, []time.Duration{5 * s, 10 * s, 20 * s, 40 * s, 60 * s, 60 * s, 60 * s, 60 * s}},
		{32, 0, []time.Duration{2500 * ms, 5 * s, 10 * s, 20 * s, 30 * s, 30 * s, 30 * s, 30 * s}},
	} {
		f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, fmt.Sprintf(`{"code":%d,"status":"throttled"}`, tt.code))
		})
		c, fs := newTestClient(t, f, nil)
		c.jitter = func() float64 { return tt.jitter }
		_, err := c.GetCollection(t.Context(), "c-1")
		if !IsThrottled(err) || !strings.Contains(err.Error(), "gave up after 9 attempts") {
			t.Errorf("code %d: err = %v, want a throttle after 9 attempts", tt.code, err)
		}
		if n := f.count(); n != 9 {
			t.Errorf("code %d: server saw %d requests, want 1 + 8 retries", tt.code, n)
		}
		if got := fs.recorded(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("code %d, jitter %v: backoffs %v, want %v", tt.code, tt.jitter, got, tt.want)
		}
	}
}

func TestThrottleRetriedUntilDeadline(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, throttleBody)
	})
	c, err := New(func() Config {
		cfg := f.config()
		cfg.Retry = RetryPolicy{MaxRetries: new(10000), MinBackoff: 2 * time.Millisecond, MaxBackoff: 10 * time.Millisecond}
		return cfg
	}())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err = c.GetCollection(ctx, "c-1")
	if !IsThrottled(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a throttle wrapped with the deadline", err)
	}
	if n := f.count(); n < 2 {
		t.Errorf("only %d attempts before the deadline", n)
	}
}

func TestNoRetriesWhenDisabled(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, throttleBody)
	})
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Retry.MaxRetries = new(0) })
	_, err := c.GetCollection(t.Context(), "c-1")
	if !IsThrottled(err) || f.count() != 1 {
		t.Errorf("err = %v after %d requests, want a throttle after 1", err, f.count())
	}
}

func TestReadRetries5xxAndGarbage(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		switch n {
		case 0:
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(html502))
		case 1:
			writeJSON(w, http.StatusOK, `{"code":20,"status":"OK","data":{"collectionHa`)
		case 2:
			resetConn(t, w)
		case 3:
			writeJSON(w, http.StatusServiceUnavailable, `{"code":50,"status":"Operation failed"}`)
		default:
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
		}
	})
	c, _ := newTestClient(t, f, nil)
	coll, err := c.GetCollection(t.Context(), "c-1")
	if err != nil || coll.CollectionHash != "c-1" {
		t.Fatalf("got %+v, %v", coll, err)
	}
	if n := f.count(); n != 5 {
		t.Errorf("server saw %d requests, want 5", n)
	}
}

func TestGarbageBodyIsDecodeErrorWithStatus(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(html502))
	})
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Retry.MaxRetries = new(2) })
	_, err := c.GetCollection(t.Context(), "c-1")
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want *DecodeError", err)
	}
	if de.HTTPStatus != http.StatusBadGateway || !strings.HasPrefix(de.Snippet, "<html><head><title>502") {
		t.Errorf("DecodeError = %+v", de)
	}
	if strings.Contains(err.Error(), testKey) || !strings.Contains(de.Snippet, "apiKey=***") {
		t.Errorf("snippet not redacted: %s", err)
	}
	if n := f.count(); n != 3 {
		t.Errorf("server saw %d requests, want 1 + 2 retries", n)
	}
}

// ambiguousFailures are answers after which a mutating call may or may not
// have taken effect.
var ambiguousFailures = map[string]func(t *testing.T, w http.ResponseWriter){
	"5xx html": func(_ *testing.T, w http.ResponseWriter) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(html502))
	},
	"garbage":          func(_ *testing.T, w http.ResponseWriter) { writeJSON(w, http.StatusOK, `{"code":20,"sta`) },
	"reset after send": resetConn,
	"data of wrong type": func(_ *testing.T, w http.ResponseWriter) {
		writeJSON(w, http.StatusOK, okEnvelope(`[1]`))
	},
}

// The creates meet an ambiguous failure exactly once: no retry (nothing
// could prove afterwards whether they landed), an OutcomeUnknownError that
// still exposes the cause.
func TestCreatesNeverResentAfterAmbiguousFailure(t *testing.T) {
	failures := ambiguousFailures
	calls := map[string]func(ctx context.Context, c *Client) error{
		ActionCreateFromTemplate: func(ctx context.Context, c *Client) error {
			_, err := c.CreateFromTemplate(ctx, CreateFromTemplateInput{Sections: []Section{{Type: SectionStatic}}})
			return err
		},
		ActionCreateCatalog: func(ctx context.Context, c *Client) error {
			_, err := c.CreateCatalog(ctx, CreateCatalogInput{Sections: []Section{{Type: SectionFeed}}})
			return err
		},
	}
	for fname, fail := range failures {
		for action, call := range calls {
			t.Run(fname+"/"+action, func(t *testing.T) {
				f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { fail(t, w) })
				c, fs := newTestClient(t, f, nil)
				err := call(t.Context(), c)
				var ou *OutcomeUnknownError
				if !errors.As(err, &ou) || ou.Action != action {
					t.Fatalf("err = %v, want *OutcomeUnknownError for %s", err, action)
				}
				if !strings.Contains(err.Error(), "outcome unknown") || strings.Contains(err.Error(), testKey) {
					t.Errorf("message: %s", err)
				}
				if n := f.count(); n != 1 {
					t.Errorf("server saw %d requests, want exactly 1", n)
				}
				if len(fs.recorded()) != 0 {
					t.Errorf("backed off %v before giving up", fs.recorded())
				}
			})
		}
	}
}

func TestMutatingCallTimeoutWhileWaitingIsOutcomeUnknown(t *testing.T) {
	release := make(chan struct{})
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		<-release
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"late"}`))
	})
	defer close(release)
	c, _ := newTestClient(t, f, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := c.CreateCatalog(ctx, CreateCatalogInput{Sections: []Section{{Type: SectionFeed}}})
	if !IsOutcomeUnknown(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want outcome unknown wrapping the deadline", err)
	}
	if f.count() != 1 {
		t.Errorf("server saw %d requests", f.count())
	}
}

// flakyDialer refuses the first dials, as a service that is not up yet.
type flakyDialer struct {
	skip   atomic.Int32 // dials let through before refusing
	refuse atomic.Int32
	dials  atomic.Int32
}

func (d *flakyDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.dials.Add(1)
	if d.skip.Add(-1) < 0 && d.refuse.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connect: connection refused")}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func TestDialFailureRetriedEvenForMutatingCalls(t *testing.T) {
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		if c.Params.Get("action") == ActionGetCollection {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"flipbookHash":"f-1"}`))
	})
	d := &flakyDialer{}
	d.skip.Store(1) // the collection.getCollection made before the upload
	d.refuse.Store(2)
	c, fs := newTestClient(t, f, func(cfg *Config) {
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	})
	// A file body that is not seekable: a refused dial must not consume it.
	fb, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1",
		File: &Upload{Name: "a.pdf", Body: strings.NewReader("%PDF")}})
	if err != nil || fb.FlipbookHash != "f-1" {
		t.Fatalf("got %+v, %v", fb, err)
	}
	if d.dials.Load() != 4 || f.count() != 2 || len(fs.recorded()) != 2 {
		t.Errorf("dials %d, requests %d, backoffs %v", d.dials.Load(), f.count(), fs.recorded())
	}
	if string(f.requests()[1].File) != "%PDF" {
		t.Errorf("file arrived as %q", f.requests()[1].File)
	}
}

// net/http silently re-sends a bodiless GET when a reused keep-alive
// connection dies after the request went out. setPermissions is a GET that
// changes state (and may send e-mails), so the client must prevent it.
func TestMutatingGetNotReplayedOnReusedConnection(t *testing.T) {
	var setCalls atomic.Int32
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		if c.Params.Get("action") == ActionSetPermissions {
			setCalls.Add(1)
			// Close the connection without answering: the request took effect.
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
	})
	// No retries: the one read back (collection.getPermissions) finds the
	// list not saved, and the call is not sent again by the client either.
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Retry.MaxRetries = new(0) })
	var reused atomic.Bool
	ctx := t.Context()
	if _, err := c.GetCollection(ctx, "c-1"); err != nil { // opens a keep-alive connection
		t.Fatal(err)
	}
	ctx = withReuseProbe(ctx, &reused)
	_, err := c.SetPermissions(ctx, "c-1", []Permission{{Type: PermissionTeammate, NotifyViaEmail: true}})
	if !IsOutcomeUnknown(err) {
		t.Fatalf("err = %v, want outcome unknown", err)
	}
	if !reused.Load() {
		t.Skip("the connection was not reused; the replay path was not exercised")
	}
	if n := setCalls.Load(); n != 1 {
		t.Errorf("setPermissions reached the server %d times, want 1", n)
	}
}

// A retried read decodes the final answer alone: nothing of an earlier,
// unreadable answer leaks into the result.
func TestRetriedReadStartsFromEmptyResult(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionTitle":"stale","collectionItems":"not a list"}`))
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
	})
	c, _ := newTestClient(t, f, nil)
	coll, err := c.GetCollection(t.Context(), "c-1")
	if err != nil || coll.CollectionTitle != "" || coll.CollectionHash != "c-1" || f.count() != 2 {
		t.Errorf("got %+v, %v after %d requests", coll, err, f.count())
	}
}

// A definite answer is final: no retry for reads or writes, and a 5xx that
// carries an envelope is that envelope's error, not an unknown outcome.
func TestDefiniteErrorsAreFinal(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
		pred   func(error) bool
	}{
		{http.StatusOK, `{"code":46,"status":"Invalid collection hash"}`, IsCollectionNotFound},
		{http.StatusOK, `{"code":40,"status":"Bad Request","data":{"message":"Validation failed","errors":["title: bad"]}}`, IsValidation},
		{http.StatusInternalServerError, `{"code":43,"status":"Forbidden"}`, IsForbidden},
	} {
		f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { writeJSON(w, tt.status, tt.body) })
		c, fs := newTestClient(t, f, nil)
		_, err := c.CreateFromTemplate(t.Context(), CreateFromTemplateInput{Sections: []Section{{Type: SectionStatic}}})
		if !tt.pred(err) || IsOutcomeUnknown(err) || f.count() != 1 {
			t.Errorf("create, %s: err = %v after %d requests", tt.body, err, f.count())
		}
		if tt.status == http.StatusOK {
			_, err = c.GetCollection(t.Context(), "c-1")
			if !tt.pred(err) || f.count() != 2 || len(fs.recorded()) != 0 {
				t.Errorf("read, %s: err = %v after %d requests", tt.body, err, f.count())
			}
		}
	}
}
