package emulator

import (
	"bytes"
	"encoding/xml"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// TestUploadSizeLimitStreams sends a body just over the default 100 MB limit,
// generated on the fly, and checks that it is refused with 34 without the
// emulator ever holding it in memory.
func TestUploadSizeLimitStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MB")
	}
	fx := fastFixture()
	fx.Limits.MaxUploadBytes = 0 // the default, 100 MB
	_, c := startTest(t, fx)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	body := io.MultiReader(strings.NewReader("%PDF-1.4\n"), io.LimitReader(zeros{}, defaultMaxUploadBytes))
	env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"huge.pdf", body})
	runtime.ReadMemStats(&after)
	wantCode(t, env, 34, "File size too large")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Fatalf("allocated %d MB while streaming a 100 MB upload", grew>>20)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestAddFlipbook(t *testing.T) {
	srv, c := startTest(t, nil)
	env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"dir/Manual.v2.pdf", bytes.NewReader(minimalPDF(3))})
	wantCode(t, env, 20, "OK")
	var fb map[string]any
	env.into(t, &fb)
	if fb["flipbookTitle"] != "Manual.v2" || fb["flipbookDescription"] != "Converted from Manual.v2.pdf" ||
		fb["flipbookPageCount"] != "3" || fb["extension"] != "pdf" || fb["convertStatus"] != "PROCESSING" {
		t.Fatalf("flipbook.add answer %v", fb)
	}
	hash, _ := fb["flipbookHash"].(string)
	col := c.waitFor("pub-private-1", func(col testCollection) bool {
		for _, it := range col.CollectionItems {
			if it.FlipbookHash == hash {
				return it.ConvertStatus == "COMPLETE"
			}
		}
		t.Fatalf("new item missing: %+v", col)
		return false
	})
	if col.CollectionPageCount != float64(4+3) {
		t.Fatalf("collectionPageCount %v", col.CollectionPageCount)
	}
	// Title and description given; quota left drops with each upload.
	p := get("flipbook.add", "pub-private-1")
	p["title"], p["description"] = "T", "D"
	env = c.upload(p, filePart{"x.pdf", bytes.NewReader(minimalPDF(1))})
	env.into(t, &fb)
	if fb["flipbookTitle"] != "T" || fb["flipbookDescription"] != "D" {
		t.Fatalf("given title/description not kept: %v", fb)
	}
	var us map[string]any
	c.get(map[string]string{"action": "user.getStats"}).into(t, &us)
	if us["api_uploads_left"] != float64(98) {
		t.Fatalf("api_uploads_left %v", us["api_uploads_left"])
	}
	if n := srv.Emulator.Requests()["flipbook.add"]["20"]; n != 2 {
		t.Fatalf("flipbook.add counted %d", n)
	}
}

func TestFileURL(t *testing.T) {
	pdf := minimalPDF(2)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.pdf":
			_, _ = w.Write(pdf)
		case "/logo.svg":
			_, _ = w.Write([]byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`))
		case "/big.pdf":
			_, _ = w.Write(append(append([]byte{}, pdf...), make([]byte, 4096)...))
		default:
			http.NotFound(w, r)
		}
	}))
	defer files.Close()
	fx := fastFixture()
	fx.Limits.MaxUploadBytes = 2048
	_, c := startTest(t, fx)

	p := get("flipbook.add", "pub-private-1")
	p["fileUrl"] = files.URL + "/doc.pdf"
	env := c.upload(p)
	wantCode(t, env, 20, "OK")
	var fb map[string]any
	env.into(t, &fb)
	if fb["flipbookPageCount"] != "2" || fb["flipbookTitle"] != "doc" {
		t.Fatalf("fetched document: %v", fb)
	}
	p["fileUrl"] = files.URL + "/big.pdf"
	wantCode(t, c.upload(p), 34, "File size too large")
	p["fileUrl"] = files.URL + "/missing.pdf"
	wantCode(t, c.upload(p), 40, "Bad Request")
	p["fileUrl"] = "ftp://127.0.0.1/doc.pdf"
	wantCode(t, c.upload(p), 40, "Bad Request")

	// A file part wins over fileUrl.
	p["fileUrl"] = files.URL + "/doc.pdf"
	wantCode(t, c.upload(p, filePart{"x.txt", strings.NewReader("plain text")}), 45, "Invalid file format")

	l := get("collection.setLogo", "pub-private-1")
	l["fileUrl"] = files.URL + "/logo.svg"
	env = c.upload(l)
	wantCode(t, env, 20, "OK")
	var col struct{ Settings map[string]any }
	env.into(t, &col)
	if s, _ := col.Settings["logoImage"].(string); !strings.HasSuffix(s, ".svg") {
		t.Fatalf("logoImage %q", s)
	}
}

func TestSetLogoFormats(t *testing.T) {
	srv, c := startTest(t, nil)
	images := map[string][]byte{
		"png":  []byte("\x89PNG\r\n\x1a\nrest"),
		"jpg":  {0xFF, 0xD8, 0xFF, 0xE0, 0, 0},
		"gif":  []byte("GIF89a...."),
		"webp": []byte("RIFF\x10\x00\x00\x00WEBPVP8 "),
		"svg":  []byte("\n  <svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"),
	}
	for ext, b := range images {
		p := get("collection.setLogo", "pub-private-1")
		p["logoUrl"] = "https://example.com/" + ext
		env := c.upload(p, filePart{"logo.bin", bytes.NewReader(b)})
		wantCode(t, env, 20, "OK")
		var col struct {
			CollectionHash string
			Settings       map[string]any
		}
		env.into(t, &col)
		logo, _ := col.Settings["logoImage"].(string)
		if col.CollectionHash != "pub-private-1" || !strings.HasSuffix(logo, "."+ext) {
			t.Fatalf("%s: logoImage %q", ext, logo)
		}
		v, _ := srv.Emulator.Collection("pub-private-1")
		if v.LogoImage != logo || v.LogoURL != "https://example.com/"+ext {
			t.Fatalf("%s: recorded %q %q", ext, v.LogoImage, v.LogoURL)
		}
	}
}

func TestResponseFormats(t *testing.T) {
	srv, c := startTest(t, nil)
	p := get("collection.getStats", "pub-private-1")
	p["flipbookHash"] = "fb-pub-private-1"

	p["format"] = "xml"
	_, hdr, b, err := c.fetch(c.request(http.MethodGet, srv.BaseURL, c.signed(p)))
	if err != nil {
		t.Fatal(err)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") {
		t.Fatalf("xml content type %q", ct)
	}
	var x struct {
		XMLName xml.Name `xml:"response"`
		Code    int      `xml:"code"`
		Status  string   `xml:"status"`
		Data    struct {
			Views     int `xml:"views"`
			TimeSpent int `xml:"time_spent"`
			Downloads int `xml:"downloads"`
		} `xml:"data"`
	}
	if err := xml.Unmarshal(b, &x); err != nil || x.Code != 20 || x.Status != "OK" || x.Data.Views != 120 || x.Data.TimeSpent != 95 || x.Data.Downloads != 7 {
		t.Fatalf("xml %s: %+v %v", b, x, err)
	}

	p["format"], p["callback"] = "jsonp", "cb.done"
	_, hdr, b, err = c.fetch(c.request(http.MethodGet, srv.BaseURL, c.signed(p)))
	want := `cb.done({"code":20,"status":"OK","data":{"views":120,"time_spent":95,"downloads":7}});`
	if err != nil || string(b) != want || !strings.HasPrefix(hdr.Get("Content-Type"), "application/javascript") {
		t.Fatalf("jsonp %s (%s) %v", b, hdr.Get("Content-Type"), err)
	}

	delete(p, "callback")
	wantCode(t, c.get(p), 30, "Missing mandatory parameter")
	p["callback"] = "alert(1)"
	wantCode(t, c.get(p), 40, "Bad Request")
	p["format"] = "yaml"
	wantCode(t, c.get(p), 40, "Bad Request")

	// Arrays in XML are repeated <item> elements; errors use the format too.
	d := map[string]string{"action": "collection.deleteBackgroundImage", "collectionHash": "pub-private-1", "format": "xml"}
	_, _, b, err = c.fetch(c.request(http.MethodGet, srv.BaseURL, c.signed(d)))
	if err != nil {
		t.Fatal(err)
	}
	var col struct {
		Code int `xml:"code"`
		Data struct {
			Settings struct {
				BackgroundColor       string `xml:"backgroundColor"`
				TransparentBackground string `xml:"transparentBackground"`
			} `xml:"settings"`
			Items []struct {
				FlipbookHash string `xml:"flipbookHash"`
			} `xml:"collectionItems>item"`
		} `xml:"data"`
	}
	if err := xml.Unmarshal(b, &col); err != nil || col.Code != 20 || col.Data.Settings.BackgroundColor != "#FFFFFF" ||
		col.Data.Settings.TransparentBackground != "false" || len(col.Data.Items) != 1 || col.Data.Items[0].FlipbookHash != "fb-pub-private-1" {
		t.Fatalf("deleteBackgroundImage xml %s: %+v %v", b, col, err)
	}
	if v, _ := srv.Emulator.Collection("pub-private-1"); v.BackgroundImage {
		t.Fatal("background image still recorded")
	}
	d["collectionHash"] = "nope"
	_, _, b, err = c.fetch(c.request(http.MethodGet, srv.BaseURL, c.signed(d)))
	if err != nil || string(b) != "<response><code>46</code><status>Invalid collection hash</status></response>" {
		t.Fatalf("xml error %s", b)
	}
}

// A body that goes on past the drain bound is abandoned: answered at once
// with 34 (or 36 for a second file), before authentication.
func TestUploadAbandoned(t *testing.T) {
	fx := fastFixture()
	fx.Limits.MaxUploadBytes = 1024
	e, err := New(Options{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	e.drainBytes = 8 << 10
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Serve(e, ln)
	defer srv.Close()
	c := newTestClient(t, srv)
	c.secret = "wrong" // authentication would say 44
	huge := func() io.Reader { return io.LimitReader(zeros{}, 64<<10) }
	wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), filePart{"big.pdf", huge()}), 34, "File size too large")
	pdf := minimalPDF(1)
	env := c.upload(get("flipbook.add", "pub-private-1"), filePart{"a.pdf", bytes.NewReader(pdf)}, filePart{"b.pdf", huge()})
	wantCode(t, env, 36, "Multiple files upload not allowed")
	// Within the drain bound the whole body is read and authentication runs.
	wantCode(t, c.upload(get("flipbook.add", "pub-private-1"), filePart{"big.pdf", io.LimitReader(zeros{}, 4<<10)}), 44, "Invalid signature")
}
