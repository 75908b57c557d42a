package emulator

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// mixedCatalog selects nine shoes of the demo feed.
const mixedCatalog = `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-product"}],
	"filters":[{"mode":"include","conditions":[{"field":"brand","operator":"eq","value":"Acme"}]}]}]`

// mixedFixture makes every outcome independent of timing: with a frozen
// clock generation is instant, a package is ready at once, and a converted
// upload stays processing, so each call has exactly one right answer.
func mixedFixture() *Fixture {
	fx := fastFixture()
	ms := func(n int64) *int64 { return &n }
	fx.Generation.DelayMs = ms(0)
	fx.Generation.PackageDelayMs = ms(0)
	fx.Generation.ConversionDelayMs = ms(60_000)
	return fx
}

func tinyPNG(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestConcurrentMixedWorkload runs reads, generations, uploads, package
// downloads and control calls (publish, access, delete, listings) at once
// against an emulator that persists its state after every change. Under
// -race it proves the locking of every path; the answers, the request
// counters and a reload of the state file prove nothing was lost or mixed up.
func TestConcurrentMixedWorkload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	srv, err := Start(Options{Fixture: mixedFixture(), StateFile: path, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	e := srv.Emulator
	pdf, logo := minimalPDF(1), tinyPNG(t)

	var sent atomic.Int64
	// call sends one API request; it never fails the test, so goroutines use it.
	call := func(req *http.Request) (envelope, error) {
		sent.Add(1)
		status, _, b, err := c.fetch(req)
		if err != nil {
			return envelope{}, err
		}
		var env envelope
		if status != http.StatusOK {
			return env, fmt.Errorf("HTTP %d: %s", status, b)
		}
		if err := json.Unmarshal(b, &env); err != nil || env.Status == "" {
			return env, fmt.Errorf("not an envelope: %q", b)
		}
		return env, nil
	}
	getReq := func(p map[string]string) *http.Request {
		return c.request(http.MethodGet, srv.BaseURL, c.signed(p))
	}
	postReq := func(p map[string]string) *http.Request {
		return c.request(http.MethodPost, srv.BaseURL, c.signed(p))
	}
	mustOK := func(req *http.Request) envelope {
		t.Helper()
		env, err := call(req)
		if err != nil {
			t.Fatal(err)
		}
		wantCode(t, env, 20, "OK")
		return env
	}
	create := func() string {
		t.Helper()
		var created struct{ CollectionHash string }
		mustOK(postReq(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "Mixed"})).into(t, &created)
		return created.CollectionHash
	}

	const rounds = 17
	var pubT, delT, accT []string
	for range rounds {
		pubT, delT, accT = append(pubT, create()), append(delT, create()), append(accT, create())
	}
	// One upload first: pub-private-1 stays converting, so downloadHTML on it is 38 throughout.
	mustOK(c.uploadRequest(srv.UploadURL, get("flipbook.add", "pub-private-1"), filePart{"first.pdf", bytes.NewReader(pdf)}))
	before, _ := e.Collection("pub-private-1")

	const kinds = 18
	n := kinds * rounds
	problems := make([]error, n)
	published := make([]string, rounds)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			problems[i] = mixedCall(i%kinds, i/kinds, mixedDeps{
				call: call, get: getReq, post: postReq, c: c, srv: srv, pdf: pdf, logo: logo,
				pubT: pubT, delT: delT, accT: accT, published: published,
			})
		})
	}
	wg.Wait()
	for i, err := range problems {
		if err != nil {
			t.Errorf("call %d (kind %d): %v", i, i%kinds, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Afterwards each target answers as its last control call left it.
	for k := range rounds {
		for hash, code := range map[string]int{pubT[k]: 46, published[k]: 20, delT[k]: 43} {
			env, err := call(getReq(get("collection.getCollection", hash)))
			if err != nil || env.Code != code {
				t.Fatalf("%s: code %d (%v), want %d", hash, env.Code, err, code)
			}
		}
		if v, _ := e.Collection(accT[k]); v.Private || v.Status != "public" {
			t.Fatalf("access of %s not kept: %+v", accT[k], v)
		}
	}
	after, _ := e.Collection("pub-private-1")
	if len(after.Items) != len(before.Items)+rounds {
		t.Fatalf("%d flipbooks, want %d", len(after.Items), len(before.Items)+rounds)
	}

	// A last change through the API alone, so that the reload below also
	// proves API calls persist (the control calls above persist too).
	lastHash := create()

	total := 0
	for _, m := range e.Requests() {
		for _, v := range m {
			total += v
		}
	}
	if int64(total) != sent.Load() {
		t.Fatalf("%d calls counted, %d sent", total, sent.Load())
	}
	fx := mixedFixture()
	cols := e.Collections()
	if want := len(fx.Accounts[0].Collections) + len(fx.Accounts[1].Collections) + 3*rounds + 2*rounds + 1; len(cols) != want {
		t.Fatalf("%d collections, want %d", len(cols), want)
	}

	srv.Close()
	reloaded, err := New(Options{Fixture: fx, StateFile: path, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reloaded.Collection(lastHash); err != nil {
		t.Fatalf("last created collection %s not saved: %v", lastHash, err)
	}
	if got := reloaded.Collections(); !reflect.DeepEqual(cols, got) {
		t.Fatalf("state file does not hold what was served\nserved %+v\nloaded %+v", cols, got)
	}
}

type mixedDeps struct {
	call             func(*http.Request) (envelope, error)
	get, post        func(map[string]string) *http.Request
	c                *testClient
	srv              *Server
	pdf, logo        []byte
	pubT, delT, accT []string
	published        []string // filled by the publishing calls, one slot each
}

// mixedCall makes call number k of the given kind and checks its answer.
func mixedCall(kind, k int, d mixedDeps) error {
	e := d.srv.Emulator
	var req *http.Request
	codes := []int{20}
	switch kind {
	case 0:
		req = d.get(get("collection.getCollection", "pub-private-1"))
	case 1:
		req = d.get(get("collection.getPermissions", "pub-private-1"))
	case 2:
		req = d.get(get("collection.getEmbed", "pub-private-1"))
	case 3:
		p := get("collection.getStats", "pub-public-1")
		p["flipbookHash"] = "fb-pub-public-1"
		req = d.get(p)
	case 4:
		req = d.get(map[string]string{"action": "user.getStats"})
	case 5:
		req = d.post(map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "Mixed/Load"})
	case 6:
		req = d.post(map[string]string{"action": "collection.createCatalog", "sections": mixedCatalog})
	case 7:
		req = d.get(map[string]string{"action": "collection.setPermissions", "collectionHash": "pub-private-1",
			"permissions": `{"permissions":[{"type":"teammate","group":"Sales"}]}`})
	case 8:
		req = d.c.uploadRequest(d.srv.UploadURL, get("flipbook.add", "pub-private-1"), filePart{fmt.Sprintf("doc-%d.pdf", k), bytes.NewReader(d.pdf)})
	case 9:
		req = d.c.uploadRequest(d.srv.UploadURL, get("collection.setLogo", "pub-private-1"), filePart{"logo.png", bytes.NewReader(d.logo)})
	case 10:
		return fetchPackage(d)
	case 11:
		req, codes = d.get(get("collection.downloadHTML", "pub-private-1")), []int{38}
	case 12:
		h, err := e.Publish(d.pubT[k])
		d.published[k] = h
		return err
	case 13:
		req, codes = d.get(get("collection.getCollection", d.pubT[k])), []int{20, 46}
	case 14:
		return e.Delete(d.delT[k])
	case 15:
		req, codes = d.get(get("collection.getCollection", d.delT[k])), []int{20, 43}
	case 16:
		no, public := false, "public"
		return e.SetAccess(d.accT[k], &no, nil, &public)
	case 17:
		if len(e.Collections()) == 0 || len(e.Requests()) == 0 {
			return fmt.Errorf("empty listing while calls run")
		}
		return nil
	}
	env, err := d.call(req)
	if err != nil {
		return err
	}
	for _, want := range codes {
		if env.Code == want {
			return nil
		}
	}
	return fmt.Errorf("code %d %q (%s), want one of %v", env.Code, env.Status, env.Data, codes)
}

// fetchPackage asks for pub-public-1's package, ready at once, and downloads it.
func fetchPackage(d mixedDeps) error {
	env, err := d.call(d.get(get("collection.downloadHTML", "pub-public-1")))
	if err != nil {
		return err
	}
	var pkg struct{ Status, ResourceURL string }
	if env.Code != 20 || json.Unmarshal(env.Data, &pkg) != nil || pkg.Status != "COMPLETE" {
		return fmt.Errorf("downloadHTML: code %d %s", env.Code, env.Data)
	}
	req, err := http.NewRequestWithContext(d.c.t.Context(), http.MethodGet, pkg.ResourceURL, nil)
	if err != nil {
		return err
	}
	status, _, b, err := d.c.fetch(req)
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("package %s: HTTP %d: %w", pkg.ResourceURL, status, err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || len(zr.File) == 0 {
		return fmt.Errorf("package is no zip with files: %w", err)
	}
	return nil
}

// TestConcurrentCalls runs a few hundred mixed calls at once; with -race it
// proves the locking, and the counters prove every call was counted once.
func TestConcurrentCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	fx := fastFixture()
	fx.Generation.DelayMs = new(int64)
	srv, err := Start(Options{Fixture: fx, StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newTestClient(t, srv)
	const n = 300
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var p map[string]string
			switch i % 5 {
			case 0:
				p = get("collection.getCollection", "pub-private-1")
			case 1:
				p = map[string]string{"action": "collection.createFromTemplate", "sections": staticSections, "folder": "Load"}
			case 2:
				p = map[string]string{"action": "collection.setPermissions", "collectionHash": "pub-private-1", "permissions": `{"permissions":[{"type":"teammate","notifyViaEmail":true}]}`}
			case 3:
				p = get("collection.downloadHTML", "pub-private-1")
			case 4:
				p = map[string]string{"action": "user.getStats"}
			}
			method := http.MethodGet
			if i%5 == 1 {
				method = http.MethodPost
			}
			codes[i] = -1
			status, _, b, err := c.fetch(c.request(method, srv.BaseURL, c.signed(p)))
			var env envelope
			if err == nil && status == http.StatusOK && json.Unmarshal(b, &env) == nil {
				codes[i] = env.Code
			}
		}(i)
	}
	wg.Wait()
	for i, code := range codes {
		if code != 20 {
			t.Fatalf("call %d answered %d", i, code)
		}
	}
	total := 0
	for _, m := range srv.Emulator.Requests() {
		for _, v := range m {
			total += v
		}
	}
	if total != n {
		t.Fatalf("%d calls counted, want %d", total, n)
	}
	if got := len(srv.Emulator.Collections()); got != len(fx.Accounts[0].Collections)+len(fx.Accounts[1].Collections)+n/5 {
		t.Fatalf("%d collections", got)
	}
	if got := len(srv.Emulator.Notifications()); got != 4*n/5 {
		t.Fatalf("%d notifications", got)
	}
}
