package emulator

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
)

// keysOf lists the keys of a JSON object, sorted.
func keysOf(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The control API's bodies keep their JSON names: each endpoint is called
// and the keys of its answer compared with the README's.
func TestControlShapes(t *testing.T) {
	srv, c := startTest(t, nil)
	ctl := srv.URL + "/_emulator/"
	check := func(method, path, body string, status int, keys ...string) []byte {
		t.Helper()
		got, b := plainCall(t, method, ctl+path, body)
		if got != status {
			t.Fatalf("%s %s: HTTP %d, want %d: %s", method, path, got, status, b)
		}
		if k := keysOf(t, b); !reflect.DeepEqual(k, keys) {
			t.Fatalf("%s %s: keys %v, want %v", method, path, k, keys)
		}
		return b
	}
	if b := check("GET", "health", "", 200, "status"); string(b) != "{\n  \"status\": \"ok\"\n}\n" {
		t.Fatalf("health: %q", b)
	}
	check("GET", "requests", "", 200, "byAction")
	check("GET", "faults", "", 200, "kinds", "rate")
	check("POST", "faults", `{"rate":0.5,"kinds":["slow"],"actions":["user.getStats"]}`, 200, "actions", "kinds", "rate")
	check("GET", "faults", "", 200, "actions", "kinds", "rate")
	check("POST", "faults", `{"rate":0}`, 200, "kinds", "rate")
	check("POST", "faults", `{"rate":2}`, 400, "error")
	if b := check("POST", "generation", `{"delayMs":150}`, 200, "delayMs"); string(b) != "{\n  \"delayMs\": 150\n}\n" {
		t.Fatalf("generation: %q", b)
	}
	check("POST", "generation", `{}`, 400, "error")
	check("POST", "collections/nope/publish", "", 404, "error")
	check("POST", "collections/draft-1/publish", "", 200, "collectionHash")
	check("POST", "collections/pub-private-1/access", `{"bogus":true}`, 400, "error")

	wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`), 20, "OK")
	_, b := plainCall(t, "GET", ctl+"notifications", "")
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil || len(list) == 0 {
		t.Fatalf("notifications: %s", b)
	}
	if k := keysOf(t, list[0]); !reflect.DeepEqual(k, []string{"apiKey", "collectionHash", "email", "group", "time", "type"}) {
		t.Fatalf("notification keys %v", k)
	}
}
