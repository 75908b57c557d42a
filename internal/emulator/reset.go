package emulator

import (
	"errors"
	"fmt"
)

// Reset returns the emulator to the world its fixture made at start (or
// the last one ReplaceFixture installed): collections, uploads, folders,
// request counters and notifications as they were, faults off, the
// generation delay the fixture's. With a state file, the file is rewritten.
func (e *Emulator) Reset() {
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	e.install(e.w().fx, false)
}

// ReplaceFixture replaces the whole world with fx, as if the emulator had
// started with it (its faults included). A fixture that does not check
// leaves the old world as it was.
func (e *Emulator) ReplaceFixture(fx *Fixture) error {
	if fx == nil {
		return errors.New("fixture: nil")
	}
	if err := fx.Check(); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	e.install(fx, true)
	return nil
}

// install builds fx's world and swaps it in; callers hold e.worldMu.
func (e *Emulator) install(fx *Fixture, faults bool) {
	w, ns, nh := e.build(fx, faults)
	e.store.Replace(ns, func() {
		e.cur.Store(w)
		e.harness.Replace(nh)
	})
	e.persist()
}
