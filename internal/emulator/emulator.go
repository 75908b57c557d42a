package emulator

import (
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
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
	fx    *Fixture
	state string // state file path
	// drainBytes bounds how much of an oversized upload is read and
	// discarded (tests lower it before serving).
	drainBytes int64
	// Fixed by New.
	convDelay    time.Duration
	pkgDelay     time.Duration
	resultStatus string
	genPrivate   bool

	store *store

	persistMu sync.Mutex
	written   uint64
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
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.logf == nil {
		e.logf = func(string, ...any) {}
	}
	g := fx.Generation
	genDelay := msOr(g.DelayMs, defaultGenerationDelay)
	if opts.GenerationDelay != nil {
		if *opts.GenerationDelay < 0 {
			return nil, errors.New("generation delay must not be negative")
		}
		genDelay = *opts.GenerationDelay
	}
	e.convDelay = msOr(g.ConversionDelayMs, defaultConversionDelay)
	e.pkgDelay = msOr(g.PackageDelayMs, defaultPackageDelay)
	e.resultStatus = g.ResultStatus
	if e.resultStatus == "" {
		e.resultStatus = defaultResultStatus
	}
	e.genPrivate = g.Private == nil || *g.Private

	seed := opts.FaultSeed
	faults := faultConfig{slow: defaultSlow}
	if f := fx.Faults; f != nil {
		faults.rate, faults.kinds = f.Rate, append([]string(nil), f.Kinds...)
		if f.SlowMs > 0 {
			faults.slow = time.Duration(f.SlowMs) * time.Millisecond
		}
		if seed == 0 {
			seed = f.Seed
		}
	}
	if seed == 0 {
		seed = mrand.Uint64()
	}
	faults.seed = seed
	e.store = newStore(genDelay, faults, mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))

	now := e.now().UTC()
	for i := range fx.Accounts {
		a := newAccount(&fx.Accounts[i], now)
		var cols []*collection
		for _, cf := range a.fx.Collections {
			cols = append(cols, fixtureCollection(cf, a.fx.APIKey, now))
		}
		e.store.seedAccount(a, cols)
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
