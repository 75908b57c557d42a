package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"time"
)

// stateVersion is the format of the state file this emulator writes. A
// file of an older version is read through its own types and migrated
// (loadState); a newer one is refused.
const stateVersion = 1

// The state file's types. They are the file format, kept apart from the
// in-memory types (model.go) so that renaming a field in memory cannot
// change what users' saved files mean; a change to the format is a new
// version with a migration from the old one. Version 1 is the format the
// emulator has written since the state file first existed.
type (
	// SavedState is what -state keeps across restarts: every account's
	// folders and upload counts and every collection. Accounts themselves
	// (keys, plans, readers, templates, feeds) always come from the fixture.
	SavedState struct {
		Version     int                     `json:"version"`
		Seq         int64                   `json:"seq"`
		Accounts    map[string]savedAccount `json:"accounts"`
		Collections []savedCollection       `json:"collections"`
		// Seeded lists the fixture collections the state already took in,
		// so that a collection added to the fixture later still appears
		// while one deleted or republished through the API does not come
		// back.
		Seeded []string `json:"seededFromFixture"`
	}
	savedAccount struct {
		// Folders maps engine.FolderKey(path) to the path as first created.
		Folders map[string]string `json:"folders"`
		// Uploads counts flipbook.add uploads per month ("2006-01").
		Uploads map[string]int `json:"uploads"`
	}
	savedCollection struct {
		Seq           int64             `json:"seq"`
		Hash          string            `json:"collectionHash"`
		APIKey        string            `json:"apiKey"`
		Kind          string            `json:"kind"`
		Title         string            `json:"title"`
		Description   string            `json:"description"`
		Status        string            `json:"status"`
		Private       bool              `json:"private"`
		Password      bool              `json:"password"`
		Deleted       bool              `json:"deleted,omitempty"`
		Folder        string            `json:"folder,omitempty"`
		Sections      string            `json:"sections,omitempty"`
		Layout        [][]string        `json:"layout,omitempty"`
		CreatedAt     time.Time         `json:"createdAt"`
		ReadyAt       time.Time         `json:"readyAt"`
		PublishedAt   time.Time         `json:"publishedAt"`
		GenFailed     bool              `json:"generationFailed,omitempty"`
		Items         []savedItem       `json:"items"`
		Settings      map[string]any    `json:"settings,omitempty"`
		Background    bool              `json:"backgroundImage"`
		BackgroundHex string            `json:"backgroundColor"`
		Transparent   bool              `json:"transparentBackground"`
		LogoImage     string            `json:"logoImage,omitempty"`
		LogoURL       string            `json:"logoUrl,omitempty"`
		Permissions   []savedPermission `json:"permissions"`
		Stats         *savedStats       `json:"stats,omitempty"`
		Package       *savedPackage     `json:"package,omitempty"`
	}
	savedItem struct {
		Hash        string    `json:"flipbookHash"`
		Title       string    `json:"title"`
		Description string    `json:"description"`
		PageCount   int       `json:"pageCount"`
		Extension   string    `json:"extension"`
		ReadyAt     time.Time `json:"readyAt"`
		Failed      bool      `json:"conversionFailed,omitempty"`
	}
	savedPermission struct {
		Type  string `json:"type"`
		Email string `json:"email,omitempty"`
		Group string `json:"group,omitempty"`
	}
	savedStats struct {
		Views     int64 `json:"views"`
		TimeSpent int64 `json:"time_spent"`
		Downloads int64 `json:"downloads"`
	}
	savedPackage struct {
		ReadyAt time.Time `json:"readyAt"`
		Failed  bool      `json:"failed,omitempty"`
	}
)

// ReadState reads a state file of any version this emulator knows, migrated
// to the current one.
func ReadState(b []byte) (SavedState, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return SavedState{}, err
	}
	switch head.Version {
	case 1:
		var st SavedState
		err := json.Unmarshal(b, &st)
		return st, err
	}
	return SavedState{}, fmt.Errorf("version %d, want %d (a newer emulator wrote it)", head.Version, stateVersion)
}

// Restore takes in a saved state, replacing the fixture's collections by
// the saved ones and keeping only fixture collections the state has never
// seen; data of accounts the fixture no longer has is dropped.
func (s *Store) Restore(st SavedState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, Saved := range st.Accounts {
		if a := s.accounts[key]; a != nil {
			if Saved.Folders != nil {
				a.folders = Saved.Folders
			}
			if Saved.Uploads != nil {
				a.uploads = Saved.Uploads
			}
		}
	}
	fromFixture := s.cols
	s.cols = map[string]*Collection{}
	seen := map[string]bool{}
	for _, h := range st.Seeded {
		seen[h] = true
	}
	for _, sc := range st.Collections {
		if s.accounts[sc.APIKey] == nil {
			continue
		}
		c := sc.Collection()
		s.cols[c.Hash] = c
	}
	s.seq = st.Seq
	for h, c := range fromFixture {
		if !seen[h] && s.cols[h] == nil {
			s.insert(c)
		}
		s.seeded[h] = true
	}
	for h := range seen {
		s.seeded[h] = true
	}
}

// Saved is the store as the state file keeps it, and the version of the
// store it shows; ok is false, and nothing is copied, when the store has not
// changed since version since.
func (s *Store) Saved(since uint64) (st SavedState, version uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version <= since {
		return SavedState{}, 0, false
	}
	return s.savedLocked(), s.version, true
}

// SavedState is the store as the state file keeps it.
func (s *Store) SavedState() SavedState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.savedLocked()
}

// savedLocked is savedState; callers hold s.mu.
func (s *Store) savedLocked() SavedState {
	st := SavedState{Version: stateVersion, Seq: s.seq, Accounts: map[string]savedAccount{}, Collections: []savedCollection{}, Seeded: []string{}}
	for key, a := range s.accounts {
		st.Accounts[key] = savedAccount{Folders: maps.Clone(a.folders), Uploads: maps.Clone(a.uploads)}
	}
	for _, c := range s.sorted() {
		st.Collections = append(st.Collections, savedCollectionOf(c))
	}
	for h := range s.seeded {
		st.Seeded = append(st.Seeded, h)
	}
	sort.Strings(st.Seeded)
	return st
}

func savedCollectionOf(c *Collection) savedCollection {
	sc := savedCollection{
		Seq: c.Seq, Hash: c.Hash, APIKey: c.APIKey, Kind: c.Kind, Title: c.Title, Description: c.Description,
		Status: c.Status, Private: c.Private, Password: c.Password, Deleted: c.Deleted, Folder: c.Folder,
		Sections: c.Sections, Layout: c.Layout, CreatedAt: c.CreatedAt, ReadyAt: c.ReadyAt, PublishedAt: c.PublishedAt,
		GenFailed: c.GenFailed, Settings: c.Settings, Background: c.Background, BackgroundHex: c.BackgroundHex,
		Transparent: c.Transparent, LogoImage: c.LogoImage, LogoURL: c.LogoURL, Permissions: []savedPermission{},
	}
	for _, it := range c.Items {
		sc.Items = append(sc.Items, savedItem(*it))
	}
	for _, p := range c.Permissions {
		sc.Permissions = append(sc.Permissions, savedPermission(p))
	}
	if c.Stats != nil {
		st := savedStats(*c.Stats)
		sc.Stats = &st
	}
	if c.Package != nil {
		p := savedPackage(*c.Package)
		sc.Package = &p
	}
	return sc
}

func (sc savedCollection) Collection() *Collection {
	c := &Collection{
		Seq: sc.Seq, Hash: sc.Hash, APIKey: sc.APIKey, Kind: sc.Kind, Title: sc.Title, Description: sc.Description,
		Status: sc.Status, Private: sc.Private, Password: sc.Password, Deleted: sc.Deleted, Folder: sc.Folder,
		Sections: sc.Sections, Layout: sc.Layout, CreatedAt: sc.CreatedAt, ReadyAt: sc.ReadyAt, PublishedAt: sc.PublishedAt,
		GenFailed: sc.GenFailed, Settings: sc.Settings, Background: sc.Background, BackgroundHex: sc.BackgroundHex,
		Transparent: sc.Transparent, LogoImage: sc.LogoImage, LogoURL: sc.LogoURL, Permissions: []Permission{},
	}
	for _, it := range sc.Items {
		v := Item(it)
		c.Items = append(c.Items, &v)
	}
	for _, p := range sc.Permissions {
		c.Permissions = append(c.Permissions, Permission(p))
	}
	if sc.Stats != nil {
		st := FlipbookStatsFixture(*sc.Stats)
		c.Stats = &st
	}
	if sc.Package != nil {
		p := Package(*sc.Package)
		c.Package = &p
	}
	return c
}
