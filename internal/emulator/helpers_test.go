package emulator

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

// testSign signs parameters the way the spec describes, written
// independently of Signature so that each checks the other.
func testSign(secret string, params map[string]string) string {
	var keys []string
	for k := range params {
		if k != "signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var sb strings.Builder
	sb.WriteString(secret)
	for _, k := range keys {
		sb.WriteString(k + params[k])
	}
	sum := md5.Sum([]byte(sb.String()))
	return hex.EncodeToString(sum[:])
}

type envelope struct {
	Code   int             `json:"code"`
	Status string          `json:"status"`
	Data   json.RawMessage `json:"data"`
}

func (e envelope) errors() []string {
	var d struct {
		Errors []string `json:"errors"`
	}
	_ = json.Unmarshal(e.Data, &d)
	return d.Errors
}

func (e envelope) into(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(e.Data, v); err != nil {
		t.Fatalf("data %s: %v", e.Data, err)
	}
}

// testClient speaks to an emulator as a client of the API would.
type testClient struct {
	t           *testing.T
	srv         *Server
	key, secret string
	hc          *http.Client
}

func newTestClient(t *testing.T, srv *Server) *testClient {
	return &testClient{t: t, srv: srv, key: "demo-key", secret: "demo-secret", hc: &http.Client{Timeout: 30 * time.Second}}
}

// with is the same client reporting to t (a subtest).
func (c *testClient) with(t *testing.T) *testClient {
	cp := *c
	cp.t = t
	return &cp
}

// signed adds apiKey and signature to params (a copy).
func (c *testClient) signed(params map[string]string) map[string]string {
	p := map[string]string{"apiKey": c.key}
	for k, v := range params {
		p[k] = v
	}
	p["signature"] = testSign(c.secret, p)
	return p
}

func values(p map[string]string) url.Values {
	v := url.Values{}
	for k, s := range p {
		v.Set(k, s)
	}
	return v
}

// request builds a call with params as they are (no signing): a query for
// GET, a urlencoded body otherwise.
func (c *testClient) request(method, base string, p map[string]string) *http.Request {
	c.t.Helper()
	var req *http.Request
	var err error
	if method == http.MethodGet {
		req, err = http.NewRequestWithContext(c.t.Context(), method, base+"?"+values(p).Encode(), nil)
	} else {
		req, err = http.NewRequestWithContext(c.t.Context(), method, base, strings.NewReader(values(p).Encode()))
		if err == nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return req
}

// fetch sends a request and returns what came back, or the transport error;
// it never fails the test, so goroutines may use it.
func (c *testClient) fetch(req *http.Request) (status int, header http.Header, body []byte, err error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body, err
}

// do sends a request and decodes the envelope, which must come with HTTP 200.
func (c *testClient) do(req *http.Request) envelope {
	c.t.Helper()
	status, _, b, err := c.fetch(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	if status != http.StatusOK {
		c.t.Fatalf("HTTP %d: %s", status, b)
	}
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		c.t.Fatalf("not an envelope: %q: %v", b, err)
	}
	return env
}

// send sends params as they are and decodes the envelope.
func (c *testClient) send(method, base string, p map[string]string) envelope {
	c.t.Helper()
	return c.do(c.request(method, base, p))
}

func (c *testClient) get(p map[string]string) envelope {
	c.t.Helper()
	return c.send(http.MethodGet, c.srv.BaseURL, c.signed(p))
}

func (c *testClient) post(p map[string]string) envelope {
	c.t.Helper()
	return c.send(http.MethodPost, c.srv.BaseURL, c.signed(p))
}

type filePart struct {
	name string
	body io.Reader
}

// uploadRequest builds a streaming multipart request: fields first, then
// the files, never buffered whole.
func (c *testClient) uploadRequest(base string, p map[string]string, files ...filePart) *http.Request {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	signed := c.signed(p)
	go func() {
		for k, v := range signed {
			if err := mw.WriteField(k, v); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		for _, f := range files {
			w, err := mw.CreateFormFile("file", f.name)
			if err == nil {
				_, err = io.Copy(w, f.body)
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, err := http.NewRequestWithContext(c.t.Context(), http.MethodPost, base, pr)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

func (c *testClient) upload(p map[string]string, files ...filePart) envelope {
	c.t.Helper()
	return c.do(c.uploadRequest(c.srv.UploadURL, p, files...))
}

func wantCode(t *testing.T, env envelope, code int, status string) {
	t.Helper()
	if env.Code != code || env.Status != status {
		t.Fatalf("got code %d %q (data %s), want %d %q", env.Code, env.Status, env.Data, code, status)
	}
}

// fastFixture is the demo world with short delays.
func fastFixture() *Fixture {
	fx := DemoFixture()
	ms := func(n int64) *int64 { return &n }
	fx.Generation.DelayMs = ms(150)
	fx.Generation.ConversionDelayMs = ms(100)
	fx.Generation.PackageDelayMs = ms(100)
	return fx
}

func startTest(t *testing.T, fx *Fixture) (*Server, *testClient) {
	t.Helper()
	if fx == nil {
		fx = fastFixture()
	}
	srv, err := Start(Options{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, newTestClient(t, srv)
}

// startClocked is startTest with opts (fastFixture() when opts.Fixture is
// nil) and a clock that stands at 2026-03-01 10:00 UTC until the test moves
// it.
func startClocked(t *testing.T, opts Options) (*fakeClock, *Server, *testClient) {
	t.Helper()
	clock := &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	if opts.Fixture == nil {
		opts.Fixture = fastFixture()
	}
	opts.Now = clock.now
	srv, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return clock, srv, newTestClient(t, srv)
}

// minimalPDF writes a valid PDF with n empty pages and a correct xref.
func minimalPDF(n int) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, n)
	for i := range kids {
		kids[i] = fmt.Sprintf("%d 0 R", i+3)
	}
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	for i := 0; i < n; i++ {
		obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// testCollection is the part of getCollection's answer the tests read;
// numbers are kept as decoded (float64, or string under stringScalars).
type testCollection struct {
	CollectionHash      string
	CollectionTitle     string
	CollectionStatus    string
	FlipbookStatus      string
	CreatedDate         string
	PublishDate         string
	CollectionPageCount any
	FlipbookPageCount   any
	Settings            map[string]any
	CollectionItems     []struct {
		FlipbookHash      string
		FlipbookPageCount any
		Extension         string
		ConvertStatus     string
	}
}

func (c *testClient) collection(hash string) testCollection {
	c.t.Helper()
	env := c.get(map[string]string{"action": "collection.getCollection", "collectionHash": hash})
	wantCode(c.t, env, 20, "OK")
	var col testCollection
	env.into(c.t, &col)
	return col
}

// waitFor polls getCollection until cond holds or three seconds pass.
func (c *testClient) waitFor(hash string, cond func(testCollection) bool) testCollection {
	c.t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		col := c.collection(hash)
		if cond(col) {
			return col
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("collection %s never got there: %+v", hash, col)
		}
		time.Sleep(30 * time.Millisecond)
	}
}
