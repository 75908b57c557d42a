package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// nestedSections is a sections value of depth nested arrays: 2*depth bytes.
func nestedSections(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// signedRequest is a signed call of the demo account: a urlencoded body for
// POST, a query for GET.
func signedRequest(t *testing.T, method string, params map[string]string) *http.Request {
	t.Helper()
	p := map[string]string{"apiKey": "demo-key"}
	for k, v := range params {
		p[k] = v
	}
	p["signature"] = testSign("demo-secret", p)
	if method == http.MethodGet {
		return httptest.NewRequestWithContext(t.Context(), method, "/api/v1/?"+values(p).Encode(), nil)
	}
	req := httptest.NewRequestWithContext(t.Context(), method, "/api/v1/", strings.NewReader(values(p).Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req
}

// serveOnce answers one signed call through the handler, with no network
// in between, and reports how many bytes answering allocated.
func serveOnce(t *testing.T, h http.Handler, method string, params map[string]string) (envelope, uint64) {
	t.Helper()
	req := signedRequest(t, method, params)
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	var env envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("answer %.200q: %v", rec.Body.String(), err)
	}
	return env, after.TotalAlloc - before.TotalAlloc
}

// A 400 KB sections value of 200,000 nested arrays is refused with 40, naming
// the depth limit, in a few megabytes (the request body alone, URL-encoded,
// is 1.2 MB). Before the limit this took more than 15 GB.
func TestDeepSectionsRefusedCheaply(t *testing.T) {
	e, err := New(Options{Fixture: fastFixture()})
	if err != nil {
		t.Fatal(err)
	}
	h := e.Handler()
	for _, action := range []string{"collection.createFromTemplate", "collection.createCatalog"} {
		env, alloc := serveOnce(t, h, http.MethodPost, map[string]string{"action": action, "sections": nestedSections(200_000)})
		wantCode(t, env, 40, "Bad Request")
		want := "sections: is nested more than 64 arrays and objects deep; the emulator reads at most 64"
		if errs := env.errors(); len(errs) != 1 || errs[0] != want {
			t.Fatalf("%s: errors %q, want [%q]", action, errs, want)
		}
		const bound = 8 << 20
		if alloc > bound {
			t.Fatalf("%s: refusing 400 KB of nesting allocated %d bytes, want at most %d", action, alloc, bound)
		}
		t.Logf("%s: %d KB allocated", action, alloc>>10)
	}
}

// A permissions value nested too deep gets the spec's payload message, then
// the limit.
func TestDeepPermissionsRefusedCheaply(t *testing.T) {
	e, err := New(Options{Fixture: fastFixture()})
	if err != nil {
		t.Fatal(err)
	}
	h := e.Handler()
	env, alloc := serveOnce(t, h, http.MethodGet, map[string]string{"action": "collection.setPermissions", "collectionHash": "pub-private-1",
		"permissions": `{"permissions":` + nestedSections(100_000) + `}`})
	wantCode(t, env, 40, "Bad Request")
	want := []string{"Invalid permissions payload", "permissions: is nested more than 64 arrays and objects deep; the emulator reads at most 64"}
	if errs := env.errors(); len(errs) != 2 || errs[0] != want[0] || errs[1] != want[1] {
		t.Fatalf("errors %q, want %q", errs, want)
	}
	if alloc > 8<<20 {
		t.Fatalf("refusing deep permissions allocated %d bytes", alloc)
	}
}

// A JSON parameter over the size limit is refused before it is parsed.
func TestLargeSectionsRefused(t *testing.T) {
	e, err := New(Options{Fixture: fastFixture()})
	if err != nil {
		t.Fatal(err)
	}
	big := `[` + strings.Repeat(" ", 1<<20) + `]`
	env, _ := serveOnce(t, e.Handler(), http.MethodPost, map[string]string{"action": "collection.createFromTemplate", "sections": big})
	wantCode(t, env, 40, "Bad Request")
	if errs := env.errors(); len(errs) != 1 || !strings.HasPrefix(errs[0], "sections: is 1048578 bytes long; the emulator reads at most 1048576") {
		t.Fatalf("errors %q", errs)
	}
}
