package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawGet sends a signed GET and returns what came back, or the transport
// error.
func (c *testClient) rawGet(p map[string]string) (int, []byte, error) {
	status, _, b, err := c.fetch(c.request(http.MethodGet, c.srv.BaseURL, c.signed(p)))
	return status, b, err
}

// rawPost sends a signed urlencoded POST and returns the transport error.
func (c *testClient) rawPost(p map[string]string) error {
	_, _, _, err := c.fetch(c.request(http.MethodPost, c.srv.BaseURL, c.signed(p)))
	return err
}

func TestFaults(t *testing.T) {
	fx := fastFixture()
	fx.Faults = &FaultsFixture{SlowMs: 300}
	srv, c := startTest(t, fx)
	e := srv.Emulator
	only := func(kind string) {
		t.Helper()
		if err := e.SetFaults(1, []string{kind}); err != nil {
			t.Fatal(err)
		}
	}
	read := get("collection.getCollection", "pub-private-1")

	t.Run("rate_limit", func(t *testing.T) {
		c := c.with(t)
		only("rate_limit")
		for i := 0; i < 6; i++ {
			env := c.get(read)
			if env.Code != 31 && env.Code != 32 {
				t.Fatalf("code %d", env.Code)
			}
		}
	})
	t.Run("http_502", func(t *testing.T) {
		c := c.with(t)
		only("http_502")
		status, b, err := c.rawGet(read)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusBadGateway || !strings.Contains(string(b), "<html>") {
			t.Fatalf("HTTP %d %s", status, b)
		}
	})
	t.Run("reset", func(t *testing.T) {
		c := c.with(t)
		only("reset")
		before := len(e.Collections())
		if err := c.rawPost(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}); err == nil {
			t.Fatal("the connection was not dropped")
		}
		if after := len(e.Collections()); after != before {
			t.Fatal("a reset call took effect")
		}
	})
	t.Run("reset_after", func(t *testing.T) {
		c := c.with(t)
		only("reset_after")
		before := len(e.Collections())
		if err := c.rawPost(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}); err == nil {
			t.Fatal("the connection was not dropped")
		}
		if after := len(e.Collections()); after != before+1 {
			t.Fatal("reset_after did not take effect")
		}
	})
	t.Run("garbage", func(t *testing.T) {
		c := c.with(t)
		only("garbage")
		status, b, err := c.rawGet(read)
		if err != nil {
			t.Fatal(err)
		}
		var env envelope
		if status != 200 || json.Unmarshal(b, &env) == nil {
			t.Fatalf("garbage parsed as JSON: %s", b)
		}
	})
	t.Run("slow", func(t *testing.T) {
		c := c.with(t)
		only("slow")
		start := time.Now()
		wantCode(t, c.get(read), 20, "OK")
		if d := time.Since(start); d < 300*time.Millisecond {
			t.Fatalf("answered after %v", d)
		}
	})
	t.Run("generation_failed", func(t *testing.T) {
		c := c.with(t)
		only("generation_failed")
		// Other actions are untouched by this kind.
		wantCode(t, c.get(read), 20, "OK")
		env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections})
		wantCode(t, env, 20, "OK")
		var created struct{ CollectionHash string }
		env.into(t, &created)
		col := c.waitFor(created.CollectionHash, func(col testCollection) bool { return col.CollectionStatus != "processing" })
		if col.CollectionStatus != "editable" || col.FlipbookStatus != "failed" || len(col.CollectionItems) != 1 || col.CollectionItems[0].ConvertStatus != "FAILED" {
			t.Fatalf("failed generation: %+v", col)
		}
		wantCode(t, c.get(get("collection.getPermissions", created.CollectionHash)), 48, "Permissions are only available for published private flipbooks")
		var pkg map[string]any
		c.get(get("collection.downloadHTML", created.CollectionHash)).into(t, &pkg)
		if pkg["status"] != "FAILED" {
			t.Fatalf("package of a failed generation: %v", pkg)
		}
	})
	if err := e.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.get(read), 20, "OK")

	got := e.Requests()
	cg := got["collection.getCollection"]
	if cg["fault"] != 2 || cg["31"]+cg["32"] != 6 { // 502 and garbage; slow answers 20
		t.Fatalf("getCollection counters %v", cg)
	}
	if got["collection.createFromTemplate"]["fault"] != 2 {
		t.Fatalf("createFromTemplate counters %v", got["collection.createFromTemplate"])
	}

	for _, bad := range []struct {
		rate  float64
		kinds []string
	}{{1.5, []string{"slow"}}, {0.5, nil}, {0.5, []string{"meteor"}}} {
		if err := e.SetFaults(bad.rate, bad.kinds); err == nil {
			t.Errorf("SetFaults(%v, %v) accepted", bad.rate, bad.kinds)
		}
	}
}

// A seeded fault sequence replays exactly.
func TestFaultsDeterministic(t *testing.T) {
	run := func() []int {
		fx := fastFixture()
		fx.Faults = &FaultsFixture{Rate: 0.5, Kinds: []string{"rate_limit"}, Seed: 42}
		_, c := startTest(t, fx)
		return burst(c, 30)
	}
	a, b := run(), run()
	faults := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("run 1 %v\nrun 2 %v", a, b)
		}
		if a[i] != 20 {
			faults++
		}
	}
	if faults == 0 || faults == len(a) {
		t.Fatalf("rate 0.5 gave %d faults of %d", faults, len(a))
	}
}
