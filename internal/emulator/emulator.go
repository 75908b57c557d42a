package emulator

import (
	"cmp"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// Defaults where the fixture says nothing.
const (
	defaultGenerationDelay = 2 * time.Second
	defaultConversionDelay = 500 * time.Millisecond
	defaultPackageDelay    = time.Second
	defaultSlow            = 3 * time.Second
	defaultMaxUploadBytes  = 100 << 20
	defaultMaxPages        = 500
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

	// store is what the service would remember; harness what the emulator
	// adds for tests (faults, rate limits, counters, notifications). The
	// HTTP layer reaches both only through their methods.
	store   *store.Store
	harness *harness.Harness

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
	} else if err := fx.Check(); err != nil {
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
	w, st, h := e.build(fx, true)
	e.cur.Store(w)
	e.store, e.harness = st, h
	if e.state != "" {
		if err := e.loadState(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// build makes the world, a fresh store and a fresh harness from a checked
// fixture; with faults false the fixture's fault settings are left off (a
// reset).
func (e *Emulator) build(fx *Fixture, faults bool) (*world, *store.Store, *harness.Harness) {
	g := fx.Generation
	w := &world{
		fx:           fx,
		convDelay:    msOr(g.ConversionDelayMs, defaultConversionDelay),
		pkgDelay:     msOr(g.PackageDelayMs, defaultPackageDelay),
		resultStatus: cmp.Or(g.ResultStatus, store.DefaultResultStatus),
		genPrivate:   g.Private == nil || *g.Private,
	}
	genDelay := msOr(g.DelayMs, defaultGenerationDelay)
	if e.genOverride != nil {
		genDelay = *e.genOverride
	}
	seed := e.seed
	var hf harness.Faults
	slow := defaultSlow
	if f := fx.Faults; f != nil {
		if faults {
			hf = harness.Faults{Rate: f.Rate, Kinds: f.Kinds}
		}
		if f.SlowMs > 0 {
			slow = time.Duration(f.SlowMs) * time.Millisecond
		}
		if seed == 0 {
			seed = f.Seed
		}
	}
	if seed == 0 {
		seed = mrand.Uint64()
	}
	return w, store.New(fx, e.now(), genDelay), harness.New(hf, slow, seed)
}

func msOr(ms *int64, def time.Duration) time.Duration {
	if ms == nil {
		return def
	}
	return time.Duration(*ms) * time.Millisecond
}
