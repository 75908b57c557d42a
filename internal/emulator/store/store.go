package store

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"
)

// Store holds everything the service would remember (accounts' folders and
// uploads, collections, download links) and is the only code that reads or
// changes it: one mutex guards it all, every method takes it, and no
// blocking I/O happens while it is held. Methods hand out copies
// (Collection.Clone), never pointers into the store. A method that refuses
// answers with the spec's result code (world.go); 0 means done.
type Store struct {
	mu       sync.Mutex
	accounts map[string]*Account // by apiKey; the map never changes after New
	cols     map[string]*Collection
	seq      int64
	tokens   map[string]packageToken
	genDelay time.Duration
	version  uint64          // bumped by every change worth persisting
	seeded   map[string]bool // fixture collections the state file holds
}

// New is the world fx makes at now: its accounts and their collections,
// and generations that take genDelay.
func New(fx *Fixture, now time.Time, genDelay time.Duration) *Store {
	s := &Store{
		genDelay: genDelay,
		accounts: map[string]*Account{},
		cols:     map[string]*Collection{},
		tokens:   map[string]packageToken{},
		seeded:   map[string]bool{},
	}
	now = now.UTC()
	for i := range fx.Accounts {
		a := newAccount(&fx.Accounts[i], now)
		var cols []*Collection
		for _, cf := range a.fx.Collections {
			cols = append(cols, fixtureCollection(cf, a.fx.APIKey, now))
		}
		s.seedAccount(a, cols)
	}
	return s
}

// changed marks the state dirty; callers hold s.mu.
func (s *Store) changed() { s.version++ }

// insert adds a collection with the next sequence number; callers hold s.mu.
func (s *Store) insert(c *Collection) {
	s.seq++
	c.Seq = s.seq
	s.cols[c.Hash] = c
}

// sorted lists every collection in creation order; callers hold s.mu.
func (s *Store) sorted() []*Collection {
	out := make([]*Collection, 0, len(s.cols))
	for _, c := range s.cols {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// seedAccount adds a fixture account and its collections (New only).
func (s *Store) seedAccount(a *Account, cols []*Collection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[a.fx.APIKey] = a
	for _, c := range cols {
		s.insert(c)
		s.seeded[c.Hash] = true
		if c.Folder != "" {
			addFolder(a, c.Folder)
		}
	}
}

// Account is the account of an API key, nil when there is none. Its
// fixture records never change; its folders and uploads are the store's.
func (s *Store) Account(key string) *Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accounts[key]
}

// owned resolves a collection hash for an account; callers hold s.mu.
// Unknown hashes (including a temporary hash replaced by publishing) are 46;
// deleted collections and other accounts' are 43.
func (s *Store) owned(key, hash string) (*Collection, int) {
	c := s.cols[hash]
	if c == nil {
		return nil, CodeInvalidCollection
	}
	if c.Deleted || c.APIKey != key {
		return nil, CodeForbidden
	}
	return c, 0
}

// CollectionOf is a copy of an account's collection.
func (s *Store) CollectionOf(key, hash string) (Collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return Collection{}, code
	}
	return c.Clone(), 0
}

// CollectionsOf copies an account's collections that are not deleted, in
// creation order.
func (s *Store) CollectionsOf(key string) []Collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Collection
	for _, c := range s.sorted() {
		if c.APIKey == key && !c.Deleted {
			out = append(out, c.Clone())
		}
	}
	return out
}

// AddGenerated stores a collection a generation request created, creating
// its folder path (folder "" is the root) as the spec's folder rules say.
func (s *Store) AddGenerated(a *Account, c *Collection, folder string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if folder != "" {
		c.Folder = addFolder(a, folder)
	}
	s.insert(c)
	s.changed()
}

// addFolder creates every missing level of a valid folder path; existing
// levels are reused whatever their case. Callers hold s.mu.
func addFolder(a *Account, path string) string {
	names := strings.Split(path, "/")
	for i := range names {
		p := strings.Join(names[:i+1], "/")
		if _, ok := a.folders[engine.FolderKey(p)]; !ok {
			// A level keeps the case it was created with; its children
			// are appended to that spelling.
			parent := ""
			if i > 0 {
				parent = a.folders[engine.FolderKey(strings.Join(names[:i], "/"))] + "/"
			}
			a.folders[engine.FolderKey(p)] = parent + names[i]
		}
	}
	return a.folders[engine.FolderKey(path)]
}

// permissionTarget resolves a collection whose permissions are read or set:
// 38 while it is generating, 48 unless it is published, private and has no
// password. Callers hold s.mu.
func (s *Store) permissionTarget(key, hash string, now time.Time) (*Collection, int) {
	c, code := s.owned(key, hash)
	if code != 0 {
		return nil, code
	}
	if c.Processing(now) {
		return nil, CodeInProgress
	}
	if !Published(c.Status) || !c.Private || c.Password {
		return nil, CodeNotPrivatePublished
	}
	return c, 0
}

// Permissions is the saved access list of a collection that may have one.
func (s *Store) Permissions(key, hash string, now time.Time) ([]Permission, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.permissionTarget(key, hash, now)
	if code != 0 {
		return nil, code
	}
	return append([]Permission{}, c.Permissions...), 0
}

// CheckPermissionTarget says whether a collection may have an access list
// now (0), or the code that refuses it.
func (s *Store) CheckPermissionTarget(key, hash string, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, code := s.permissionTarget(key, hash, now)
	return code
}

// ReplacePermissions saves a collection's access list.
func (s *Store) ReplacePermissions(key, hash string, now time.Time, saved []Permission) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.permissionTarget(key, hash, now)
	if code != 0 {
		return code
	}
	c.Permissions = saved
	s.changed()
	return 0
}

// SetLogo records a collection's logo image and, when logoURL is not nil,
// the address a click on it opens.
func (s *Store) SetLogo(key, hash, image string, logoURL *string) (Collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return Collection{}, code
	}
	c.LogoImage = image
	if logoURL != nil {
		c.LogoURL = *logoURL
	}
	s.changed()
	return c.Clone(), 0
}

// RemoveBackground drops a collection's background image for a plain
// colour.
func (s *Store) RemoveBackground(key, hash, color string) (Collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return Collection{}, code
	}
	c.Background = false
	c.BackgroundHex = color
	c.Transparent = false
	s.changed()
	return c.Clone(), 0
}

// CheckUpload says whether an account may add a document to a collection
// this month: the collection's code, else 33 when the quota is used.
func (s *Store) CheckUpload(a *Account, hash string, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, code := s.owned(a.fx.APIKey, hash); code != 0 {
		return code
	}
	if a.uploads[MonthOf(now)] >= a.quota {
		return CodeUploadQuota
	}
	return 0
}

// AddDocument counts an upload against the month's quota and appends its
// item to the collection; the next download packages the new document too.
func (s *Store) AddDocument(a *Account, hash string, now time.Time, it *Item) (Collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(a.fx.APIKey, hash)
	if code != 0 {
		return Collection{}, code
	}
	month := MonthOf(now)
	if a.uploads[month] >= a.quota {
		return Collection{}, CodeUploadQuota
	}
	a.uploads[month]++
	c.Items = append(c.Items, it)
	c.Package = nil
	s.changed()
	return c.Clone(), 0
}

// UploadsIn is how many documents an account added in a month.
func (s *Store) UploadsIn(a *Account, month string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return a.uploads[month]
}

// RequestPackage is one collection.downloadHTML call: it starts a package on
// the first call (ready after delay, FAILED then when failed) and, once the
// package is ready, issues a link token valid for PackageURLLifetime. A
// collection whose flipbook is processing is 38; after a failed generation
// the package is FAILED; a FAILED package is reported once and forgotten.
func (s *Store) RequestPackage(key, hash string, now time.Time, delay time.Duration, failed bool) (status, token string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return "", "", code
	}
	if c.FlipbookStatus(now) == "processing" {
		return "", "", CodeInProgress
	}
	if c.GenFailed {
		return PackageFailed, "", 0
	}
	if c.Package == nil {
		c.Package = &Package{ReadyAt: now.Add(delay), Failed: failed}
		s.changed()
	}
	if now.Before(c.Package.ReadyAt) {
		return PackageProcessing, "", 0
	}
	if c.Package.Failed {
		c.Package = nil
		s.changed()
		return PackageFailed, "", 0
	}
	// Links answer 410 for an hour after they expire, then are forgotten.
	for t, tok := range s.tokens {
		if now.After(tok.expires.Add(time.Hour)) {
			delete(s.tokens, t)
		}
	}
	token = NewHash() + NewHash()
	s.tokens[token] = packageToken{seq: c.Seq, expires: now.Add(PackageURLLifetime)}
	return PackageComplete, token, 0
}

// PackageByToken is the collection a package link names: found is false for
// a token never issued (or forgotten), and the collection is nil once the
// link expired or the collection was deleted.
func (s *Store) PackageByToken(token string, now time.Time) (c *Collection, found bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, found := s.tokens[token]
	if !found || !now.Before(t.expires) {
		return nil, found
	}
	for _, col := range s.cols {
		if col.Seq == t.seq && !col.Deleted {
			cp := col.Clone()
			return &cp, true
		}
	}
	return nil, true
}

// AnyCollection is a copy of any collection, deleted ones included, by hash.
func (s *Store) AnyCollection(hash string) (Collection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	if c == nil {
		return Collection{}, false
	}
	return c.Clone(), true
}

// PlayerSource is what the player draws of a collection: a copy without
// items, permissions or package, its account, and the items whose pages
// count now.
type PlayerSource struct {
	C          Collection
	Acct       *Account
	Processing bool
	Items      []Item
}

// PlayerSource copies what the player draws of a collection that is not
// deleted.
func (s *Store) PlayerSource(hash string, now time.Time) (PlayerSource, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	if c == nil || c.Deleted || s.accounts[c.APIKey] == nil {
		return PlayerSource{}, false
	}
	src := PlayerSource{C: *c, Acct: s.accounts[c.APIKey], Processing: c.Processing(now)}
	for _, it := range c.VisibleItems(now) {
		src.Items = append(src.Items, *it)
	}
	src.C.Items = nil
	src.C.Permissions = nil
	src.C.Package = nil
	return src, true
}

// AllCollections copies every collection of every account, deleted ones
// included, in creation order.
func (s *Store) AllCollections() []Collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Collection, 0, len(s.cols))
	for _, c := range s.sorted() {
		out = append(out, c.Clone())
	}
	return out
}

// Publish gives a collection a new final hash (the old one is forgotten),
// makes an editable one unlisted and dates the publication now.
func (s *Store) Publish(hash string, now time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	switch {
	case c == nil:
		return "", ErrUnknownCollection
	case c.Deleted:
		return "", ErrDeletedCollection
	case c.Processing(now):
		return "", ErrProcessing
	}
	delete(s.cols, hash)
	c.Hash = NewHash()
	s.cols[c.Hash] = c
	if c.Status == "editable" {
		c.Status = "unlisted"
	}
	c.PublishedAt = now
	s.changed()
	return c.Hash, nil
}

// SetAccess changes what decides permission eligibility; nil leaves a field
// as it is.
func (s *Store) SetAccess(hash string, private, password *bool, status *string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(hash)
	if err != nil {
		return err
	}
	if private != nil {
		c.Private = *private
	}
	if password != nil {
		c.Password = *password
	}
	if status != nil {
		c.Status = *status
		if Published(c.Status) && c.PublishedAt.IsZero() {
			c.PublishedAt = now
		}
	}
	s.changed()
	return nil
}

// live is a collection the web editor may still change: known and not
// deleted. Callers hold s.mu.
func (s *Store) live(hash string) (*Collection, error) {
	switch c := s.cols[hash]; {
	case c == nil:
		return nil, ErrUnknownCollection
	case c.Deleted:
		return nil, ErrDeletedCollection
	default:
		return c, nil
	}
}

// Rename gives a collection a new title, as renaming it in the web editor
// does.
func (s *Store) Rename(hash, title string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(hash)
	if err != nil {
		return err
	}
	c.Title = title
	s.changed()
	return nil
}

// MarkDeleted deletes a collection as the web application would.
func (s *Store) MarkDeleted(hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	if c == nil {
		return ErrUnknownCollection
	}
	c.Deleted = true
	s.changed()
	return nil
}

// GenerationDelay is how long generations started now stay processing.
func (s *Store) GenerationDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.genDelay
}

// SetGenerationDelay sets how long generations started from now on stay
// processing.
func (s *Store) SetGenerationDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.genDelay = d
}

// Replace takes in the contents of a fresh store, and swaps the world that
// goes with it, under s's lock: calls under way finish against one world or
// the other, never a mixture of one store's maps.
func (s *Store) Replace(ns *Store, swap func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts, s.cols, s.seq, s.tokens = ns.accounts, ns.cols, ns.seq, ns.tokens
	s.genDelay, s.seeded = ns.genDelay, ns.seeded
	// Still rising, so that the state file is rewritten.
	s.version++
	swap()
}
