package apiclient

// This file fixes the client's public surface so that the provider can be
// written against it while the implementation lands. The implementation
// replaces every body here; the signatures are the contract.

import (
	"context"
	"net/http"
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

	// Client-side budget shared by every goroutine using the Client; 0 means
	// no limit.
	RequestsPerSecond int
	RequestsPerMinute int

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
	MaxRetries int           // retries after the first attempt; <0 means none, 0 the default (8)
	MinBackoff time.Duration // 0: default 250ms
	MaxBackoff time.Duration // 0: default 10s
}

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

// Progress is reported while waiting for an asynchronous job.
type Progress struct {
	What    string        // "generation", "conversion" or "download package"
	Hash    string        // the collection or flipbook hash waited on
	Status  string        // the status last seen
	Polls   int           // calls spent so far
	Elapsed time.Duration // since the wait began
}

// ProgressFunc receives Progress after every poll; nil is allowed.
type ProgressFunc func(Progress)

// Client speaks the Flipbook Publishing API. It is safe for concurrent use.
type Client struct {
	cfg Config
}

// New validates cfg and builds a Client.
func New(cfg Config) (*Client, error) { panic("apiclient: not implemented yet (issue 2)") }

// CreateFromTemplate queues generation and returns the new collection hash.
func (c *Client) CreateFromTemplate(ctx context.Context, in CreateFromTemplateInput) (string, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// CreateCatalog queues catalog generation and returns the new collection hash.
func (c *Client) CreateCatalog(ctx context.Context, in CreateCatalogInput) (string, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// GetCollection reads one collection.
func (c *Client) GetCollection(ctx context.Context, collectionHash string) (*Collection, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// GetPermissions reads the access list in saved order.
func (c *Client) GetPermissions(ctx context.Context, collectionHash string) ([]Permission, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// SetPermissions replaces the access list and returns what was saved.
func (c *Client) SetPermissions(ctx context.Context, collectionHash string, perms []Permission) ([]Permission, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// GetEmbed returns the embed markup.
func (c *Client) GetEmbed(ctx context.Context, in EmbedInput) (string, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// DownloadHTML starts or resumes package generation and returns its progress.
func (c *Client) DownloadHTML(ctx context.Context, collectionHash string) (*DownloadPackage, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// GetStats reads one flipbook's statistics.
func (c *Client) GetStats(ctx context.Context, collectionHash, flipbookHash string, f ResponseFormat) (*FlipbookStats, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// SetLogo uploads a logo (File) or names one (FileURL).
func (c *Client) SetLogo(ctx context.Context, in SetLogoInput) (*Collection, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// DeleteBackgroundImage removes the collection's background image.
func (c *Client) DeleteBackgroundImage(ctx context.Context, collectionHash string, f ResponseFormat) (*Collection, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// AddFlipbook uploads a PDF (File) or names one (FileURL) into a collection.
func (c *Client) AddFlipbook(ctx context.Context, in AddFlipbookInput) (*Flipbook, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// GetUserStats reads the account's statistics.
func (c *Client) GetUserStats(ctx context.Context) (*UserStats, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// WaitForGeneration polls until the collection leaves processing. A failed
// generation is a *JobFailedError.
func (c *Client) WaitForGeneration(ctx context.Context, collectionHash string, progress ProgressFunc) (*Collection, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// WaitForConversion polls until the item's convertStatus is COMPLETE; FAILED
// is a *JobFailedError.
func (c *Client) WaitForConversion(ctx context.Context, collectionHash, flipbookHash string, progress ProgressFunc) (*CollectionItem, *Collection, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// WaitForDownload repeats downloadHTML until COMPLETE; FAILED is a
// *JobFailedError.
func (c *Client) WaitForDownload(ctx context.Context, collectionHash string, progress ProgressFunc) (*DownloadPackage, error) {
	panic("apiclient: not implemented yet (issue 2)")
}

// APIError is an envelope whose code is not 20.
type APIError struct {
	Action  string
	Code    int
	Status  string
	Message string
	Errors  []string
}

func (e *APIError) Error() string { panic("apiclient: not implemented yet (issue 2)") }

// OutcomeUnknownError: a mutating call failed after it may have reached the
// service. It is never re-sent, so nothing is created twice.
type OutcomeUnknownError struct {
	Action string
	Err    error
}

func (e *OutcomeUnknownError) Error() string { panic("apiclient: not implemented yet (issue 2)") }
func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// DecodeError: the body was not an envelope (an HTML error page, a truncated
// body).
type DecodeError struct {
	Action     string
	HTTPStatus int
	Snippet    string
}

func (e *DecodeError) Error() string { panic("apiclient: not implemented yet (issue 2)") }

// JobFailedError: an asynchronous job ended in failure.
type JobFailedError struct {
	What   string
	Hash   string
	Status string
}

func (e *JobFailedError) Error() string { panic("apiclient: not implemented yet (issue 2)") }

// Predicates over errors returned by the Client.
func IsNotFound(err error) bool           { panic("apiclient: not implemented yet (issue 2)") } // 46 or 47
func IsCollectionNotFound(err error) bool { panic("apiclient: not implemented yet (issue 2)") } // 46
func IsFlipbookNotFound(err error) bool   { panic("apiclient: not implemented yet (issue 2)") } // 47
func IsForbidden(err error) bool          { panic("apiclient: not implemented yet (issue 2)") } // 43
func IsThrottled(err error) bool          { panic("apiclient: not implemented yet (issue 2)") } // 31, 32
func IsInProgress(err error) bool         { panic("apiclient: not implemented yet (issue 2)") } // 38
func IsNotEligible(err error) bool        { panic("apiclient: not implemented yet (issue 2)") } // 48
func IsQuotaExceeded(err error) bool      { panic("apiclient: not implemented yet (issue 2)") } // 33
func IsFileTooLarge(err error) bool       { panic("apiclient: not implemented yet (issue 2)") } // 34
func IsTooManyPages(err error) bool       { panic("apiclient: not implemented yet (issue 2)") } // 35
func IsInvalidFileFormat(err error) bool  { panic("apiclient: not implemented yet (issue 2)") } // 45
func IsValidation(err error) bool         { panic("apiclient: not implemented yet (issue 2)") } // 40
func IsOutcomeUnknown(err error) bool     { panic("apiclient: not implemented yet (issue 2)") }
func CodeOf(err error) int                { panic("apiclient: not implemented yet (issue 2)") } // 0 when not an *APIError

// Int is a number that may arrive as 1, "1", 1.0, "", or null.
type Int struct {
	Value int64
	Valid bool
}

// Bool is a boolean that may arrive as true, "true", 1, "1", "", or null.
type Bool struct {
	Value bool
	Valid bool
}
