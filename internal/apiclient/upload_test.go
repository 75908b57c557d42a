package apiclient

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// zeroReader yields n zero bytes without holding them; it has no WriteTo,
// so the client's own copy loop is what gets measured.
type zeroReader struct{ left int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), z.left)
	clear(p[:n])
	z.left -= n
	return int(n), nil
}

// discardServer streams each multipart body to io.Discard and reports the
// file part's size.
func discardServer(t testing.TB, got *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet { // the collection.getCollection made before an upload
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionItems":[]}`))
			return
		}
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			n, _ := io.Copy(io.Discard, p)
			if p.FormName() == "file" {
				got.Store(n)
			}
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"flipbookHash":"f-big"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func uploadClient(t testing.TB, srv *httptest.Server) *Client {
	c, err := New(Config{BaseURL: srv.URL + "/api/v1/", UploadURL: srv.URL + "/upload/v1/", APIKey: testKey, Secret: testSecret})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A 100 MB upload streams: the bytes allocated by the whole process (client
// and test server together) stay a tiny fraction of the file.
func TestUpload100MBStreamsWithoutBuffering(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 100 MB over loopback")
	}
	const size = 100 << 20
	var got atomic.Int64
	c := uploadClient(t, discardServer(t, &got))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1",
		File: &Upload{Name: "big.pdf", Body: &zeroReader{left: size}, Size: size}})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got.Load() != size {
		t.Fatalf("server received %d bytes, want %d", got.Load(), size)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("bytes allocated for a 100 MB upload: %d", alloc)
	if alloc > 4<<20 {
		t.Errorf("allocated %d bytes for a %d-byte upload: the body is being buffered", alloc, size)
	}
}

func BenchmarkUpload100MB(b *testing.B) {
	const size = 100 << 20
	var got atomic.Int64
	c := uploadClient(b, discardServer(b, &got))
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.AddFlipbook(b.Context(), AddFlipbookInput{CollectionHash: "c-1",
			File: &Upload{Name: "big.pdf", Body: &zeroReader{left: size}, Size: size}}); err != nil {
			b.Fatal(err)
		}
	}
}

// A throttled upload is re-sent from the start when its body can seek.
func TestThrottledUploadRewindsSeekableFile(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			writeJSON(w, http.StatusOK, throttleBody)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","settings":{"logoImage":"l"}}`))
	})
	c, _ := newTestClient(t, f, nil)
	content := strings.Repeat("logo-bytes ", 1000)
	body := bytes.NewReader([]byte("HEADER" + content))
	_, _ = body.Seek(6, io.SeekStart) // the upload starts mid-reader
	if _, err := c.SetLogo(t.Context(), SetLogoInput{CollectionHash: "c-1",
		File: &Upload{Name: "logo.png", Body: body}}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || string(reqs[0].File) != content || string(reqs[1].File) != content {
		t.Fatalf("requests %d; files %d and %d bytes", len(reqs), len(reqs[0].File), len(reqs[len(reqs)-1].File))
	}
}

// A body that cannot seek is sent once: the throttle is returned rather
// than an upload with a half-read file.
func TestThrottledUploadOfNonSeekableBodyIsNotResent(t *testing.T) {
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		if c.Params.Get("action") == ActionGetCollection {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
			return
		}
		writeJSON(w, http.StatusOK, throttleBody)
	})
	c, _ := newTestClient(t, f, nil)
	_, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1",
		File: &Upload{Name: "a.pdf", Body: io.MultiReader(strings.NewReader("%PDF-1.4"))}})
	if n := len(actionsSent(f, ActionAddFlipbook)); !IsThrottled(err) || n != 1 {
		t.Errorf("err = %v after %d uploads, want a throttle after 1", err, n)
	}
}

type failingReader struct{ err error }

func (r *failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestUploadReaderErrorIsNotAmbiguous(t *testing.T) {
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		if c.Params.Get("action") == ActionGetCollection {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"flipbookHash":"f"}`))
	})
	c, fs := newTestClient(t, f, nil)
	boom := errors.New("disk on fire")
	_, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1",
		File: &Upload{Name: "a.pdf", Body: io.MultiReader(strings.NewReader("%PDF"), &failingReader{boom})}})
	if !errors.Is(err, boom) || IsOutcomeUnknown(err) || len(fs.recorded()) != 0 {
		t.Errorf("err = %v (backoffs %v), want the reader's error, final and not ambiguous", err, fs.recorded())
	}
}
