package store

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
	f, err := decodeFixture(b)
	if err != nil {
		return nil, err
	}
	for i, a := range f.Accounts {
		for j, fd := range a.Feeds {
			if fd.File != "" {
				return nil, fmt.Errorf("fixture: accounts[%d].feeds[%d].file: a fixture sent over HTTP cannot name files (%q); list the products, or start the emulator with -fixture", i, j, fd.File)
			}
		}
	}
	f.InlineColumns(b)
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	return f, nil
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
