package flipbooktest_test

import (
	"crypto/md5" //nolint:gosec // G501: the spec signs with MD5
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/flipbooktest"
)

// In a test, NewServer starts the emulator and stops it when the test ends;
// Env is the provider's environment, ready for terraform (or Terratest's
// EnvVars).
func ExampleNewServer() {
	_ = func(t *testing.T) {
		srv := flipbooktest.NewServer(t, flipbooktest.WithFixtureFile("testdata/fixture.json"))
		cmd := exec.CommandContext(t.Context(), "terraform", "apply", "-auto-approve")
		cmd.Env = os.Environ()
		for k, v := range srv.Env("") {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform apply: %v\n%s", err, out)
		}
		if n := len(srv.Collections()); n == 0 {
			t.Fatal("the module created no collection")
		}
	}
}

// Start serves the emulator outside one test, for a TestMain that shares it
// across a suite; the caller closes it.
func ExampleStart() {
	srv, err := flipbooktest.Start(flipbooktest.WithGenerationDelay(0))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	env := srv.Env("")
	fmt.Println(env["FLIPBOOK_API_KEY"])
	fmt.Println(strings.HasPrefix(env["FLIPBOOK_BASE_URL"], "http://127.0.0.1:"), strings.HasSuffix(env["FLIPBOOK_BASE_URL"], "/api/v1/"))
	fmt.Println(strings.HasSuffix(env["FLIPBOOK_UPLOAD_URL"], "/upload/v1/"))
	// Output:
	// demo-key
	// true true
	// true
}

// The spec has no way to publish a collection; Publish does what the web
// editor would, and the temporary hash is gone.
func ExampleServer_Publish() {
	srv, err := flipbooktest.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	final, err := srv.Publish("draft-1")
	if err != nil {
		log.Fatal(err)
	}
	c, _ := srv.Collection(final)
	fmt.Println(c.Status, final != "draft-1")
	_, err = srv.Collection("draft-1")
	fmt.Println(err)
	// Output:
	// unlisted true
	// emulator: unknown collection hash
}

// getStats is a user's own minimal client call, signed as the spec says.
func getStats(srv *flipbooktest.Server) int {
	env := srv.Env("")
	p := map[string]string{"action": "user.getStats", "apiKey": env["FLIPBOOK_API_KEY"]}
	keys := []string{"action", "apiKey"}
	sort.Strings(keys)
	h := md5.New() //nolint:gosec // G401: the spec signs with MD5
	h.Write([]byte(env["FLIPBOOK_API_SECRET"]))
	q := url.Values{}
	for _, k := range keys {
		h.Write([]byte(k + p[k]))
		q.Set(k, p[k])
	}
	q.Set("signature", hex.EncodeToString(h.Sum(nil)))
	resp, err := http.Get(srv.BaseURL + "?" + q.Encode())
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var body struct{ Code int }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return -1
	}
	return body.Code
}

// Faults make the network and the service misbehave on purpose; the request
// counters show what a client went through.
func ExampleServer_SetFaults() {
	srv, err := flipbooktest.Start(flipbooktest.WithFaultSeed(7))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.SetFaults(flipbooktest.Faults{Rate: 1, Kinds: []string{flipbooktest.FaultMaintenance}}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(getStats(srv))
	_ = srv.SetFaults(flipbooktest.Faults{})
	fmt.Println(getStats(srv))
	fmt.Println(srv.Requests()["user.getStats"])
	// Output:
	// 22
	// 20
	// map[20:1 22:1]
}

// A suite that shares one server resets it between cases: what a case
// created or deleted is undone.
func ExampleServer_Reset() {
	srv, err := flipbooktest.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	_ = srv.Delete("pub-public-1")
	_ = srv.Rename("pub-private-1", "Renamed")
	srv.Reset()
	a, _ := srv.Collection("pub-public-1")
	b, _ := srv.Collection("pub-private-1")
	fmt.Println(a.Deleted, b.Title)
	// Output: false Handbook
}
