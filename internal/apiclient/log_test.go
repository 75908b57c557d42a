package apiclient

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestOneLogEventPerAttempt(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			writeJSON(w, http.StatusOK, throttleBody)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"embedCode":"<div/>"}`))
	})
	log := &recordingLogger{}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Logger = log })
	if _, err := c.GetEmbed(t.Context(), EmbedInput{CollectionHash: "c-1"}); err != nil {
		t.Fatal(err)
	}
	var ev []logEvent
	for _, e := range log.all() {
		if e.Msg != "flipbook request budget changed" { // see TestBudgetChangeIsLogged
			ev = append(ev, e)
		}
	}
	if len(ev) != 2 {
		t.Fatalf("%d events for 2 attempts: %+v", len(ev), ev)
	}
	host := strings.TrimPrefix(f.srv.URL, "http://")
	first, second := ev[0].Fields, ev[1].Fields
	if ev[0].Level != LevelWarn || first["action"] != ActionGetEmbed || first["method"] != "GET" || first["host"] != host ||
		first["attempt"] != 1 || first["code"] != 31 || first["retry"] != true || first["backoff_ms"] != int64(250) {
		t.Errorf("first event: %v %+v", ev[0].Level, first)
	}
	if ev[1].Level != LevelDebug || second["attempt"] != 2 || second["code"] != 20 || second["retry"] != false {
		t.Errorf("second event: %v %+v", ev[1].Level, second)
	}
	if _, ok := first["duration_ms"].(int64); !ok {
		t.Errorf("duration_ms missing: %+v", first)
	}
}

// assertNoCredentials fails when text holds the secret, the key or a
// signature value.
func assertNoCredentials(t *testing.T, where, text string, signatures ...string) {
	t.Helper()
	for _, leak := range append([]string{testSecret, testKey}, signatures...) {
		if leak != "" && strings.Contains(text, leak) {
			t.Errorf("%s leaks %q: %s", where, leak, text)
		}
	}
}

func TestCredentialsNeverReachErrorsOrLogs(t *testing.T) {
	// The service echoes everything it got, in the message and errors.
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, r *http.Request) {
		echo := r.URL.String() + " secret=" + testSecret
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"code":44,"status":"Invalid signature","data":{"message":%q,"errors":[%q]}}`,
			echo, "signature "+c.Params.Get("signature")+" does not match key "+testKey))
	})
	log := &recordingLogger{}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Logger = log })
	_, err := c.GetPermissions(t.Context(), "c-1")
	if CodeOf(err) != CodeInvalidSignature {
		t.Fatalf("err = %v", err)
	}
	sig := f.requests()[0].Params.Get("signature")
	assertNoCredentials(t, "API error", err.Error(), sig)
	if !strings.Contains(err.Error(), "apiKey=***") || !strings.Contains(err.Error(), "signature=***") {
		t.Errorf("redaction markers missing: %s", err)
	}
	for _, e := range log.all() {
		assertNoCredentials(t, "log event", fmt.Sprint(e.Msg, e.Fields), sig)
	}
}

func TestTransportErrorsQuoteNoCredentials(t *testing.T) {
	// A listener that is closed at once: every dial is refused, and
	// net/http's *url.Error quotes the full GET URL.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	log := &recordingLogger{}
	c, err := New(Config{BaseURL: "http://" + addr + "/api/v1/", UploadURL: "http://" + addr + "/upload/v1/",
		APIKey: testKey, Secret: testSecret, Logger: log, Retry: RetryPolicy{MaxRetries: new(1)}})
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = (&fakeSleep{}).sleep
	_, err = c.GetCollection(t.Context(), "c-1")
	if err == nil {
		t.Fatal("expected a dial error")
	}
	params := map[string]string{"action": ActionGetCollection, "apiKey": testKey, "collectionHash": "c-1"}
	sig := Sign(testSecret, params)
	assertNoCredentials(t, "transport error", err.Error(), sig)
	var ue *url.Error
	if !errors.As(err, &ue) || !strings.Contains(ue.URL, "apiKey=***") {
		t.Errorf("url.Error not reachable or not redacted: %v", err)
	} else {
		assertNoCredentials(t, "url.Error", ue.Error(), sig)
	}
	var te *TransportError
	if !errors.As(err, &te) || te.Sent {
		t.Errorf("want a *TransportError that was not sent, got %v", err)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) {
		t.Errorf("cause not reachable through the redacted error: %v", err)
	}
	if n := len(log.all()); n != 2 {
		t.Errorf("%d log events, want 2", n)
	}
	for _, e := range log.all() {
		assertNoCredentials(t, "log event", fmt.Sprint(e.Msg, e.Fields), sig)
	}
}

func TestRedactorPatterns(t *testing.T) {
	r := newRedactor("s3cr3t-value", "key-value", "")
	for in, want := range map[string]string{
		"GET /v1/?apiKey=abc&signature=0123abcd&x=1":                            "GET /v1/?apiKey=***&signature=***&x=1",
		`{"apiKey":"abc","signature": "def"}`:                                   `{"apiKey":"***","signature": "***"}`,
		"apikey%3Dabc signature%3ddef":                                          "apikey%3D*** signature%3d***",
		"the secret s3cr3t-value and key-value leaked":                          "the secret *** and *** leaked",
		"nothing to hide":                                                       "nothing to hide",
		`{"status":"COMPLETE","resourceUrl":"https://cdn.example/p.zip?t=1&u=2`: `{"status":"COMPLETE","resourceUrl":"***`,
		`<resourceUrl>https://cdn.example/p.zip</resourceUrl>`:                  `<resourceUrl>***</resourceUrl>`,
	} {
		if got := r.redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOutcomeUnknownMessageExample(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { resetConn(t, w) })
	c, _ := newTestClient(t, f, nil)
	_, err := c.CreateCatalog(t.Context(), CreateCatalogInput{Sections: []Section{{Type: SectionFeed}}})
	msg := err.Error()
	if strings.Count(msg, "flipbook API collection.createCatalog") != 1 || !strings.HasPrefix(msg, "flipbook API collection.createCatalog: outcome unknown: ") {
		t.Errorf("message: %s", msg)
	}
	t.Log(msg)
}

// A package answer cut off after its link: neither the error nor the logged
// attempts carry the link (it downloads the collection for a minute).
func TestTruncatedPackageAnswerHidesTheLink(t *testing.T) {
	const link = "https://cdn.example/packages/secret-package.zip"
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"code":20,"status":"OK","data":{"status":"COMPLETE","resourceUrl":"` + link))
	})
	log := &recordingLogger{}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Logger = log; cfg.Retry.MaxRetries = new(1) })
	_, err := c.DownloadHTML(t.Context(), "c-1")
	if err == nil {
		t.Fatal("a truncated answer was accepted")
	}
	if strings.Contains(err.Error(), "secret-package") {
		t.Errorf("the error carries the link: %v", err)
	}
	for _, ev := range log.all() {
		if strings.Contains(fmt.Sprint(ev.Fields), "secret-package") || strings.Contains(ev.Msg, "secret-package") {
			t.Errorf("a log event carries the link: %s %v", ev.Msg, ev.Fields)
		}
	}
}
