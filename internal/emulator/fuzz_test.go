package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzAPI sends signed calls with any action, parameter and value through
// the handler: every answer is an envelope with HTTP 200 and a code of the
// spec's table, and the emulator still answers a plain call afterwards. The
// seeds are in testdata/fuzz/FuzzAPI.
func FuzzAPI(f *testing.F) {
	f.Add("collection.createFromTemplate", "sections", `[{"sectionType":"blank"}]`, false)
	f.Add("collection.setPermissions", "permissions", `{"permissions":[]}`, false)
	e, err := New(Options{Fixture: fastFixture()})
	if err != nil {
		f.Fatal(err)
	}
	h := e.Handler()
	call := func(t *testing.T, method string, p map[string]string) envelope {
		req := signedRequest(t, method, p)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("HTTP %d for %v", rec.Code, p)
		}
		var env envelope
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatalf("answer %.300q is not an envelope: %v", rec.Body.String(), err)
		}
		if want, known := statusText[env.Code]; !known || want != env.Status {
			t.Fatalf("code %d status %q is not in the spec's table", env.Code, env.Status)
		}
		return env
	}
	f.Fuzz(func(t *testing.T, action, name, value string, post bool) {
		method := http.MethodGet
		if post {
			method = http.MethodPost
		}
		p := map[string]string{"action": action, name: value}
		if name != "collectionHash" {
			p["collectionHash"] = "pub-private-1"
		}
		call(t, method, p)
		env := call(t, http.MethodGet, map[string]string{"action": "collection.getCollection", "collectionHash": "pub-public-1"})
		if env.Code != codeOK {
			t.Fatalf("the emulator stopped answering: code %d", env.Code)
		}
	})
}
