package provider

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// zipSummary is what writeZIPAtomically checked in the archive it wrote.
type zipSummary struct {
	Bytes   int64
	Entries int
}

// writeZIPAtomically writes the ZIP archive fill produces to dest, so that
// dest is either left as it was or holds the complete, valid archive: fill
// writes a temporary file in dest's directory (the same file system, so the
// rename is atomic), every entry of the result is read back through
// archive/zip (which checks each entry's CRC-32), and only then is the file
// renamed over dest. Missing parent directories are created. On any failure
// the temporary file is removed and dest is untouched.
func writeZIPAtomically(dest string, fill func(io.Writer) (int64, error)) (zipSummary, error) {
	dir := filepath.Dir(dest)
	if st, err := os.Stat(dest); err == nil && st.IsDir() {
		return zipSummary{}, &fileProblem{Summary: "Path Is A Directory",
			Detail: fmt.Sprintf("%q is a directory. Set path to the file the ZIP archive is written to, such as %q.",
				dest, filepath.Join(dest, "package.zip"))}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // G301: a download directory the user names, readable like one made by hand
		return zipSummary{}, writeProblem(dest, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return zipSummary{}, writeProblem(dest, err)
	}
	name := tmp.Name()
	keep := false
	defer func() {
		if !keep {
			_ = os.Remove(name)
		}
	}()

	n, err := fill(tmp)
	if err != nil {
		tmp.Close()
		return zipSummary{}, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return zipSummary{}, writeProblem(dest, err)
	}
	if err := tmp.Close(); err != nil {
		return zipSummary{}, writeProblem(dest, err)
	}
	entries, err := checkZIP(name)
	if err != nil {
		return zipSummary{}, &fileProblem{Summary: "HTML Package Is Not A Valid ZIP Archive", Err: err,
			Detail: fmt.Sprintf("The %d bytes downloaded are not a complete ZIP archive (%v), so %q was left as it was. "+
				"Run the action again; if it keeps failing, the service is sending a damaged package.", n, err, dest)}
	}
	if err := os.Chmod(name, 0o644); err != nil { //nolint:gosec // G302: the package is published content, as readable as a downloaded file
		return zipSummary{}, writeProblem(dest, err)
	}
	if err := os.Rename(name, dest); err != nil {
		return zipSummary{}, writeProblem(dest, err)
	}
	keep = true
	return zipSummary{Bytes: n, Entries: entries}, nil
}

// checkZIP opens the archive at name and reads every entry to its end, so a
// truncated or corrupted archive fails here rather than in the user's hands.
func checkZIP(name string) (int, error) {
	r, err := zip.OpenReader(name)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			return 0, fmt.Errorf("entry %q: %w", f.Name, err)
		}
		// The CRC check needs the whole entry. Reading into io.Discard keeps
		// nothing, so even a decompression bomb would cost time, not memory
		// or disk; the archive comes from the user's own account.
		_, err = io.Copy(io.Discard, rc) //nolint:gosec // G110: see above
		rc.Close()
		if err != nil {
			return 0, fmt.Errorf("entry %q: %w", f.Name, err)
		}
	}
	return len(r.File), nil
}

func writeProblem(dest string, err error) *fileProblem {
	return &fileProblem{Summary: "Cannot Write File", Err: err,
		Detail: fmt.Sprintf("Writing %q failed: %v. Check that its directory is writable, or set path elsewhere; "+
			"a relative path is taken from the directory Terraform runs in.", dest, err)}
}
