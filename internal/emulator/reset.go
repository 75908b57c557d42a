package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Limits of a fixture sent to PUT /_emulator/fixture: far above what a
// test world needs, there so that no body can exhaust the emulator.
const (
	// MaxFixtureBytes is the largest fixture body read.
	MaxFixtureBytes = 16 << 20
	// MaxFixtureDepth is how many arrays and objects may enclose one
	// another in it (a valid fixture nests six).
	MaxFixtureDepth = 64
)

// replace takes in the contents of a fresh store, and the world that goes
// with it, under s's lock: calls under way finish against one world or the
// other, never a mixture of one store's maps.
func (s *store) replace(ns *store, swap func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts, s.cols, s.seq, s.tokens = ns.accounts, ns.cols, ns.seq, ns.tokens
	s.genDelay, s.faults, s.dice = ns.genDelay, ns.faults, ns.dice
	s.requests, s.notifications, s.rates, s.seeded = ns.requests, ns.notifications, ns.rates, ns.seeded
	// Still rising, so that the state file is rewritten.
	s.version++
	swap()
}

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
	if err := fx.check(); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	e.install(fx, true)
	return nil
}

// install builds fx's world and swaps it in; callers hold e.worldMu.
func (e *Emulator) install(fx *Fixture, faults bool) {
	w, ns := e.build(fx, faults)
	e.store.replace(ns, func() { e.cur.Store(w) })
	e.persist()
}

// ParseFixtureBody reads a fixture sent over the network (PUT
// /_emulator/fixture): at most MaxFixtureBytes, nested at most
// MaxFixtureDepth deep, decoded as strictly as a fixture file, and naming
// no file: a feed's "file" would have the emulator read a file of the
// machine it runs on, so only a fixture read from disk may name one.
func ParseFixtureBody(r io.Reader) (*Fixture, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFixtureBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fixture: the body could not be read: %w", err)
	}
	if len(b) > MaxFixtureBytes {
		return nil, fmt.Errorf("fixture: the body is larger than %d bytes; the emulator reads at most %d", MaxFixtureBytes, MaxFixtureBytes)
	}
	if err := checkDepth(b, MaxFixtureDepth); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f Fixture
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if dec.More() {
		return nil, errors.New("fixture: trailing data after the JSON object")
	}
	for i, a := range f.Accounts {
		for j, fd := range a.Feeds {
			if fd.File != "" {
				return nil, fmt.Errorf("fixture: accounts[%d].feeds[%d].file: a fixture sent over HTTP cannot name files (%q); list the products, or start the emulator with -fixture", i, j, fd.File)
			}
		}
	}
	f.inlineColumns(b)
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	return &f, nil
}

// checkDepth refuses JSON whose arrays and objects nest deeper than max,
// reading tokens in one pass before anything is decoded into values.
func checkDepth(b []byte, limit int) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > limit {
				return fmt.Errorf("the body is nested more than %d arrays and objects deep; the emulator reads at most %d", limit, limit)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}
