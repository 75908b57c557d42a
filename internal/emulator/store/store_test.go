package store

import (
	"testing"
	"time"
)

const testFixture = `{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"c1","title":"One","pageCount":2}]}]}`

// A copy handed out shares nothing with the store: changing it changes no
// answer.
func TestStoreHandsOutCopies(t *testing.T) {
	fx, err := ParseFixture([]byte(testFixture))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	s := New(fx, now, 0)
	c, code := s.CollectionOf("k", "c1")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	c.Items[0].PageCount = 99
	c.Permissions = append(c.Permissions, Permission{Type: "otp"})
	again, _ := s.CollectionOf("k", "c1")
	if again.Title != "One" || again.Items[0].PageCount != 2 || len(again.Permissions) != 0 {
		t.Fatalf("the store changed through a copy: %+v", again)
	}
	if _, code := s.CollectionOf("other", "c1"); code != CodeForbidden {
		t.Fatalf("another key: %d", code)
	}
	if _, code := s.CollectionOf("k", "nope"); code != CodeInvalidCollection {
		t.Fatalf("unknown hash: %d", code)
	}
}
