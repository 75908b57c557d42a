package apiclient

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testKey    = "test-key-123"
	testSecret = "test-secret-456"
)

// captured is one request as the fake service saw it.
type captured struct {
	Method      string
	Path        string
	ContentType string // media type only
	Params      url.Values
	FileName    string
	FileType    string
	File        []byte
	UserAgent   string
	SigOK       bool
}

// fakeAPI is an httptest server that records requests and lets each test
// choose the answer. Its signature check is written independently of Sign.
type fakeAPI struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	reqs    []captured
	respond func(n int, c captured, w http.ResponseWriter, r *http.Request)
}

func newFakeAPI(t *testing.T, respond func(n int, c captured, w http.ResponseWriter, r *http.Request)) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, respond: respond}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	c := captured{Method: r.Method, Path: r.URL.Path, UserAgent: r.UserAgent()}
	c.ContentType, _, _ = mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch c.ContentType {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.Params = url.Values(r.MultipartForm.Value)
		if fhs := r.MultipartForm.File["file"]; len(fhs) > 0 {
			c.FileName = fhs[0].Filename
			c.FileType = fhs[0].Header.Get("Content-Type")
			fh, err := fhs[0].Open()
			if err == nil {
				c.File, _ = io.ReadAll(fh)
				fh.Close()
			}
		}
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.Params = r.PostForm
	default:
		c.Params = r.URL.Query()
	}
	c.SigOK = independentSignature(testSecret, c.Params) == c.Params.Get("signature")
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, c)
	f.mu.Unlock()
	f.respond(n, c, w, r)
}

// independentSignature recomputes the spec's signature from decoded form
// values without using the package's code.
func independentSignature(secret string, v url.Values) string {
	var keys []string
	for k := range v {
		if k != "signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var sb strings.Builder
	sb.WriteString(secret)
	for _, k := range keys {
		sb.WriteString(k + v.Get(k))
	}
	sum := md5.Sum([]byte(sb.String()))
	return hex.EncodeToString(sum[:])
}

func (f *fakeAPI) requests() []captured {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]captured(nil), f.reqs...)
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fakeAPI) config() Config {
	return Config{
		BaseURL:   f.srv.URL + "/api/v1", // no trailing slash: New adds it
		UploadURL: f.srv.URL + "/upload/v1/",
		APIKey:    testKey,
		Secret:    testSecret,
		UserAgent: "flipbook-test/1.0",
	}
}

// fakeSleep records backoff and poll waits and returns at once.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
	now   time.Time
}

func (s *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.now = s.now.Add(d)
	s.mu.Unlock()
	return nil
}

func (s *fakeSleep) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *fakeSleep) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newTestClient builds a client for f whose sleeps are instant and whose
// jitter is fixed at its maximum.
func newTestClient(t *testing.T, f *fakeAPI, edit func(*Config)) (*Client, *fakeSleep) {
	t.Helper()
	cfg := f.config()
	if edit != nil {
		edit(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	fs := &fakeSleep{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.sleep = fs.sleep
	c.now = fs.clock
	c.jitter = func() float64 { return 1 }
	return c, fs
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body)) // #nosec G705 -- test server answering canned envelopes

}

func okEnvelope(data string) string {
	return `{"code":20,"status":"OK","data":` + data + `}`
}

// recordingLogger keeps every event for inspection.
type recordingLogger struct {
	mu     sync.Mutex
	events []logEvent
}

type logEvent struct {
	Level  LogLevel
	Msg    string
	Fields map[string]any
}

func (l *recordingLogger) Log(_ context.Context, level LogLevel, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, logEvent{level, msg, fields})
}

func (l *recordingLogger) all() []logEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logEvent(nil), l.events...)
}

// withReuseProbe records whether a request ran on a reused connection.
func withReuseProbe(ctx context.Context, reused *atomic.Bool) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if info.Reused {
				reused.Store(true)
			}
		},
	})
}

// actionsSent are the requests f saw for action.
func actionsSent(f *fakeAPI, action string) []captured {
	var out []captured
	for _, c := range f.requests() {
		if c.Params.Get("action") == action {
			out = append(out, c)
		}
	}
	return out
}
