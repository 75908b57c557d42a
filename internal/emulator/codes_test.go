package emulator

import (
	"bytes"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func get(action, hash string) map[string]string {
	return map[string]string{"action": action, "collectionHash": hash}
}

// TestErrorTable makes the emulator answer every code of the spec's error
// table through the HTTP API, with the table's status text.
func TestErrorTable(t *testing.T) {
	fx := fastFixture()
	fx.Limits.MaxUploadBytes = 2048
	fx.Limits.MaxPages = 3
	zero := 0
	fx.Accounts[1].UploadsPerMonth = &zero
	srv, c := startTest(t, fx)
	other := newTestClient(t, srv)
	other.key, other.secret = "other-key", "other-secret"

	t.Run("20", func(t *testing.T) {
		c := c.with(t)
		wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
	})
	t.Run("30", func(t *testing.T) {
		c := c.with(t)
		for _, drop := range []string{"apiKey", "signature", "action"} {
			p := c.signed(get("collection.getCollection", "pub-private-1"))
			delete(p, drop)
			env := c.send(http.MethodGet, srv.BaseURL, p)
			wantCode(t, env, 30, "Missing mandatory parameter")
			if !strings.Contains(string(env.Data), drop) {
				t.Errorf("missing %s: message %s does not name it", drop, env.Data)
			}
		}
		wantCode(t, c.get(map[string]string{"action": "collection.getCollection"}), 30, "Missing mandatory parameter")
		wantCode(t, c.get(get("collection.getStats", "pub-private-1")), 30, "Missing mandatory parameter")
		wantCode(t, c.get(get("collection.setPermissions", "pub-private-1")), 30, "Missing mandatory parameter")
		wantCode(t, c.post(map[string]string{"action": "collection.createFromTemplate"}), 30, "Missing mandatory parameter")
		wantCode(t, c.upload(get("flipbook.add", "pub-private-1")), 30, "Missing mandatory parameter")
		wantCode(t, c.upload(get("collection.setLogo", "pub-private-1")), 30, "Missing mandatory parameter")
	})
	t.Run("33", func(t *testing.T) {
		other := other.with(t)
		env := other.upload(get("flipbook.add", "other-private-1"), filePart{"a.pdf", bytes.NewReader(minimalPDF(1))})
		wantCode(t, env, 33, "Uploads per month exceeded")
	})
	t.Run("34", func(t *testing.T) {
		c := c.with(t)
		big := append(minimalPDF(1), bytes.Repeat([]byte(" "), 4096)...)
		wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), filePart{"big.pdf", bytes.NewReader(big)}), 34, "File size too large")
		wantCode(t, c.upload(get("collection.setLogo", "pub-private-1"), filePart{"big.png", bytes.NewReader(big)}), 34, "File size too large")
	})
	t.Run("35", func(t *testing.T) {
		c := c.with(t)
		env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"four.pdf", bytes.NewReader(minimalPDF(4))})
		wantCode(t, env, 35, "Collection maximum pages number exceeded")
	})
	t.Run("36", func(t *testing.T) {
		c := c.with(t)
		pdf := minimalPDF(1)
		env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"a.pdf", bytes.NewReader(pdf)}, filePart{"b.pdf", bytes.NewReader(pdf)})
		wantCode(t, env, 36, "Multiple files upload not allowed")
	})
	t.Run("38", func(t *testing.T) {
		c := c.with(t)
		srv.Emulator.SetGenerationDelay(time.Minute)
		defer srv.Emulator.SetGenerationDelay(150 * time.Millisecond)
		env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections})
		wantCode(t, env, 20, "OK")
		var created struct{ CollectionHash string }
		env.into(t, &created)
		wantCode(t, c.get(get("collection.getPermissions", created.CollectionHash)), 38, "Collection is in progress. Please try again later")
		wantCode(t, c.get(map[string]string{"action": "collection.setPermissions", "collectionHash": created.CollectionHash, "permissions": `{"permissions":[]}`}), 38, "Collection is in progress. Please try again later")
		wantCode(t, c.get(get("collection.downloadHTML", created.CollectionHash)), 38, "Collection is in progress. Please try again later")
	})
	t.Run("40", func(t *testing.T) {
		c := c.with(t)
		env := c.post(map[string]string{"action": "collection.createFromTemplate", "sections": `[{"sectionType":"blank"}]`})
		wantCode(t, env, 40, "Bad Request")
		if len(env.errors()) == 0 {
			t.Fatalf("validation failure without data.errors: %s", env.Data)
		}
		wantCode(t, c.post(get("collection.getCollection", "pub-private-1")), 40, "Bad Request")
		for _, path := range []string{"/api/v2/", "/api/v1/more", "/upload/v1/more"} {
			env = c.send(http.MethodGet, srv.URL+path, c.signed(get("collection.getCollection", "pub-private-1")))
			wantCode(t, env, 40, "Bad Request")
		}
	})
	t.Run("41", func(t *testing.T) {
		bad := newTestClient(t, srv)
		bad.key = "nobody"
		wantCode(t, bad.get(get("collection.getCollection", "pub-private-1")), 41, "Invalid credentials")
	})
	t.Run("42", func(t *testing.T) {
		c := c.with(t)
		wantCode(t, c.get(get("collection.fly", "pub-private-1")), 42, "Invalid action")
		wantCode(t, c.get(get("flipbook.delete", "pub-private-1")), 42, "Invalid action")
		// Named by the spec but not described: not emulated rather than unknown.
		wantCode(t, c.post(get("collection.update", "pub-private-1")), 40, "Bad Request")
	})
	t.Run("43", func(t *testing.T) {
		c := c.with(t)
		other := other.with(t)
		wantCode(t, c.get(get("collection.getCollection", "other-private-1")), 43, "Forbidden")
		wantCode(t, other.get(get("collection.getCollection", "pub-public-1")), 43, "Forbidden")
	})
	t.Run("44", func(t *testing.T) {
		c := c.with(t)
		p := c.signed(get("collection.getCollection", "pub-private-1"))
		p["collectionHash"] = "pub-public-1" // changed after signing
		wantCode(t, c.send(http.MethodGet, srv.BaseURL, p), 44, "Invalid signature")
		wrong := newTestClient(t, srv)
		wrong.secret = "not-the-secret"
		wantCode(t, wrong.get(get("collection.getCollection", "pub-private-1")), 44, "Invalid signature")
	})
	t.Run("45", func(t *testing.T) {
		c := c.with(t)
		env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"fake.pdf", strings.NewReader("GIF89a not a pdf")})
		wantCode(t, env, 45, "Invalid file format")
		env = c.upload(get("flipbook.add", "pub-private-1"), filePart{"broken.pdf", strings.NewReader("%PDF-1.4\ngarbage")})
		wantCode(t, env, 45, "Invalid file format")
		env = c.upload(get("collection.setLogo", "pub-private-1"), filePart{"logo.png", strings.NewReader("%PDF-1.4 not an image")})
		wantCode(t, env, 45, "Invalid file format")
	})
	t.Run("46", func(t *testing.T) {
		c := c.with(t)
		wantCode(t, c.get(get("collection.getCollection", "no-such-hash")), 46, "Invalid collection hash")
	})
	t.Run("47", func(t *testing.T) {
		c := c.with(t)
		p := get("collection.getStats", "pub-private-1")
		p["flipbookHash"] = "fb-pub-public-1" // exists, but in another collection
		wantCode(t, c.get(p), 47, "Invalid flipbook hash")
	})
	t.Run("48", func(t *testing.T) {
		c := c.with(t)
		for _, h := range []string{"pub-public-1", "pub-password-1", "draft-1"} {
			wantCode(t, c.get(get("collection.getPermissions", h)), 48, "Permissions are only available for published private flipbooks")
		}
	})
	t.Run("50", func(t *testing.T) {
		c := c.with(t)
		if err := srv.Emulator.SetFaults(1, []string{"permissions_failure"}); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := srv.Emulator.SetFaults(0, nil); err != nil {
				t.Error(err)
			}
		}()
		wantCode(t, c.get(get("collection.getPermissions", "pub-private-1")), 50, "Operation failed")
		// The kind only hits the permissions actions.
		wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
	})
}

func TestRateLimits(t *testing.T) {
	start := func(t *testing.T, perSec, perMin int) (*Server, *testClient, *fakeClock) {
		fx := fastFixture()
		fx.Limits.RequestsPerSecond, fx.Limits.RequestsPerMinute = perSec, perMin
		clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
		srv, err := Start(Options{Fixture: fx, Now: clock.now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		return srv, newTestClient(t, srv), clock
	}
	t.Run("31", func(t *testing.T) {
		_, c, clock := start(t, 3, 0)
		if codes := burst(c, 4); !reflect.DeepEqual(codes, []int{20, 20, 20, 31}) {
			t.Fatalf("codes %v", codes)
		}
		clock.add(999 * time.Millisecond)
		wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 31, "Requests per second limit exceeded")
		clock.add(2 * time.Millisecond) // the burst is now more than a second old
		if codes := burst(c, 4); !reflect.DeepEqual(codes, []int{20, 20, 20, 31}) {
			t.Fatalf("codes after a second %v", codes)
		}
		// Another key has its own budget.
		other := newTestClient(t, c.srv)
		other.key, other.secret = "other-key", "other-secret"
		wantCode(t, other.get(get("collection.getCollection", "other-private-1")), 20, "OK")
	})
	t.Run("32", func(t *testing.T) {
		srv, c, clock := start(t, 0, 2)
		if codes := burst(c, 3); !reflect.DeepEqual(codes, []int{20, 20, 32}) {
			t.Fatalf("codes %v", codes)
		}
		clock.add(59 * time.Second)
		wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 32, "Requests per minute limit exceeded")
		if n := srv.Emulator.Requests()["collection.getCollection"]["32"]; n != 2 {
			t.Fatalf("32 counted %d times", n)
		}
		clock.add(2 * time.Second)
		wantCode(t, c.get(get("collection.getCollection", "pub-private-1")), 20, "OK")
	})
	t.Run("second before minute", func(t *testing.T) {
		_, c, _ := start(t, 1, 1)
		if codes := burst(c, 2); !reflect.DeepEqual(codes, []int{20, 31}) {
			t.Fatalf("codes %v", codes)
		}
	})
}

func burst(c *testClient, n int) []int {
	var codes []int
	for i := 0; i < n; i++ {
		codes = append(codes, c.get(get("collection.getCollection", "pub-private-1")).Code)
	}
	return codes
}
