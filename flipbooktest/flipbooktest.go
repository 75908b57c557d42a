// Package flipbooktest starts the flipbook emulator inside a Go test, the
// way net/http/httptest starts an HTTP server: users of the flipbook
// Terraform provider test their modules (with Terratest, or by running
// terraform themselves) against it instead of the service, which counts
// uploads against a monthly quota and cannot delete what a test made.
//
//	srv := flipbooktest.NewServer(t)
//	opts := &terraform.Options{TerraformDir: "../modules/catalog", EnvVars: srv.Env("")}
//
// The emulator implements the Flipbook Publishing API as the repository's
// README describes it ("The emulator"); this package is a small, stable
// facade over it. Its names follow semantic versioning with the provider.
//
// The control helpers (Publish, Rename, Delete, SetFaults, Reset ...) stand
// in for what only the web application or the network can do; they are
// plain method calls, not HTTP. The same controls are served over HTTP under
// URL + "/_emulator/" for tests written in other languages.
package flipbooktest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
	"github.com/flipbook/terraform-provider-flipbook/internal/flipbooktestbridge"
)

// Errors of the control helpers; test them with errors.Is.
var (
	// ErrUnknownCollection: no collection has that hash (a published
	// collection's temporary hash is gone too).
	ErrUnknownCollection = emulator.ErrUnknownCollection
	// ErrDeletedCollection: the collection was deleted.
	ErrDeletedCollection = emulator.ErrDeletedCollection
	// ErrProcessing: the collection is still generating.
	ErrProcessing = emulator.ErrProcessing
	// ErrUnknownAccount: the fixture has no account with that API key.
	ErrUnknownAccount = errors.New("flipbooktest: unknown API key")
)

// Fault kinds for SetFaults, as the README's "Fault kinds" describes them.
const (
	FaultRateLimit          = "rate_limit"          // code 31 or 32
	FaultHTTP502            = "http_502"            // an HTML 502 page
	FaultReset              = "reset"               // the connection drops
	FaultSlow               = "slow"                // the answer comes late
	FaultGarbage            = "garbage"             // a truncated body
	FaultMaintenance        = "maintenance"         // code 22
	FaultResetAfter         = "reset_after"         // the call acts, then the connection drops
	FaultGenerationFailed   = "generation_failed"   // a generation ends failed
	FaultConversionFailed   = "conversion_failed"   // an added document ends FAILED
	FaultPackageFailed      = "package_failed"      // an HTML package ends FAILED
	FaultPermissionsFailure = "permissions_failure" // code 50 on the permission actions
)

// Option configures NewServer and Start.
type Option func(*config) error

// config is shared with this module's own tests (see
// internal/flipbooktestbridge), which may serve a fixture built in Go.
type config = flipbooktestbridge.Config

func init() {
	flipbooktestbridge.Register(func(s any) *emulator.Server {
		if srv, ok := s.(*Server); ok {
			return srv.srv
		}
		return nil
	})
}

// WithFixtureFile serves the world of a fixture file (the JSON of the
// emulator's -fixture flag); its feeds may name files beside it. Without a
// fixture option the embedded demo world is served.
func WithFixtureFile(path string) Option {
	return func(c *config) error {
		fx, err := emulator.LoadFixture(path)
		c.Fixture = fx
		return err
	}
}

// WithFixtureJSON serves the world of a fixture given as JSON; it may not
// name feed files (use WithFixtureFile).
func WithFixtureJSON(b []byte) Option {
	return func(c *config) error {
		fx, err := emulator.ParseFixtureBody(bytes.NewReader(b))
		c.Fixture = fx
		return err
	}
}

// WithGenerationDelay sets how long generated collections stay processing,
// overriding the fixture (0 makes generation end at once).
func WithGenerationDelay(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return errors.New("flipbooktest: negative generation delay")
		}
		c.Delay = &d
		return nil
	}
}

// WithFaultSeed seeds the fault dice, so that a run under faults meets the
// same faults every time.
func WithFaultSeed(seed uint64) Option {
	return func(c *config) error { c.Seed = seed; return nil }
}

// WithLog receives one line per API call (t.Logf, for example). The secret
// never appears in it.
func WithLog(logf func(format string, args ...any)) Option {
	return func(c *config) error { c.Logf = logf; return nil }
}

// WithClock makes the emulator read time from now: generation, conversion
// and package delays and link lifetimes all follow it.
func WithClock(now func() time.Time) Option {
	return func(c *config) error { c.Now = now; return nil }
}

// Server is an emulator listening on a loopback port.
type Server struct {
	// URL is the emulator's root, "http://127.0.0.1:PORT"; the control
	// endpoints are under URL + "/_emulator/".
	URL string
	// BaseURL is the API's {base_url}, URL + "/api/v1/".
	BaseURL string
	// UploadURL is the API's {upload_url}, URL + "/upload/v1/".
	UploadURL string

	srv       *emulator.Server
	closeOnce sync.Once
}

// NewServer starts an emulator for the test t and stops it when t ends. A
// bad option fails t at once.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(opts...)
	if err != nil {
		t.Fatalf("flipbooktest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts an emulator outside a single test (in TestMain, or in a
// program); the caller stops it with Close.
func Start(opts ...Option) (*Server, error) {
	var c config
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	e, err := emulator.New(emulator.Options{Fixture: c.Fixture, GenerationDelay: c.Delay, FaultSeed: c.Seed, Logf: c.Logf, Now: c.Now})
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := emulator.Serve(e, ln)
	return &Server{URL: srv.URL, BaseURL: srv.BaseURL, UploadURL: srv.UploadURL, srv: srv}, nil
}

// Close stops the emulator, giving calls under way a second to finish. It
// may be called more than once.
func (s *Server) Close() { s.closeOnce.Do(s.srv.Close) }

// Env is the provider's environment for an account of the fixture
// (FLIPBOOK_API_KEY, FLIPBOOK_API_SECRET, FLIPBOOK_BASE_URL,
// FLIPBOOK_UPLOAD_URL), ready for Terratest's EnvVars or for os/exec. An
// empty apiKey means the fixture's first account ("demo-key" in the demo
// world). It panics for a key the fixture does not have, a mistake in the
// test itself.
func (s *Server) Env(apiKey string) map[string]string {
	e := s.srv.Emulator
	if apiKey == "" {
		if keys := e.Accounts(); len(keys) > 0 {
			apiKey = keys[0]
		}
	}
	secret, ok := e.Secret(apiKey)
	if !ok {
		panic(fmt.Errorf("%w %q", ErrUnknownAccount, apiKey))
	}
	return map[string]string{
		"FLIPBOOK_API_KEY":    apiKey,
		"FLIPBOOK_API_SECRET": secret,
		"FLIPBOOK_BASE_URL":   s.BaseURL,
		"FLIPBOOK_UPLOAD_URL": s.UploadURL,
	}
}

// Setenv sets Env(apiKey) for the rest of the test with t.Setenv (so the
// test may not be parallel), for code that reads the environment itself.
func (s *Server) Setenv(t testing.TB, apiKey string) {
	t.Helper()
	for k, v := range s.Env(apiKey) {
		t.Setenv(k, v)
	}
}

// Accounts lists the fixture's API keys, in its order.
func (s *Server) Accounts() []string { return s.srv.Emulator.Accounts() }
