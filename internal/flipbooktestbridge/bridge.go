// Package flipbooktestbridge lets this module's own tests reach past the
// public flipbooktest facade: serve a Fixture built in Go, and use the
// emulator's whole Go API behind a flipbooktest.Server. Other modules
// cannot import an internal package, so flipbooktest's public surface stays
// the small one it documents.
package flipbooktestbridge

import (
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// Config is what flipbooktest's options set (flipbooktest.Option is a
// func(*Config) error).
type Config struct {
	Fixture *emulator.Fixture
	Delay   *time.Duration
	Seed    uint64
	Logf    func(string, ...any)
	Now     func() time.Time
}

// WithFixture is a flipbooktest.Option that serves fx as it is (feed files
// already read).
func WithFixture(fx *emulator.Fixture) func(*Config) error {
	return func(c *Config) error { c.Fixture = fx; return nil }
}

var serverOf func(any) *emulator.Server

// Register is called once by flipbooktest.
func Register(f func(any) *emulator.Server) { serverOf = f }

// Server is the emulator behind a *flipbooktest.Server.
func Server(srv any) *emulator.Server { return serverOf(srv) }
