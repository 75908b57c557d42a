package emulator

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

const staticSections = `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}],"elements":[{"name":"headline","value":"Hi"}]},{"sectionType":"blank","pageCount":2}]`

func TestWrongMethodAndAddress(t *testing.T) {
	srv, c := startTest(t, nil)
	cases := []struct {
		method, base, action string
	}{
		{http.MethodPost, srv.BaseURL, "collection.getCollection"},
		{http.MethodGet, srv.BaseURL, "collection.createFromTemplate"},
		{http.MethodGet, srv.UploadURL, "flipbook.add"},
		{http.MethodPost, srv.BaseURL, "flipbook.add"},
		{http.MethodGet, srv.UploadURL, "collection.getCollection"},
	}
	for _, tc := range cases {
		p := c.signed(map[string]string{"action": tc.action, "collectionHash": "pub-private-1"})
		env := c.send(tc.method, tc.base, p)
		if env.Code != 40 || env.Status != "Bad Request" {
			t.Errorf("%s %s %s: got %d %s", tc.method, tc.base, tc.action, env.Code, env.Status)
		}
	}
}

// The base addresses answer without their trailing slash too, and POST
// parameters may come as multipart form fields.
func TestAddressesAndBodies(t *testing.T) {
	srv, c := startTest(t, nil)
	env := c.send(http.MethodGet, strings.TrimSuffix(srv.BaseURL, "/"), c.signed(get("collection.getCollection", "pub-private-1")))
	wantCode(t, env, 20, "OK")
	wantCode(t, c.do(c.uploadRequest(srv.BaseURL, map[string]string{"action": "collection.createFromTemplate", "sections": staticSections})), 20, "OK")
	// The file part is not signed: the same fields with another file still pass.
	p := get("flipbook.add", "pub-private-1")
	wantCode(t, c.upload(p, filePart{"one.pdf", bytes.NewReader(minimalPDF(1))}), 20, "OK")
	wantCode(t, c.upload(p, filePart{"two.pdf", bytes.NewReader(minimalPDF(2))}), 20, "OK")
	// A POST of a GET action with a JSON body is still a wrong method.
	req := c.request(http.MethodPost, srv.BaseURL+"?"+values(c.signed(get("collection.getCollection", "pub-private-1"))).Encode(), nil)
	req.Body = io.NopCloser(strings.NewReader("{}"))
	req.ContentLength = 2
	req.Header.Set("Content-Type", "application/json")
	wantCode(t, c.do(req), 40, "Bad Request")
}

func TestSignatureVector(t *testing.T) {
	// md5("s" + "a1" + "b2") computed by hand; signature itself is left out.
	got := Signature("s", map[string]string{"b": "2", "a": "1", "signature": "x"})
	if got != "08a7d8d97b9242af83cc1971aa352cbe" {
		t.Fatalf("Signature %s", got)
	}
}
