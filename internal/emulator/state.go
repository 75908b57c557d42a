package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// stateVersion is the format of the state file.
const stateVersion = 1

// stateFile is what -state keeps across restarts: every account's folders
// and upload counts and every collection. Accounts themselves (keys,
// plans, readers, templates, feeds) always come from the fixture.
type stateFile struct {
	Version     int                 `json:"version"`
	Seq         int64               `json:"seq"`
	Accounts    map[string]*account `json:"accounts"`
	Collections []*collection       `json:"collections"`
	// Seeded lists the fixture collections the state already took in, so
	// that a collection added to the fixture later still appears while one
	// deleted or republished through the API does not come back.
	Seeded []string `json:"seededFromFixture"`
}

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
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("state file %s: %w", e.state, err)
	}
	if st.Version != stateVersion {
		return fmt.Errorf("state file %s: version %d, want %d", e.state, st.Version, stateVersion)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for key, saved := range st.Accounts {
		if a := e.accounts[key]; a != nil && saved != nil {
			if saved.Folders != nil {
				a.Folders = saved.Folders
			}
			if saved.Uploads != nil {
				a.Uploads = saved.Uploads
			}
		}
	}
	fromFixture := e.cols
	e.cols = map[string]*collection{}
	seen := map[string]bool{}
	for _, h := range st.Seeded {
		seen[h] = true
	}
	for _, c := range st.Collections {
		if c == nil || e.accounts[c.APIKey] == nil {
			continue
		}
		if c.Permissions == nil {
			c.Permissions = []permission{}
		}
		e.cols[c.Hash] = c
	}
	e.seq = st.Seq
	for h, c := range fromFixture {
		if !seen[h] && e.cols[h] == nil {
			e.seq++
			c.Seq = e.seq
			e.cols[h] = c
		}
		e.seeded[h] = true
	}
	for h := range seen {
		e.seeded[h] = true
	}
	return nil
}

// persist writes the state file when something changed since the last
// write: a snapshot is taken under e.mu, then written (outside e.mu, under
// persistMu, which orders the writes) to a temporary file renamed over the
// state file, so a reader never sees a partial file.
func (e *Emulator) persist() {
	if e.state == "" {
		return
	}
	e.persistMu.Lock()
	defer e.persistMu.Unlock()
	e.mu.Lock()
	v := e.version
	if v <= e.written {
		e.mu.Unlock()
		return
	}
	seeded := make([]string, 0, len(e.seeded))
	for h := range e.seeded {
		seeded = append(seeded, h)
	}
	sort.Strings(seeded)
	b, err := json.MarshalIndent(stateFile{Version: stateVersion, Seq: e.seq, Accounts: e.accounts, Collections: e.sortedCollections(), Seeded: seeded}, "", "  ")
	e.mu.Unlock()
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
