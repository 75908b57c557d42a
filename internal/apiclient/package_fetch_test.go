package apiclient

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFetchPackage(t *testing.T) {
	const secretPath = "/_packages/0123456789abcdef0123456789abcdef.zip"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case secretPath:
			if r.URL.Query().Get("apiKey") != "" || r.Header.Get("Authorization") != "" {
				t.Errorf("the download sent credentials: %v", r.URL)
			}
			_, _ = w.Write([]byte("PK-archive"))
		case "/expired.zip":
			http.Error(w, "gone", http.StatusGone)
		default:
			http.Error(w, "no", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/v1/", UploadURL: srv.URL + "/v1/", APIKey: "key-1234", Secret: "secret-1234"})
	if err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	n, err := c.FetchPackage(t.Context(), srv.URL+secretPath, &buf)
	if err != nil || n != 10 || buf.String() != "PK-archive" {
		t.Fatalf("FetchPackage = %d, %v, %q", n, err, buf.String())
	}

	for _, tc := range []struct {
		url           string
		wantStatus    int
		wantExpired   bool
		wantRetryable bool
	}{
		{srv.URL + "/expired.zip?token=secret-token-x", http.StatusGone, true, true},
		{srv.URL + "/broken.zip?token=secret-token-x", http.StatusInternalServerError, false, true},
		{"http://127.0.0.1:1/secret-token-x.zip", 0, false, true},           // nothing listens
		{"http://packages.example.com/secret-token-x.zip", 0, false, false}, // plain http off loopback
		{"ftp://packages.example.com/secret-token-x.zip", 0, false, false},  // not http(s)
	} {
		_, err := c.FetchPackage(t.Context(), tc.url, &bytes.Buffer{})
		var pe *PackageFetchError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: error %v, want a PackageFetchError", tc.url, err)
		}
		if pe.HTTPStatus != tc.wantStatus || pe.Expired() != tc.wantExpired || pe.Retryable() != tc.wantRetryable {
			t.Errorf("%s: status %d expired %v retryable %v, want %d %v %v", tc.url, pe.HTTPStatus, pe.Expired(), pe.Retryable(),
				tc.wantStatus, tc.wantExpired, tc.wantRetryable)
		}
		if strings.Contains(err.Error(), "secret-token-x") {
			t.Errorf("the error shows the link: %v", err)
		}
	}
}
