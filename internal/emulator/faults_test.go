package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
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

// The kinds of failed jobs and maintenance: a conversion or a package that ends FAILED,
// and code 22 before the call acts. reset_after hits uploads too: the
// upload took effect, the answer is lost.
func TestFaultsAdditions(t *testing.T) {
	srv, c := startTest(t, nil)
	e := srv.Emulator
	only := func(kinds ...string) {
		t.Helper()
		if err := e.SetFaults(1, kinds); err != nil {
			t.Fatal(err)
		}
	}
	items := func() int { return len(c.collection("pub-private-1").CollectionItems) }
	pdf := func() filePart { return filePart{"Doc.pdf", bytes.NewReader(minimalPDF(2))} }

	t.Run("conversion_failed", func(t *testing.T) {
		c := c.with(t)
		only("conversion_failed")
		wantCode(t, c.get(get("user.getStats", "")), 20, "OK") // other actions untouched
		var fb struct{ FlipbookHash, ConvertStatus string }
		env := c.upload(get("flipbook.add", "pub-private-1"), pdf())
		wantCode(t, env, 20, "OK")
		env.into(t, &fb)
		if fb.ConvertStatus != "PROCESSING" {
			t.Fatalf("answer %+v: the failure shows only when conversion ends", fb)
		}
		if err := e.SetFaults(0, nil); err != nil {
			t.Fatal(err)
		}
		col := c.waitFor("pub-private-1", func(col testCollection) bool {
			for _, it := range col.CollectionItems {
				if it.FlipbookHash == fb.FlipbookHash {
					return it.ConvertStatus != "PROCESSING"
				}
			}
			return false
		})
		for _, it := range col.CollectionItems {
			if it.FlipbookHash == fb.FlipbookHash && it.ConvertStatus != "FAILED" {
				t.Fatalf("item %+v, want FAILED", it)
			}
		}
		if col.FlipbookStatus != "failed" {
			t.Errorf("flipbookStatus %v, want failed", col.FlipbookStatus)
		}
	})
	t.Run("package_failed", func(t *testing.T) {
		c := c.with(t)
		only("package_failed")
		statuses := []string{}
		for range 40 {
			var pkg struct{ Status, ResourceURL string }
			c.get(get("collection.downloadHTML", "pub-public-1")).into(t, &pkg)
			statuses = append(statuses, pkg.Status)
			if pkg.Status != "PROCESSING" {
				if pkg.Status != "FAILED" || pkg.ResourceURL != "" {
					t.Fatalf("package %+v, want FAILED without a link", pkg)
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if statuses[len(statuses)-1] != "FAILED" {
			t.Fatalf("statuses %v", statuses)
		}
		// Reported once: with the fault off the next call starts a new package.
		if err := e.SetFaults(0, nil); err != nil {
			t.Fatal(err)
		}
		var pkg struct{ Status string }
		c.get(get("collection.downloadHTML", "pub-public-1")).into(t, &pkg)
		if pkg.Status == "FAILED" {
			t.Fatal("a failed package stayed failed")
		}
	})
	t.Run("maintenance", func(t *testing.T) {
		c := c.with(t)
		only("maintenance")
		before := len(e.Collections())
		wantCode(t, c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections}), 22, "Maintenance mode")
		wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), pdf()), 22, "Maintenance mode")
		if err := e.SetFaults(0, nil); err != nil {
			t.Fatal(err)
		}
		if len(e.Collections()) != before {
			t.Fatal("a call in maintenance mode took effect")
		}
	})
	t.Run("reset_after on uploads", func(t *testing.T) {
		c := c.with(t)
		before := items()
		only("reset_after")
		_, _, _, err := c.fetch(c.uploadRequest(c.srv.UploadURL, get("flipbook.add", "pub-private-1"), pdf()))
		if err == nil {
			t.Fatal("flipbook.add: the connection was not dropped")
		}
		_, _, _, err = c.fetch(c.uploadRequest(c.srv.UploadURL, get("collection.setLogo", "pub-private-1"),
			filePart{"logo.png", strings.NewReader("\x89PNG\r\n\x1a\nrest")}))
		if err == nil {
			t.Fatal("setLogo: the connection was not dropped")
		}
		if err := e.SetFaults(0, nil); err != nil {
			t.Fatal(err)
		}
		if after := items(); after != before+1 {
			t.Fatalf("items %d -> %d: the lost upload did not take effect once", before, after)
		}
		var col struct{ Settings map[string]any }
		env := c.get(get("collection.getCollection", "pub-private-1"))
		env.into(t, &col)
		if col.Settings["logoImage"] == nil || col.Settings["logoImage"] == "" {
			t.Fatalf("the lost setLogo did not take effect: %v", col.Settings)
		}
		got := e.Requests()
		if got["flipbook.add"]["fault"] != 1 || got["collection.setLogo"]["fault"] != 1 {
			t.Fatalf("counters %v %v", got["flipbook.add"], got["collection.setLogo"])
		}
	})
}

// The dice are keyed by the call: the fates of calls with different
// parameters do not depend on the order they arrive in.
func TestFaultsKeyedByCall(t *testing.T) {
	fates := func(order []int) map[int][]int {
		fx := fastFixture()
		fx.Faults = &FaultsFixture{Rate: 0.5, Kinds: []string{"rate_limit"}, Seed: 7}
		_, c := startTest(t, fx)
		out := map[int][]int{}
		for _, i := range order {
			p := map[string]string{"action": "collection.getEmbed", "collectionHash": "pub-private-1", "width": itoa(100 + i)}
			code := c.get(p).Code
			if code == 32 {
				code = 31
			}
			out[i] = append(out[i], code)
		}
		return out
	}
	a := fates([]int{1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8})
	b := fates([]int{8, 7, 6, 5, 4, 3, 3, 3, 2, 2, 1, 1, 2, 1})
	for k := range a {
		if !reflect.DeepEqual(a[k], b[k]) {
			t.Fatalf("call %d met %v in one order and %v in another", k, a[k], b[k])
		}
	}
}
