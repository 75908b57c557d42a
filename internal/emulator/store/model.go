package store

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"
)

// Account is one API key's workspace: the fixture's records plus what the
// API changes.
type Account struct {
	fx        *AccountFixture
	templates map[string]engine.Template
	feeds     map[string]engine.Feed
	readers   map[string]ReaderFixture // by lower-cased email
	groups    map[string]bool
	ssoGroups map[string]bool
	quota     int
	// folders maps engine.FolderKey(path) to the path as first created.
	folders map[string]string
	// uploads counts flipbook.add uploads per month ("2006-01").
	uploads map[string]int
}

// Fixture is the account's fixture record: keys, plan, readers, groups,
// templates, feeds. It never changes; do not change it.
func (a *Account) Fixture() *AccountFixture { return a.fx }

// Reader is the workspace reader with that e-mail address (any case).
func (a *Account) Reader(email string) (ReaderFixture, bool) {
	r, ok := a.readers[strings.ToLower(email)]
	return r, ok
}

// HasGroup reports whether the workspace has that group.
func (a *Account) HasGroup(name string) bool { return a.groups[name] }

// HasSSOGroup reports whether the workspace has that SSO group.
func (a *Account) HasSSOGroup(name string) bool { return a.ssoGroups[name] }

// Quota is the account's monthly flipbook.add quota.
func (a *Account) Quota() int { return a.quota }

// Template is a template of the account by hash.
func (a *Account) Template(hash string) (engine.Template, bool) {
	t, ok := a.templates[hash]
	return t, ok
}

// Feed is a product feed of the account by hash.
func (a *Account) Feed(hash string) (engine.Feed, bool) {
	f, ok := a.feeds[hash]
	return f, ok
}

// Collection is the stored record; what the API shows is computed from it
// and the clock (package emulator, render.go), so no goroutine runs per
// job. It is never serialised as it is: the state file has its own types
// (statefile.go).
type Collection struct {
	Seq           int64
	Hash          string
	APIKey        string
	Kind          string // fixture, template, catalog
	Title         string
	Description   string
	Status        string // the status once any generation has ended
	Private       bool
	Password      bool
	Deleted       bool
	Folder        string
	Sections      string // exactly as received
	Layout        [][]string
	CreatedAt     time.Time
	ReadyAt       time.Time // generation end; zero for fixture collections
	PublishedAt   time.Time
	GenFailed     bool
	Items         []*Item
	Settings      map[string]any // fixture overrides
	Background    bool
	BackgroundHex string
	Transparent   bool
	LogoImage     string
	LogoURL       string
	Permissions   []Permission
	Stats         *FlipbookStatsFixture
	Package       *Package
}

type Item struct {
	Hash        string
	Title       string
	Description string
	PageCount   int
	Extension   string
	ReadyAt     time.Time // conversion end
	Failed      bool      // the conversion_failed fault: FAILED at ReadyAt
}

type Permission struct {
	Type  string
	Email string
	Group string
}

type Package struct {
	ReadyAt time.Time
	Failed  bool // the package_failed fault: FAILED at ReadyAt
}

type packageToken struct {
	seq     int64
	expires time.Time
}

func newAccount(fx *AccountFixture, now time.Time) *Account {
	a := &Account{
		fx:        fx,
		templates: map[string]engine.Template{},
		feeds:     map[string]engine.Feed{},
		readers:   map[string]ReaderFixture{},
		groups:    map[string]bool{},
		ssoGroups: map[string]bool{},
		quota:     DefaultUploadsPerMonth,
		folders:   map[string]string{},
		uploads:   map[string]int{},
	}
	if fx.UploadsPerMonth != nil {
		a.quota = *fx.UploadsPerMonth
	}
	if fx.UploadsThisMonth > 0 {
		a.uploads[MonthOf(now)] = fx.UploadsThisMonth
	}
	for _, t := range fx.Templates {
		a.templates[t.TemplateHash] = engine.Template{Hash: t.TemplateHash, Pages: t.Pages, Layers: t.Layers, ProductsPerPage: t.ProductsPerPage}
	}
	for _, f := range fx.Feeds {
		feed := engine.Feed{Hash: f.SourceHash}
		for _, p := range f.Products {
			prod := engine.Product{}
			for k, v := range p {
				prod[k], _ = scalarText(v)
			}
			feed.Products = append(feed.Products, prod)
		}
		a.feeds[f.SourceHash] = feed
	}
	for _, r := range fx.Readers {
		a.readers[strings.ToLower(r.Email)] = r
	}
	for _, g := range fx.Groups {
		a.groups[g] = true
	}
	for _, g := range fx.SSOGroups {
		a.ssoGroups[g] = true
	}
	return a
}

// NewHash is a fresh random identifier, 16 lower-case hex digits.
func NewHash() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

func MonthOf(t time.Time) string { return t.UTC().Format("2006-01") }

// Processing reports whether the collection's generation is still running.
func (c *Collection) Processing(now time.Time) bool {
	return !c.ReadyAt.IsZero() && now.Before(c.ReadyAt)
}

// StatusAt is collectionStatus as the API shows it at now.
func (c *Collection) StatusAt(now time.Time) string {
	if c.Processing(now) {
		return "processing"
	}
	return c.Status
}

func (c *Collection) FlipbookStatus(now time.Time) string {
	switch {
	case c.Processing(now):
		return "processing"
	case c.GenFailed:
		return "failed"
	}
	status := "complete"
	for _, it := range c.Items {
		if now.Before(it.ReadyAt) {
			return "processing"
		}
		if it.Failed {
			status = "failed"
		}
	}
	return status
}

// ConvertStatus is an item's convertStatus now: FAILED when the generation
// failed, PROCESSING until its generation or conversion ends, then FAILED
// when the conversion_failed fault hit its upload.
func (c *Collection) ConvertStatus(it *Item, now time.Time) string {
	switch {
	case c.GenFailed:
		return "FAILED"
	case c.Processing(now), now.Before(it.ReadyAt):
		return "PROCESSING"
	case it.Failed:
		return "FAILED"
	}
	return "COMPLETE"
}

// VisibleItems are the items whose pages count (and the player draws):
// none while generating.
func (c *Collection) VisibleItems(now time.Time) []*Item {
	if c.Processing(now) {
		return nil
	}
	return c.Items
}

func (c *Collection) PageCountAt(now time.Time) int {
	n := 0
	if c.GenFailed {
		return 0
	}
	for _, it := range c.VisibleItems(now) {
		n += it.PageCount
	}
	return n
}

func (c *Collection) Item(hash string) *Item {
	for _, it := range c.Items {
		if it.Hash == hash {
			return it
		}
	}
	return nil
}

// Published is true for the states the spec calls published.
func Published(status string) bool {
	return status == "public" || status == "unlisted" || status == "published"
}

// Clone is a copy of c that shares nothing mutable with it, for use outside
// the store's lock.
func (c *Collection) Clone() Collection {
	cp := *c
	cp.Items = make([]*Item, len(c.Items))
	for i, it := range c.Items {
		v := *it
		cp.Items[i] = &v
	}
	cp.Permissions = append([]Permission{}, c.Permissions...)
	if c.Package != nil {
		p := *c.Package
		cp.Package = &p
	}
	return cp
}
