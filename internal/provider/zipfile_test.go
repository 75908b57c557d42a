package provider

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func testZIP(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create("index.html")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(bytes.Repeat([]byte("<p>page</p>\n"), 100)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func copyBytes(b []byte) func(io.Writer) (int64, error) {
	return func(w io.Writer) (int64, error) { return io.Copy(w, bytes.NewReader(b)) }
}

func TestWriteZIPAtomically(t *testing.T) {
	good := testZIP(t)
	// Flipping a byte inside the compressed data keeps the central
	// directory readable: only the CRC check can catch it.
	corrupt := append([]byte(nil), good...)
	corrupt[60] ^= 0xFF
	fetchErr := errors.New("connection reset")

	cases := []struct {
		name    string
		fill    func(io.Writer) (int64, error)
		wantErr string // "" means success
	}{
		{"valid archive", copyBytes(good), ""},
		{"not a zip", copyBytes([]byte("<html>an error page</html>")), "HTML Package Is Not A Valid ZIP Archive"},
		{"truncated", copyBytes(good[:len(good)/2]), "HTML Package Is Not A Valid ZIP Archive"},
		{"corrupted entry", copyBytes(corrupt), "HTML Package Is Not A Valid ZIP Archive"},
		{"download fails", func(w io.Writer) (int64, error) {
			_, _ = w.Write(good[:10])
			return 10, fetchErr
		}, "connection reset"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sub")
			dest := filepath.Join(dir, "package.zip")
			if tc.wantErr != "" {
				// The previous file survives any failure.
				if err := os.MkdirAll(dir, 0o750); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dest, "previous")
			}
			sum, err := writeZIPAtomically(dest, tc.fill)
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d files, want only the destination (temporary file left?)", len(entries))
			}
			got, _ := os.ReadFile(dest)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, good) || sum.Bytes != int64(len(good)) || sum.Entries != 1 {
					t.Errorf("wrote %d bytes (%+v), want the %d-byte archive with 1 entry", len(got), sum, len(good))
				}
				if st, _ := os.Stat(dest); st.Mode().Perm() != 0o644 {
					t.Errorf("mode %v, want 0644", st.Mode().Perm())
				}
				return
			}
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.wantErr)) {
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
			if string(got) != "previous" {
				t.Errorf("the destination changed to %q after a failure", got)
			}
		})
	}
}

func TestWriteZIPAtomicallyRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := writeZIPAtomically(dir, copyBytes(testZIP(t)))
	var p *fileProblem
	if !errors.As(err, &p) || p.Summary != "Path Is A Directory" {
		t.Fatalf("error %v, want Path Is A Directory", err)
	}
}
