package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// The state file's format and its reading are the store's (package store,
// statefile.go); writing it to disk is the emulator's.

// loadState replaces the fixture's collections by the saved ones when the
// state file exists, keeping only fixture collections the state has never
// seen. Data of accounts the fixture no longer has is dropped.
func (e *Emulator) loadState() error {
	b, err := os.ReadFile(e.state)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	st, err := store.ReadState(b)
	if err != nil {
		return fmt.Errorf("state file %s: %w", e.state, err)
	}
	e.store.Restore(st)
	return nil
}

// persist writes the state file when something changed since the last
// write: the store is copied under its lock, then written (under persistMu,
// which orders the writes) to a temporary file renamed over the state file,
// so a reader never sees a partial file.
func (e *Emulator) persist() {
	if e.state == "" {
		return
	}
	e.persistMu.Lock()
	defer e.persistMu.Unlock()
	st, v, changed := e.store.Saved(e.written)
	if !changed {
		return
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		e.logf("state: %v", err)
		return
	}
	if err := writeAtomic(e.state, b); err != nil {
		e.logf("state: %v", err)
		return
	}
	e.written = v
}

func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if werr == nil {
		werr = tmp.Sync()
	}
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}
