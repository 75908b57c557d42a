package emulator

import (
	"maps"
	mrand "math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"
)

// store holds everything the emulator remembers and is the only code that
// reads or changes it: one mutex guards it all, every method takes it, and
// no blocking I/O happens while it is held. Methods hand out copies
// (collection.clone), never pointers into the store. A method that refuses
// answers with a result code (codes.go); 0 means done.
type store struct {
	mu            sync.Mutex
	accounts      map[string]*account // by apiKey; the map never changes after New
	cols          map[string]*collection
	seq           int64
	tokens        map[string]packageToken
	genDelay      time.Duration
	faults        faultConfig
	dice          *mrand.Rand
	requests      map[string]map[string]int
	notifications []Notification
	rates         map[string]*rateLimiter
	version       uint64          // bumped by every change worth persisting
	seeded        map[string]bool // fixture collections the state file holds
}

// newStore is an empty store with the generation delay, fault settings and
// dice the emulator starts with.
func newStore(genDelay time.Duration, faults faultConfig, dice *mrand.Rand) *store {
	return &store{
		genDelay: genDelay,
		faults:   faults,
		dice:     dice,
		accounts: map[string]*account{},
		cols:     map[string]*collection{},
		tokens:   map[string]packageToken{},
		requests: map[string]map[string]int{},
		rates:    map[string]*rateLimiter{},
		seeded:   map[string]bool{},
	}
}

// changed marks the state dirty; callers hold s.mu.
func (s *store) changed() { s.version++ }

// insert adds a collection with the next sequence number; callers hold s.mu.
func (s *store) insert(c *collection) {
	s.seq++
	c.Seq = s.seq
	s.cols[c.Hash] = c
}

// sorted lists every collection in creation order; callers hold s.mu.
func (s *store) sorted() []*collection {
	out := make([]*collection, 0, len(s.cols))
	for _, c := range s.cols {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// seedAccount adds a fixture account and its collections (New only).
func (s *store) seedAccount(a *account, cols []*collection) {
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

// account is the account of an API key, nil when there is none. Its
// fixture records never change; its folders and uploads are the store's.
func (s *store) account(key string) *account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accounts[key]
}

// owned resolves a collection hash for an account; callers hold s.mu.
// Unknown hashes (including a temporary hash replaced by publishing) are 46;
// deleted collections and other accounts' are 43.
func (s *store) owned(key, hash string) (*collection, int) {
	c := s.cols[hash]
	if c == nil {
		return nil, codeInvalidCollection
	}
	if c.Deleted || c.APIKey != key {
		return nil, codeForbidden
	}
	return c, 0
}

// collectionOf is a copy of an account's collection.
func (s *store) collectionOf(key, hash string) (collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return collection{}, code
	}
	return c.clone(), 0
}

// collectionsOf copies an account's collections that are not deleted, in
// creation order.
func (s *store) collectionsOf(key string) []collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []collection
	for _, c := range s.sorted() {
		if c.APIKey == key && !c.Deleted {
			out = append(out, c.clone())
		}
	}
	return out
}

// addGenerated stores a collection a generation request created, creating
// its folder path (folder "" is the root) as the spec's folder rules say.
func (s *store) addGenerated(a *account, c *collection, folder string) {
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
func addFolder(a *account, path string) string {
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
func (s *store) permissionTarget(key, hash string, now time.Time) (*collection, int) {
	c, code := s.owned(key, hash)
	if code != 0 {
		return nil, code
	}
	if c.processing(now) {
		return nil, codeInProgress
	}
	if !published(c.Status) || !c.Private || c.Password {
		return nil, codeNotPrivatePublished
	}
	return c, 0
}

// permissions is the saved access list of a collection that may have one.
func (s *store) permissions(key, hash string, now time.Time) ([]permission, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.permissionTarget(key, hash, now)
	if code != 0 {
		return nil, code
	}
	return append([]permission{}, c.Permissions...), 0
}

// checkPermissionTarget says whether a collection may have an access list
// now (0), or the code that refuses it.
func (s *store) checkPermissionTarget(key, hash string, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, code := s.permissionTarget(key, hash, now)
	return code
}

// replacePermissions saves a collection's access list and records the
// notification e-mails sent with it.
func (s *store) replacePermissions(key, hash string, now time.Time, saved []permission, sent []Notification) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.permissionTarget(key, hash, now)
	if code != 0 {
		return code
	}
	c.Permissions = saved
	s.notifications = append(s.notifications, sent...)
	s.changed()
	return 0
}

// setLogo records a collection's logo image and, when logoURL is not nil,
// the address a click on it opens.
func (s *store) setLogo(key, hash, image string, logoURL *string) (collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return collection{}, code
	}
	c.LogoImage = image
	if logoURL != nil {
		c.LogoURL = *logoURL
	}
	s.changed()
	return c.clone(), 0
}

// removeBackground drops a collection's background image for a plain
// colour.
func (s *store) removeBackground(key, hash, color string) (collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return collection{}, code
	}
	c.Background = false
	c.BackgroundHex = color
	c.Transparent = false
	s.changed()
	return c.clone(), 0
}

// checkUpload says whether an account may add a document to a collection
// this month: the collection's code, else 33 when the quota is used.
func (s *store) checkUpload(a *account, hash string, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, code := s.owned(a.fx.APIKey, hash); code != 0 {
		return code
	}
	if a.uploads[monthOf(now)] >= a.quota {
		return codeUploadQuota
	}
	return 0
}

// addDocument counts an upload against the month's quota and appends its
// item to the collection; the next download packages the new document too.
func (s *store) addDocument(a *account, hash string, now time.Time, it *item) (collection, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(a.fx.APIKey, hash)
	if code != 0 {
		return collection{}, code
	}
	month := monthOf(now)
	if a.uploads[month] >= a.quota {
		return collection{}, codeUploadQuota
	}
	a.uploads[month]++
	c.Items = append(c.Items, it)
	c.Package = nil
	s.changed()
	return c.clone(), 0
}

// uploadsIn is how many documents an account added in a month.
func (s *store) uploadsIn(a *account, month string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return a.uploads[month]
}

// Package states of collection.downloadHTML.
const (
	packageProcessing = "PROCESSING"
	packageComplete   = "COMPLETE"
	packageFailed     = "FAILED"
)

// requestPackage is one collection.downloadHTML call: it starts a package on
// the first call (ready after delay, FAILED then when failed) and, once the
// package is ready, issues a link token valid for packageURLLifetime. A
// collection whose flipbook is processing is 38; after a failed generation
// the package is FAILED; a FAILED package is reported once and forgotten.
func (s *store) requestPackage(key, hash string, now time.Time, delay time.Duration, failed bool) (status, token string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, code := s.owned(key, hash)
	if code != 0 {
		return "", "", code
	}
	if c.flipbookStatus(now) == "processing" {
		return "", "", codeInProgress
	}
	if c.GenFailed {
		return packageFailed, "", 0
	}
	if c.Package == nil {
		c.Package = &htmlPackage{ReadyAt: now.Add(delay), Failed: failed}
		s.changed()
	}
	if now.Before(c.Package.ReadyAt) {
		return packageProcessing, "", 0
	}
	if c.Package.Failed {
		c.Package = nil
		s.changed()
		return packageFailed, "", 0
	}
	// Links answer 410 for an hour after they expire, then are forgotten.
	for t, tok := range s.tokens {
		if now.After(tok.expires.Add(time.Hour)) {
			delete(s.tokens, t)
		}
	}
	token = newHash() + newHash()
	s.tokens[token] = packageToken{seq: c.Seq, expires: now.Add(packageURLLifetime)}
	return packageComplete, token, 0
}

// packageByToken is the collection a package link names: found is false for
// a token never issued (or forgotten), and the collection is nil once the
// link expired or the collection was deleted.
func (s *store) packageByToken(token string, now time.Time) (c *collection, found bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, found := s.tokens[token]
	if !found || !now.Before(t.expires) {
		return nil, found
	}
	for _, col := range s.cols {
		if col.Seq == t.seq && !col.Deleted {
			cp := col.clone()
			return &cp, true
		}
	}
	return nil, true
}

// anyCollection is a copy of any collection, deleted ones included, by hash.
func (s *store) anyCollection(hash string) (collection, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	if c == nil {
		return collection{}, false
	}
	return c.clone(), true
}

// playerSource copies what the player draws of a collection that is not
// deleted.
func (s *store) playerSource(hash string, now time.Time) (playerSource, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	if c == nil || c.Deleted || s.accounts[c.APIKey] == nil {
		return playerSource{}, false
	}
	src := playerSource{c: *c, acct: s.accounts[c.APIKey], processing: c.processing(now)}
	for _, it := range c.visibleItems(now) {
		src.items = append(src.items, *it)
	}
	src.c.Items = nil
	src.c.Permissions = nil
	src.c.Package = nil
	return src, true
}

// allCollections copies every collection of every account, deleted ones
// included, in creation order.
func (s *store) allCollections() []collection {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]collection, 0, len(s.cols))
	for _, c := range s.sorted() {
		out = append(out, c.clone())
	}
	return out
}

// publish gives a collection a new final hash (the old one is forgotten),
// makes an editable one unlisted and dates the publication now.
func (s *store) publish(hash string, now time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	switch {
	case c == nil:
		return "", ErrUnknownCollection
	case c.Deleted:
		return "", ErrDeletedCollection
	case c.processing(now):
		return "", ErrProcessing
	}
	delete(s.cols, hash)
	c.Hash = newHash()
	s.cols[c.Hash] = c
	if c.Status == "editable" {
		c.Status = "unlisted"
	}
	c.PublishedAt = now
	s.changed()
	return c.Hash, nil
}

// setAccess changes what decides permission eligibility; nil leaves a field
// as it is.
func (s *store) setAccess(hash string, private, password *bool, status *string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	switch {
	case c == nil:
		return ErrUnknownCollection
	case c.Deleted:
		return ErrDeletedCollection
	}
	if private != nil {
		c.Private = *private
	}
	if password != nil {
		c.Password = *password
	}
	if status != nil {
		c.Status = *status
		if published(c.Status) && c.PublishedAt.IsZero() {
			c.PublishedAt = now
		}
	}
	s.changed()
	return nil
}

// rename gives a collection a new title, as renaming it in the web editor
// does.
func (s *store) rename(hash, title string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cols[hash]
	switch {
	case c == nil:
		return ErrUnknownCollection
	case c.Deleted:
		return ErrDeletedCollection
	}
	c.Title = title
	s.changed()
	return nil
}

// markDeleted deletes a collection as the web application would.
func (s *store) markDeleted(hash string) error {
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

// countRequest counts one answered call of action by its outcome.
func (s *store) countRequest(action, outcome string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.requests[action]
	if m == nil {
		m = map[string]int{}
		s.requests[action] = m
	}
	m[outcome]++
}

// requestCounts copies the request counters.
func (s *store) requestCounts() map[string]map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]map[string]int, len(s.requests))
	for a, m := range s.requests {
		out[a] = maps.Clone(m)
	}
	return out
}

func (s *store) resetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = map[string]map[string]int{}
}

// sentNotifications copies the notification e-mails, oldest first.
func (s *store) sentNotifications() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notification{}, s.notifications...)
}

func (s *store) generationDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.genDelay
}

func (s *store) setGenerationDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.genDelay = d
}

// drawFault rolls the fault dice for one call (see faultConfig.draw).
func (s *store) drawFault(action string, params map[string]string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.draw(action, params)
}

// coin is a fair coin from the seeded dice.
func (s *store) coin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dice.IntN(2) == 1
}

func (s *store) slowDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.slow
}

// setFaults replaces the fault settings; actions nil means every action.
func (s *store) setFaults(rate float64, kinds, actions []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.rate = rate
	s.faults.kinds = append([]string(nil), kinds...)
	s.faults.actions = append([]string(nil), actions...)
}

// faultSettings copies the fault settings.
func (s *store) faultSettings() FaultSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return FaultSettings{Rate: s.faults.rate, Kinds: append([]string{}, s.faults.kinds...), Actions: slices.Clone(s.faults.actions)}
}

// takeRate spends one request of the key's budget (see rateLimiter.take).
func (s *store) takeRate(key string, now time.Time, perSecond, perMinute int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	rl := s.rates[key]
	if rl == nil {
		rl = &rateLimiter{}
		s.rates[key] = rl
	}
	return rl.take(now, perSecond, perMinute)
}
