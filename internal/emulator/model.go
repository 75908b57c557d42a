package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"
)

// account is one API key's workspace: the fixture's records plus what the
// API changes.
type account struct {
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

func (a *account) Template(hash string) (engine.Template, bool) {
	t, ok := a.templates[hash]
	return t, ok
}

func (a *account) Feed(hash string) (engine.Feed, bool) {
	f, ok := a.feeds[hash]
	return f, ok
}

// collection is the stored record; what the API shows is computed from it
// and the clock (see render.go), so no goroutine runs per job. It is never
// serialised as it is: the state file has its own types (statefile.go).
type collection struct {
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
	Items         []*item
	Settings      map[string]any // fixture overrides
	Background    bool
	BackgroundHex string
	Transparent   bool
	LogoImage     string
	LogoURL       string
	Permissions   []permission
	Stats         *FlipbookStatsFixture
	Package       *htmlPackage
}

type item struct {
	Hash        string
	Title       string
	Description string
	PageCount   int
	Extension   string
	ReadyAt     time.Time // conversion end
	Failed      bool      // the conversion_failed fault: FAILED at ReadyAt
}

type permission struct {
	Type  string
	Email string
	Group string
}

type htmlPackage struct {
	ReadyAt time.Time
	Failed  bool // the package_failed fault: FAILED at ReadyAt
}

type packageToken struct {
	seq     int64
	expires time.Time
}

// Notification is an e-mail collection.setPermissions would have sent
// because an entry had notifyViaEmail true.
type Notification struct {
	APIKey         string    `json:"apiKey"`
	CollectionHash string    `json:"collectionHash"`
	Email          string    `json:"email"` // the recipient
	Type           string    `json:"type"`  // the entry's type
	Group          string    `json:"group,omitempty"`
	Time           time.Time `json:"time"`
}

func newAccount(fx *AccountFixture, now time.Time) *account {
	a := &account{
		fx:        fx,
		templates: map[string]engine.Template{},
		feeds:     map[string]engine.Feed{},
		readers:   map[string]ReaderFixture{},
		groups:    map[string]bool{},
		ssoGroups: map[string]bool{},
		quota:     defaultUploadsPerMonth,
		folders:   map[string]string{},
		uploads:   map[string]int{},
	}
	if fx.UploadsPerMonth != nil {
		a.quota = *fx.UploadsPerMonth
	}
	if fx.UploadsThisMonth > 0 {
		a.uploads[monthOf(now)] = fx.UploadsThisMonth
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

// newHash is a fresh random identifier, 16 lower-case hex digits.
func newHash() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

func monthOf(t time.Time) string { return t.UTC().Format("2006-01") }

// processing reports whether the collection's generation is still running.
func (c *collection) processing(now time.Time) bool {
	return !c.ReadyAt.IsZero() && now.Before(c.ReadyAt)
}

// status is collectionStatus as the API shows it now.
func (c *collection) status(now time.Time) string {
	if c.processing(now) {
		return "processing"
	}
	return c.Status
}

func (c *collection) flipbookStatus(now time.Time) string {
	switch {
	case c.processing(now):
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

// convertStatus is an item's convertStatus now: FAILED when the generation
// failed, PROCESSING until its generation or conversion ends, then FAILED
// when the conversion_failed fault hit its upload.
func (c *collection) convertStatus(it *item, now time.Time) string {
	switch {
	case c.GenFailed:
		return "FAILED"
	case c.processing(now), now.Before(it.ReadyAt):
		return "PROCESSING"
	case it.Failed:
		return "FAILED"
	}
	return "COMPLETE"
}

// visibleItems are the items whose pages count (and the player draws):
// none while generating.
func (c *collection) visibleItems(now time.Time) []*item {
	if c.processing(now) {
		return nil
	}
	return c.Items
}

func (c *collection) pageCount(now time.Time) int {
	n := 0
	if c.GenFailed {
		return 0
	}
	for _, it := range c.visibleItems(now) {
		n += it.PageCount
	}
	return n
}

func (c *collection) item(hash string) *item {
	for _, it := range c.Items {
		if it.Hash == hash {
			return it
		}
	}
	return nil
}

// published is true for the states the spec calls published.
func published(status string) bool {
	return status == "public" || status == "unlisted" || status == "published"
}

// clone is a copy of c that shares nothing mutable with it, for use outside
// the store's lock.
func (c *collection) clone() collection {
	cp := *c
	cp.Items = make([]*item, len(c.Items))
	for i, it := range c.Items {
		v := *it
		cp.Items[i] = &v
	}
	cp.Permissions = append([]permission{}, c.Permissions...)
	if c.Package != nil {
		p := *c.Package
		cp.Package = &p
	}
	return cp
}
