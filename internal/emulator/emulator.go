package emulator

import (
	"cmp"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
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

// Emulator is an in-memory Flipbook Publishing API, safe for concurrent
// use. It is built in three layers: the HTTP layer (api.go, actions.go,
// upload.go, handler.go) reads requests and writes answers; the store
// (store.go) is the only code that reads or changes what the emulator
// remembers; the engine (package engine) holds the spec's pure rules.
type Emulator struct {
	now   func() time.Time
	logf  func(string, ...any)
	state string // state file path
	// drainBytes bounds how much of an oversized upload is read and
	// discarded (tests lower it before serving).
	drainBytes int64
	// genOverride is Options.GenerationDelay, which outlives a reset or a
	// new fixture; seed is Options.FaultSeed.
	genOverride *time.Duration
	seed        uint64

	// cur is what the fixture fixed; a reset or a new fixture swaps it
	// together with the store's contents.
	cur atomic.Pointer[world]

	store *store

	// worldMu orders whole-world changes (reset, a new fixture).
	worldMu   sync.Mutex
	persistMu sync.Mutex
	written   uint64
}

// world is what a fixture fixes for the emulator's lifetime, or until a
// reset or a new fixture: read without locks through Emulator.w.
type world struct {
	fx           *Fixture
	convDelay    time.Duration
	pkgDelay     time.Duration
	resultStatus string
	genPrivate   bool
}

// w is the current world.
func (e *Emulator) w() *world { return e.cur.Load() }

// New builds an Emulator from opts.
func New(opts Options) (*Emulator, error) {
	fx := opts.Fixture
	if fx == nil {
		fx = DemoFixture()
	} else if err := fx.check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if opts.GenerationDelay != nil && *opts.GenerationDelay < 0 {
		return nil, errors.New("generation delay must not be negative")
	}
	e := &Emulator{
		now:         opts.Now,
		logf:        opts.Logf,
		state:       opts.StateFile,
		drainBytes:  defaultDrainBytes,
		genOverride: opts.GenerationDelay,
		seed:        opts.FaultSeed,
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.logf == nil {
		e.logf = func(string, ...any) {}
	}
	w, st := e.build(fx, true)
	e.cur.Store(w)
	e.store = st
	if e.state != "" {
		if err := e.loadState(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// build makes the world and a fresh store from a checked fixture; with
// faults false the fixture's fault settings are left off (a reset).
func (e *Emulator) build(fx *Fixture, faults bool) (*world, *store) {
	g := fx.Generation
	w := &world{
		fx:           fx,
		convDelay:    msOr(g.ConversionDelayMs, defaultConversionDelay),
		pkgDelay:     msOr(g.PackageDelayMs, defaultPackageDelay),
		resultStatus: cmp.Or(g.ResultStatus, defaultResultStatus),
		genPrivate:   g.Private == nil || *g.Private,
	}
	genDelay := msOr(g.DelayMs, defaultGenerationDelay)
	if e.genOverride != nil {
		genDelay = *e.genOverride
	}
	seed := e.seed
	fc := faultConfig{slow: defaultSlow}
	if f := fx.Faults; f != nil {
		if faults {
			fc.rate, fc.kinds = f.Rate, append([]string(nil), f.Kinds...)
		}
		if f.SlowMs > 0 {
			fc.slow = time.Duration(f.SlowMs) * time.Millisecond
		}
		if seed == 0 {
			seed = f.Seed
		}
	}
	if seed == 0 {
		seed = mrand.Uint64()
	}
	fc.seed = seed
	st := newStore(genDelay, fc, mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	now := e.now().UTC()
	for i := range fx.Accounts {
		a := newAccount(&fx.Accounts[i], now)
		var cols []*collection
		for _, cf := range a.fx.Collections {
			cols = append(cols, fixtureCollection(cf, a.fx.APIKey, now))
		}
		st.seedAccount(a, cols)
	}
	return w, st
}

func msOr(ms *int64, def time.Duration) time.Duration {
	if ms == nil {
		return def
	}
	return time.Duration(*ms) * time.Millisecond
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
