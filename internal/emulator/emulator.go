package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"
)

// Defaults where the fixture says nothing.
const (
	defaultGenerationDelay = 2 * time.Second
	defaultConversionDelay = 500 * time.Millisecond
	defaultPackageDelay    = time.Second
	defaultSlow            = 3 * time.Second
	defaultMaxUploadBytes  = 100 << 20
	defaultMaxPages        = 500
	defaultUploadsPerMonth = 100
	defaultResultStatus    = "unlisted"
	packageURLLifetime     = time.Minute
	dateLayout             = "2006-01-02 15:04:05"
)

// Options configures an Emulator.
type Options struct {
	// Fixture is the world to serve; nil means DemoFixture().
	Fixture *Fixture
	// GenerationDelay overrides the fixture's generation.delayMs.
	GenerationDelay *time.Duration
	// StateFile, when set, keeps every account's data across restarts: it is
	// loaded by New when it exists and rewritten atomically after each change.
	StateFile string
	// Logf receives one line per API call; nil discards them.
	Logf func(string, ...any)
	// Now is the clock; nil means time.Now. Generation, conversion, package
	// and URL lifetimes are all computed from it.
	Now func() time.Time
	// FaultSeed seeds the fault dice so that a fault sequence can be
	// replayed; 0 takes the fixture's faults.seed, or a random seed.
	FaultSeed uint64
}

// Emulator is an in-memory Flipbook Publishing API. It is safe for
// concurrent use; one mutex guards all state and no blocking I/O happens
// while it is held.
type Emulator struct {
	now   func() time.Time
	logf  func(string, ...any)
	fx    *Fixture
	state string // state file path
	// drainBytes bounds how much of an oversized upload is read and
	// discarded (tests lower it before serving).
	drainBytes int64

	mu            sync.Mutex
	accounts      map[string]*account // by apiKey
	cols          map[string]*collection
	seq           int64
	tokens        map[string]packageToken
	genDelay      time.Duration
	convDelay     time.Duration
	pkgDelay      time.Duration
	resultStatus  string
	genPrivate    bool
	faults        faultConfig
	dice          *mrand.Rand
	requests      map[string]map[string]int
	notifications []Notification
	rates         map[string]*rateLimiter
	version       uint64          // bumped by every change worth persisting
	seeded        map[string]bool // fixture collections the state file holds

	persistMu sync.Mutex
	written   uint64
}

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
	// Folders maps engine.FolderKey(path) to the path as first created.
	Folders map[string]string `json:"folders"`
	// Uploads counts flipbook.add uploads per month ("2006-01").
	Uploads map[string]int `json:"uploads"`
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
// and the clock (see render), so no goroutine runs per job.
type collection struct {
	Seq           int64                 `json:"seq"`
	Hash          string                `json:"collectionHash"`
	APIKey        string                `json:"apiKey"`
	Kind          string                `json:"kind"` // fixture, template, catalog
	Title         string                `json:"title"`
	Description   string                `json:"description"`
	Status        string                `json:"status"` // the status once any generation has ended
	Private       bool                  `json:"private"`
	Password      bool                  `json:"password"`
	Deleted       bool                  `json:"deleted,omitempty"`
	Folder        string                `json:"folder,omitempty"`
	Sections      string                `json:"sections,omitempty"` // exactly as received
	Layout        [][]string            `json:"layout,omitempty"`
	CreatedAt     time.Time             `json:"createdAt"`
	ReadyAt       time.Time             `json:"readyAt"` // generation end; zero for fixture collections
	PublishedAt   time.Time             `json:"publishedAt"`
	GenFailed     bool                  `json:"generationFailed,omitempty"`
	Items         []*item               `json:"items"`
	Settings      map[string]any        `json:"settings,omitempty"` // fixture overrides
	Background    bool                  `json:"backgroundImage"`
	BackgroundHex string                `json:"backgroundColor"`
	Transparent   bool                  `json:"transparentBackground"`
	LogoImage     string                `json:"logoImage,omitempty"`
	LogoURL       string                `json:"logoUrl,omitempty"`
	Permissions   []permission          `json:"permissions"`
	Stats         *FlipbookStatsFixture `json:"stats,omitempty"`
	Package       *htmlPackage          `json:"package,omitempty"`
}

type item struct {
	Hash        string    `json:"flipbookHash"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	PageCount   int       `json:"pageCount"`
	Extension   string    `json:"extension"`
	ReadyAt     time.Time `json:"readyAt"`                    // conversion end
	Failed      bool      `json:"conversionFailed,omitempty"` // the conversion_failed fault: FAILED at ReadyAt
}

type permission struct {
	Type  string `json:"type"`
	Email string `json:"email,omitempty"`
	Group string `json:"group,omitempty"`
}

type htmlPackage struct {
	ReadyAt time.Time `json:"readyAt"`
	Failed  bool      `json:"failed,omitempty"` // the package_failed fault: FAILED at ReadyAt
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

// New builds an Emulator from opts.
func New(opts Options) (*Emulator, error) {
	fx := opts.Fixture
	if fx == nil {
		fx = DemoFixture()
	} else if err := fx.check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	e := &Emulator{
		now:        opts.Now,
		logf:       opts.Logf,
		fx:         fx,
		state:      opts.StateFile,
		drainBytes: defaultDrainBytes,
		accounts:   map[string]*account{},
		cols:       map[string]*collection{},
		tokens:     map[string]packageToken{},
		requests:   map[string]map[string]int{},
		rates:      map[string]*rateLimiter{},
		seeded:     map[string]bool{},
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.logf == nil {
		e.logf = func(string, ...any) {}
	}
	g := fx.Generation
	e.genDelay = msOr(g.DelayMs, defaultGenerationDelay)
	if opts.GenerationDelay != nil {
		if *opts.GenerationDelay < 0 {
			return nil, errors.New("generation delay must not be negative")
		}
		e.genDelay = *opts.GenerationDelay
	}
	e.convDelay = msOr(g.ConversionDelayMs, defaultConversionDelay)
	e.pkgDelay = msOr(g.PackageDelayMs, defaultPackageDelay)
	e.resultStatus = g.ResultStatus
	if e.resultStatus == "" {
		e.resultStatus = defaultResultStatus
	}
	e.genPrivate = g.Private == nil || *g.Private

	seed := opts.FaultSeed
	e.faults.slow = defaultSlow
	if f := fx.Faults; f != nil {
		e.faults.rate, e.faults.kinds = f.Rate, append([]string(nil), f.Kinds...)
		if f.SlowMs > 0 {
			e.faults.slow = time.Duration(f.SlowMs) * time.Millisecond
		}
		if seed == 0 {
			seed = f.Seed
		}
	}
	if seed == 0 {
		seed = mrand.Uint64()
	}
	e.dice = mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	e.faults.seed = seed

	now := e.now().UTC()
	for i := range fx.Accounts {
		a := newAccount(&fx.Accounts[i], now)
		e.accounts[a.fx.APIKey] = a
		for _, cf := range a.fx.Collections {
			c := fixtureCollection(cf, a.fx.APIKey, now)
			e.seq++
			c.Seq = e.seq
			e.cols[c.Hash] = c
			e.seeded[c.Hash] = true
			if c.Folder != "" {
				a.addFolder(c.Folder)
			}
		}
	}
	if e.state != "" {
		if err := e.loadState(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func msOr(ms *int64, def time.Duration) time.Duration {
	if ms == nil {
		return def
	}
	return time.Duration(*ms) * time.Millisecond
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
		Folders:   map[string]string{},
		Uploads:   map[string]int{},
	}
	if fx.UploadsPerMonth != nil {
		a.quota = *fx.UploadsPerMonth
	}
	if fx.UploadsThisMonth > 0 {
		a.Uploads[monthOf(now)] = fx.UploadsThisMonth
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

// addFolder creates every missing level of a valid folder path; existing
// levels are reused whatever their case.
func (a *account) addFolder(path string) string {
	names := strings.Split(path, "/")
	for i := range names {
		p := strings.Join(names[:i+1], "/")
		if _, ok := a.Folders[engine.FolderKey(p)]; !ok {
			// A level keeps the case it was created with; its children
			// are appended to that spelling.
			parent := ""
			if i > 0 {
				parent = a.Folders[engine.FolderKey(strings.Join(names[:i], "/"))] + "/"
			}
			a.Folders[engine.FolderKey(p)] = parent + names[i]
		}
	}
	return a.Folders[engine.FolderKey(path)]
}

func fixtureCollection(cf CollectionFixture, apiKey string, now time.Time) *collection {
	c := &collection{
		Hash:          cf.CollectionHash,
		APIKey:        apiKey,
		Kind:          "fixture",
		Title:         cf.Title,
		Description:   cf.Description,
		Status:        cf.Status,
		Private:       cf.Private,
		Password:      cf.Password,
		Folder:        cf.Folder,
		CreatedAt:     now,
		PublishedAt:   now,
		Settings:      cf.Settings,
		Background:    cf.BackgroundImage,
		BackgroundHex: defaultBackground,
		Stats:         cf.Stats,
		Permissions:   []permission{},
	}
	if c.Status == "" {
		c.Status = defaultResultStatus
	}
	if v, ok := cf.Settings["backgroundColor"].(string); ok {
		c.BackgroundHex = v
	}
	if v, ok := cf.Settings["transparentBackground"].(bool); ok {
		c.Transparent = v
	}
	if c.Status == "editable" {
		c.PublishedAt = time.Time{}
	}
	for _, it := range cf.Items {
		ext := it.Extension
		if ext == "" {
			ext = "pdf"
		}
		c.Items = append(c.Items, &item{Hash: it.FlipbookHash, Title: it.Title, Description: it.Description, PageCount: it.PageCount, Extension: ext})
	}
	if len(c.Items) == 0 && cf.PageCount > 0 {
		c.Items = []*item{{Hash: "fb-" + cf.CollectionHash, Title: cf.Title, Description: cf.Description, PageCount: cf.PageCount, Extension: "pdf"}}
	}
	for _, p := range cf.Permissions {
		c.Permissions = append(c.Permissions, permission(p))
	}
	return c
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

// visibleItems are the items the API shows: none while generating.
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

// changed marks the state dirty; callers hold e.mu.
func (e *Emulator) changed() { e.version++ }

// sortedCollections lists every collection in creation order; callers hold
// e.mu.
func (e *Emulator) sortedCollections() []*collection {
	out := make([]*collection, 0, len(e.cols))
	for _, c := range e.cols {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
