package emulator

import (
	"io"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// The fixture format, defined beside the store it seeds (package store) and
// named here for the emulator's users; the README's "Fixture" paragraph
// lists it.
type (
	Fixture              = store.Fixture
	GenerationFixture    = store.GenerationFixture
	LimitsFixture        = store.LimitsFixture
	FaultsFixture        = store.FaultsFixture
	AccountFixture       = store.AccountFixture
	PlanFixture          = store.PlanFixture
	ReaderFixture        = store.ReaderFixture
	TemplateFixture      = store.TemplateFixture
	FeedFixture          = store.FeedFixture
	CollectionFixture    = store.CollectionFixture
	ItemFixture          = store.ItemFixture
	PermissionFixture    = store.PermissionFixture
	FlipbookStatsFixture = store.FlipbookStatsFixture
	UserStatsFixture     = store.UserStatsFixture
	FeedFileError        = store.FeedFileError
	// Notification is an e-mail collection.setPermissions would have sent.
	Notification = harness.Notification
)

// Limits of a fixture sent to PUT /_emulator/fixture.
const (
	MaxFixtureBytes = store.MaxFixtureBytes
	MaxFixtureDepth = store.MaxFixtureDepth
)

// DemoFixture is the embedded demo world (also the binary's default), a
// fresh copy on every call.
func DemoFixture() *Fixture { return store.DemoFixture() }

// LoadFixture reads and checks a fixture file; its feeds may name files
// beside it.
func LoadFixture(path string) (*Fixture, error) { return store.LoadFixture(path) }

// ParseFixture decodes and checks a fixture; feed files are resolved
// relative to the current directory.
func ParseFixture(b []byte) (*Fixture, error) { return store.ParseFixture(b) }

// ParseFixtureBody reads a fixture sent over the network: size and depth
// capped, naming no file.
func ParseFixtureBody(r io.Reader) (*Fixture, error) { return store.ParseFixtureBody(r) }
