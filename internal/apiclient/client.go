package apiclient

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Config builds a Client.
type Config struct {
	BaseURL   string // {base_url}, ends in /v1/ (a missing slash is added)
	UploadURL string // {upload_url}, ends in /v1/
	APIKey    string
	Secret    string

	HTTPClient *http.Client // nil: a client with sane timeouts
	UserAgent  string

	// Client-side budget shared by every goroutine using the Client: upper
	// bounds of what the budget learns from throttles; 0 means none stated.
	RequestsPerSecond int
	RequestsPerMinute int

	// Budget, when set, replaces RequestsPerSecond and RequestsPerMinute, so
	// that several Clients (one per Terraform graph walk, say) draw on one
	// budget.
	Budget *Budget

	// Jobs, when set, is where the Client learns how long generations and
	// conversions take (wait.go); nil: a JobBook of the Client's own.
	Jobs *JobBook

	// ViewTTL is how long an answer of collection.getCollection or
	// collection.getPermissions is reused by this Client, whose reads of
	// one view at the same time are also joined (views.go states the rule).
	// 0 or less: every read reaches the service. Set it only on a Client
	// that lives for one operation (the provider builds one per graph walk
	// and sets DefaultViewTTL): a longer-lived Client would not see changes
	// made by others within the TTL.
	ViewTTL time.Duration

	Retry RetryPolicy

	// AllowInsecureHTTP permits plain http:// to a host that is not loopback.
	AllowInsecureHTTP bool

	// Logger receives one event per attempt; it never sees the secret, and
	// apiKey and signature arrive redacted. Nil: no logging.
	Logger Logger
}

// RetryPolicy bounds retries of throttled calls (31, 32) and of transport
// failures and 5xx on read operations.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt: nil
	// means DefaultMaxRetries, 0 means none.
	MaxRetries *int
	MinBackoff time.Duration // 0: default 250ms
	MaxBackoff time.Duration // 0: default 10s
}

// retryLimits is a RetryPolicy with its defaults applied.
type retryLimits struct {
	maxRetries             int
	minBackoff, maxBackoff time.Duration
}

// Retry defaults: 250ms doubling to 10s, eight retries (18 to 36 s of
// waiting in all) for a per-second throttle and transport failures; a
// per-minute throttle (code 32) backs off from 5 s doubling to 60 s (at least
// 157 s in all), longer than the minute the service counts in.
const (
	DefaultMaxRetries   = 8
	DefaultMinBackoff   = 250 * time.Millisecond
	DefaultMaxBackoff   = 10 * time.Second
	PerMinuteMinBackoff = 5 * time.Second
	PerMinuteMaxBackoff = 60 * time.Second
)

// DefaultUserAgent is sent when Config.UserAgent is empty.
const DefaultUserAgent = "terraform-provider-flipbook-apiclient"

// Logger is the logging hook; fields never hold secrets.
type Logger interface {
	Log(ctx context.Context, level LogLevel, msg string, fields map[string]any)
}

// LogLevel of a Logger event.
type LogLevel int

// Log levels.
const (
	LevelTrace LogLevel = iota
	LevelDebug
	LevelInfo
	LevelWarn
)

// Client speaks the Flipbook Publishing API. It is safe for concurrent use:
// nothing in it changes after New except the shared rate limiters, the
// views of collections it read (views.go) and what it learned of job
// durations, which are themselves safe for concurrent use.
type Client struct {
	cfg       Config
	baseURL   *url.URL
	uploadURL *url.URL
	http      *http.Client
	retry     retryLimits
	budget    *Budget
	jobs      *JobBook
	views     *views
	do        step // the call path (pipeline)
	converted converted

	// One lock per collection for flipbook.add (see lockCollection).
	addMu    sync.Mutex
	addLocks map[string]chan struct{}

	// Seams for tests: the wall clock, the backoff/poll sleep and the
	// jitter source. Production uses time.Now, a timer select on ctx and
	// math/rand/v2.
	now    func() time.Time
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64
}

// ConfigError reports an invalid Config field.
type ConfigError struct {
	Field  string
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("flipbook client configuration: %s: %s", e.Field, e.Reason)
}

// InsecureURLError: a base address uses plain http:// to a host that is not
// loopback and Config.AllowInsecureHTTP is false. URL never holds
// credentials.
type InsecureURLError struct {
	Field string
	URL   string
}

func (e *InsecureURLError) Error() string {
	return fmt.Sprintf("flipbook client configuration: %s %q uses plain http:// to a host that is not loopback; "+
		"the API key and request signatures would travel unencrypted. Use https://, or opt in to insecure HTTP explicitly",
		e.Field, e.URL)
}

// New validates cfg and builds a Client.
func New(cfg Config) (*Client, error) {
	base, err := parseBaseURL("base_url", cfg.BaseURL, cfg.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	upload, err := parseBaseURL("upload_url", cfg.UploadURL, cfg.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(cfg.APIKey) == "" {
		return nil, &ConfigError{Field: "api_key", Reason: "must be set"}
	}
	if cfg.Secret == "" {
		return nil, &ConfigError{Field: "api_secret", Reason: "must be set"}
	}
	if cfg.RequestsPerSecond < 0 {
		return nil, &ConfigError{Field: "requests_per_second", Reason: "must not be negative"}
	}
	if cfg.RequestsPerMinute < 0 {
		return nil, &ConfigError{Field: "requests_per_minute", Reason: "must not be negative"}
	}
	if cfg.Retry.MaxRetries != nil && *cfg.Retry.MaxRetries < 0 {
		return nil, &ConfigError{Field: "max_retries", Reason: "must not be negative"}
	}
	if cfg.Retry.MinBackoff < 0 || cfg.Retry.MaxBackoff < 0 {
		return nil, &ConfigError{Field: "retry", Reason: "backoff durations must not be negative"}
	}
	c := &Client{
		cfg:       cfg,
		baseURL:   base,
		uploadURL: upload,
		http:      cfg.HTTPClient,
		retry:     normalizeRetry(cfg.Retry),
		budget:    cfg.Budget,
		now:       time.Now,
		sleep:     sleepCtx,
		jitter:    rand.Float64,
	}
	if c.budget == nil {
		c.budget = NewBudget(cfg.RequestsPerSecond, cfg.RequestsPerMinute)
	}
	c.jobs = cfg.Jobs
	if c.jobs == nil {
		c.jobs = NewJobBook()
	}
	c.views = newViews(cfg.ViewTTL, func() time.Time { return c.now() })
	c.do = c.pipeline()
	if c.http == nil {
		c.http = defaultHTTPClient()
	}
	if c.cfg.UserAgent == "" {
		c.cfg.UserAgent = DefaultUserAgent
	}
	return c, nil
}

// BaseURL returns the normalized {base_url}.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// UploadURL returns the normalized {upload_url}.
func (c *Client) UploadURL() string { return c.uploadURL.String() }

func normalizeRetry(p RetryPolicy) retryLimits {
	l := retryLimits{maxRetries: DefaultMaxRetries, minBackoff: p.MinBackoff, maxBackoff: p.MaxBackoff}
	if p.MaxRetries != nil {
		l.maxRetries = *p.MaxRetries
	}
	if l.minBackoff == 0 {
		l.minBackoff = DefaultMinBackoff
	}
	if l.maxBackoff == 0 {
		l.maxBackoff = DefaultMaxBackoff
	}
	if l.maxBackoff < l.minBackoff {
		l.maxBackoff = l.minBackoff
	}
	return l
}

// parseBaseURL checks one base address and adds a missing trailing slash.
func parseBaseURL(field, raw string, allowInsecure bool) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, &ConfigError{Field: field, Reason: "must be set"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes its input, which may hold credentials.
		return nil, &ConfigError{Field: field, Reason: "is not a valid URL"}
	}
	shown := withoutUserinfo(u)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("%q must use https:// (or http:// to a loopback host)", shown)}
	}
	if u.Host == "" {
		return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("%q has no host", shown)}
	}
	if u.User != nil {
		return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("%q must not embed credentials; use api_key and api_secret", shown)}
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("%q must not have a query or fragment", shown)}
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	if !strings.HasSuffix(u.Path, "/v1/") {
		return nil, &ConfigError{Field: field, Reason: fmt.Sprintf("%q must end in /v1/ (the API version segment)", shown)}
	}
	if u.Scheme == "http" && !allowInsecure && !isLoopbackHost(u.Hostname()) {
		return nil, &InsecureURLError{Field: field, URL: withoutUserinfo(u)}
	}
	return u, nil
}

func withoutUserinfo(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// isLoopbackHost: "localhost" or an address in 127.0.0.0/8 or ::1. Other
// names are not resolved: a name that resolves to loopback today may not
// tomorrow.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// defaultHTTPClient has no overall timeout, since a 100 MB upload may take
// long; the caller's ctx bounds each call, and the transport bounds dialing
// and the wait for response headers.
func defaultHTTPClient() *http.Client {
	t := &http.Transport{Proxy: http.ProxyFromEnvironment}
	if def, ok := http.DefaultTransport.(*http.Transport); ok {
		t = def.Clone()
	}
	t.ResponseHeaderTimeout = 2 * time.Minute
	t.MaxIdleConnsPerHost = 16
	return &http.Client{Transport: t}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
