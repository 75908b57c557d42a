package apiclient

import (
	"errors"
	"strings"
	"testing"
)

func TestNewValidatesConfig(t *testing.T) {
	base := Config{BaseURL: "https://api.example.com/v1/", UploadURL: "https://upload.example.com/v1/", APIKey: "k", Secret: "s"}
	tests := []struct {
		name    string
		edit    func(*Config)
		wantErr string // "" means valid
		field   string
	}{
		{"valid https", func(*Config) {}, "", ""},
		{"missing slash added", func(c *Config) { c.BaseURL = "https://api.example.com/v1" }, "", ""},
		{"loopback http 127.0.0.1", func(c *Config) { c.BaseURL = "http://127.0.0.1:8080/api/v1/" }, "", ""},
		{"loopback http 127.5.6.7", func(c *Config) { c.BaseURL = "http://127.5.6.7/api/v1/" }, "", ""},
		{"loopback http ::1", func(c *Config) { c.UploadURL = "http://[::1]:9000/upload/v1" }, "", ""},
		{"loopback http localhost", func(c *Config) { c.BaseURL = "http://LOCALHOST:1/v1/" }, "", ""},
		{"insecure allowed", func(c *Config) { c.BaseURL = "http://api.example.com/v1/"; c.AllowInsecureHTTP = true }, "", ""},
		{"insecure refused", func(c *Config) { c.BaseURL = "http://api.example.com/v1/" }, "plain http://", "base_url"},
		{"insecure upload refused", func(c *Config) { c.UploadURL = "http://10.0.0.1/v1/" }, "plain http://", "upload_url"},
		{"name resembling loopback refused", func(c *Config) { c.BaseURL = "http://127.0.0.1.example.com/v1/" }, "plain http://", "base_url"},
		{"wrong version", func(c *Config) { c.BaseURL = "https://api.example.com/v2/" }, "must end in /v1/", "base_url"},
		{"no scheme", func(c *Config) { c.BaseURL = "api.example.com/v1/" }, "https://", "base_url"},
		{"ftp", func(c *Config) { c.BaseURL = "ftp://api.example.com/v1/" }, "https://", "base_url"},
		{"query", func(c *Config) { c.BaseURL = "https://api.example.com/v1/?x=1" }, "query", "base_url"},
		{"credentials in URL", func(c *Config) { c.BaseURL = "https://user:pw@api.example.com/v1/" }, "credentials", "base_url"},
		{"empty base", func(c *Config) { c.BaseURL = "" }, "must be set", "base_url"},
		{"empty upload", func(c *Config) { c.UploadURL = " " }, "must be set", "upload_url"},
		{"no key", func(c *Config) { c.APIKey = "" }, "must be set", "api_key"},
		{"no secret", func(c *Config) { c.Secret = "" }, "must be set", "api_secret"},
		{"negative rps", func(c *Config) { c.RequestsPerSecond = -1 }, "negative", "requests_per_second"},
		{"negative retries", func(c *Config) { c.Retry.MaxRetries = new(-1) }, "negative", "max_retries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			tt.edit(&cfg)
			c, err := New(cfg)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if !strings.HasSuffix(c.BaseURL(), "/v1/") || !strings.HasSuffix(c.UploadURL(), "/v1/") {
					t.Errorf("addresses not normalized: %s %s", c.BaseURL(), c.UploadURL())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("err = %v, want mention of %q and %q", err, tt.wantErr, tt.field)
			}
		})
	}
}

func TestInsecureURLErrorIsTypedAndHidesCredentials(t *testing.T) {
	_, err := New(Config{BaseURL: "http://api.example.com/v1", UploadURL: "https://u.example.com/v1/", APIKey: "k", Secret: "s"})
	var ie *InsecureURLError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want *InsecureURLError", err)
	}
	if ie.Field != "base_url" || ie.URL != "http://api.example.com/v1/" {
		t.Errorf("InsecureURLError = %+v", ie)
	}
	_, err = New(Config{BaseURL: "https://user:hunter2@api.example.com/v1/", UploadURL: "https://u.example.com/v1/", APIKey: "k", Secret: "s"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error leaks URL credentials: %v", err)
	}
}

func TestErrorPredicates(t *testing.T) {
	preds := map[string]func(error) bool{
		"IsNotFound": IsNotFound, "IsCollectionNotFound": IsCollectionNotFound, "IsFlipbookNotFound": IsFlipbookNotFound,
		"IsForbidden": IsForbidden, "IsThrottled": IsThrottled, "IsInProgress": IsInProgress, "IsNotEligible": IsNotEligible,
		"IsQuotaExceeded": IsQuotaExceeded, "IsFileTooLarge": IsFileTooLarge, "IsTooManyPages": IsTooManyPages,
		"IsInvalidFileFormat": IsInvalidFileFormat, "IsValidation": IsValidation,
	}
	trueFor := map[int][]string{
		46: {"IsNotFound", "IsCollectionNotFound"}, 47: {"IsNotFound", "IsFlipbookNotFound"}, 43: {"IsForbidden"},
		31: {"IsThrottled"}, 32: {"IsThrottled"}, 38: {"IsInProgress"}, 48: {"IsNotEligible"}, 33: {"IsQuotaExceeded"},
		34: {"IsFileTooLarge"}, 35: {"IsTooManyPages"}, 45: {"IsInvalidFileFormat"}, 40: {"IsValidation"}, 44: {},
	}
	for code, names := range trueFor {
		// Wrapped, as callers receive them after retries.
		err := errors.Join(errors.New("context"), &APIError{Action: "a", Code: code})
		for name, pred := range preds {
			want := false
			for _, n := range names {
				want = want || n == name
			}
			if pred(err) != want {
				t.Errorf("%s(code %d) = %v, want %v", name, code, !want, want)
			}
		}
		if CodeOf(err) != code {
			t.Errorf("CodeOf = %d, want %d", CodeOf(err), code)
		}
	}
	if CodeOf(errors.New("x")) != 0 || IsNotFound(nil) || IsOutcomeUnknown(errors.New("x")) {
		t.Error("predicates must be false for foreign errors")
	}
	ou := &OutcomeUnknownError{Action: ActionCreateCatalog, Err: errors.New("connection reset by peer")}
	if !IsOutcomeUnknown(errors.Join(errors.New("wrapped"), ou)) {
		t.Error("IsOutcomeUnknown misses a wrapped error")
	}
}

func TestErrorMessagesReadWell(t *testing.T) {
	ae := &APIError{Action: ActionCreateCatalog, Code: 40, Status: "Bad Request", Message: "Validation failed",
		Errors: []string{"sections[0].sources: must be provided", "title: too long"}}
	if got, want := ae.Error(), "flipbook API collection.createCatalog: code 40 (Bad Request): Validation failed: sections[0].sources: must be provided; title: too long"; got != want {
		t.Errorf("APIError:\n got %s\nwant %s", got, want)
	}
	if got, want := (&APIError{Action: ActionGetCollection, Code: 46, Status: "Invalid collection hash"}).Error(),
		"flipbook API collection.getCollection: code 46 (Invalid collection hash)"; got != want {
		t.Errorf("APIError:\n got %s\nwant %s", got, want)
	}
	ou := (&OutcomeUnknownError{Action: ActionCreateCatalog, Err: errors.New("connection reset by peer")}).Error()
	for _, part := range []string{"collection.createCatalog", "outcome unknown", "connection reset by peer", "not re-sent"} {
		if !strings.Contains(ou, part) {
			t.Errorf("OutcomeUnknownError text lacks %q: %s", part, ou)
		}
	}
	// The error states what happened; what to do is the provider's advice.
	if strings.Contains(ou, "import") {
		t.Errorf("OutcomeUnknownError text gives advice: %s", ou)
	}
	de := (&DecodeError{Action: ActionGetCollection, HTTPStatus: 502, Snippet: "<html>", Reason: "neither JSON, JSONP nor XML"}).Error()
	if de != `flipbook API collection.getCollection: HTTP 502: unreadable response (neither JSON, JSONP nor XML); body starts "<html>"` {
		t.Errorf("DecodeError: %s", de)
	}
	if je := (&JobFailedError{What: "generation", Hash: "c-1", Status: "failed"}).Error(); je != `flipbook generation of c-1 failed (status "failed")` {
		t.Errorf("JobFailedError: %s", je)
	}
}

// MaxRetries keeps unset, 0 and N apart: nil is the default, 0 is none.
func TestRetryPolicyMaxRetries(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  *int
		want int
	}{
		{"unset", nil, DefaultMaxRetries},
		{"zero", new(0), 0},
		{"three", new(3), 3},
	} {
		if got := normalizeRetry(RetryPolicy{MaxRetries: tt.set}).maxRetries; got != tt.want {
			t.Errorf("%s: %d retries, want %d", tt.name, got, tt.want)
		}
	}
}
