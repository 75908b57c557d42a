package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchRequest is a signed GET of the demo account, built once per
// benchmark so that only the emulator's own work is measured.
func benchRequest(b *testing.B, params map[string]string) *http.Request {
	b.Helper()
	p := map[string]string{"apiKey": "demo-key"}
	for k, v := range params {
		p[k] = v
	}
	p["signature"] = testSign("demo-secret", p)
	return httptest.NewRequest(http.MethodGet, "/api/v1/?"+values(p).Encode(), nil)
}

func benchServe(b *testing.B, h http.Handler, req *http.Request) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"code":20`) {
		b.Fatalf("not a success: %s", rec.Body.String())
	}
}

// BenchmarkGetCollection is the call every refresh and every wait makes,
// from parallel goroutines as Terraform's parallel resources send it.
func BenchmarkGetCollection(b *testing.B) {
	e, err := New(Options{Fixture: DemoFixture()})
	if err != nil {
		b.Fatal(err)
	}
	h := e.Handler()
	req := benchRequest(b, map[string]string{"action": "collection.getCollection", "collectionHash": "pub-private-1"})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			benchServe(b, h, req.Clone(req.Context()))
		}
	})
}

// BenchmarkCreateCatalog validates and evaluates a catalog of the demo feed
// with filters, sorting and grouping, as collection.createCatalog does.
func BenchmarkCreateCatalog(b *testing.B) {
	e, err := New(Options{Fixture: DemoFixture()})
	if err != nil {
		b.Fatal(err)
	}
	h := e.Handler()
	sections, _ := json.Marshal([]map[string]any{{
		"sectionType": "feed",
		"sources":     []map[string]string{{"sourceHash": "feed-shoes"}},
		"templates":   []map[string]string{{"templateHash": "tpl-product"}},
		"groupBy":     []map[string]any{{"field": "brand", "pageBreak": true}},
		"sortBy":      []map[string]any{{"field": "price", "order": "desc"}},
		"filters": []map[string]any{{"mode": "include", "conditions": []map[string]any{
			{"field": "price", "operator": "between", "value": []string{"10", "200"}},
		}}},
	}})
	p := map[string]string{"apiKey": "demo-key", "action": "collection.createCatalog", "sections": string(sections), "title": "Bench"}
	p["signature"] = testSign("demo-secret", p)
	body := values(p).Encode()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		benchServe(b, h, req)
	}
}
