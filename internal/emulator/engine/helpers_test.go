package engine

import (
	"reflect"
	"testing"
)

// lib is an in-memory Library for tests.
type lib struct {
	templates map[string]Template
	feeds     map[string]Feed
}

func (l lib) Template(hash string) (Template, bool) {
	t, ok := l.templates[hash]
	return t, ok
}

func (l lib) Feed(hash string) (Feed, bool) {
	f, ok := l.feeds[hash]
	return f, ok
}

func newLib(templates []Template, feeds ...Feed) lib {
	l := lib{templates: map[string]Template{}, feeds: map[string]Feed{}}
	for _, t := range templates {
		l.templates[t.Hash] = t
	}
	for _, f := range feeds {
		l.feeds[f.Hash] = f
	}
	return l
}

// assertInvalid checks that got carries exactly the wanted errors, in order;
// want nil means got must be nil.
func assertInvalid(t *testing.T, got *Invalid, want []string) {
	t.Helper()
	if want == nil {
		if got != nil {
			t.Fatalf("unexpected validation failure: %v", got)
		}
		return
	}
	if got == nil {
		t.Fatalf("got no validation failure, want %q", want)
	}
	if got.Message != ValidationFailed {
		t.Errorf("message = %q, want %q", got.Message, ValidationFailed)
	}
	if !reflect.DeepEqual(got.Errors, want) {
		t.Errorf("errors:\n got %q\nwant %q", got.Errors, want)
	}
}
