package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// collectionService is a fake service holding one collection whose title
// and item list tests change "outside" (as the web application would);
// deleteBackgroundImage answers the collection, flipbook.add adds an item.
type collectionService struct {
	mu    sync.Mutex
	title string
	items []string
	// hold, when set, is waited on by the next getCollection before it
	// reads the collection (a read in flight); entered is closed first.
	hold, entered chan struct{}
}

func (s *collectionService) body() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := ""
	for i, h := range s.items {
		if i > 0 {
			items += ","
		}
		items += fmt.Sprintf(`{"flipbookHash":%q,"convertStatus":"COMPLETE"}`, h)
	}
	return okEnvelope(fmt.Sprintf(`{"collectionHash":"c1","collectionTitle":%q,"collectionStatus":"unlisted","collectionItems":[%s]}`, s.title, items))
}

func (s *collectionService) set(title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.title = title
}

func (s *collectionService) respond(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
	switch c.Params.Get("action") {
	case ActionGetCollection:
		s.mu.Lock()
		hold, entered := s.hold, s.entered
		s.hold, s.entered = nil, nil
		s.mu.Unlock()
		if hold != nil {
			body := s.body() // what the collection was when the read arrived
			close(entered)
			<-hold
			writeJSON(w, http.StatusOK, body)
			return
		}
		writeJSON(w, http.StatusOK, s.body())
	case ActionDeleteBackgroundImage:
		s.set("after background")
		writeJSON(w, http.StatusOK, s.body())
	case ActionAddFlipbook:
		s.mu.Lock()
		h := fmt.Sprintf("fb%d", len(s.items)+1)
		s.items = append(s.items, h)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, okEnvelope(fmt.Sprintf(`{"flipbookHash":%q,"convertStatus":"PROCESSING"}`, h)))
	case ActionGetPermissions:
		writeJSON(w, http.StatusOK, okEnvelope(`{"permissions":[{"type":"teammate","group":"Sales"}]}`))
	case ActionSetPermissions:
		writeJSON(w, http.StatusOK, okEnvelope(`{"permissions":[]}`))
	default:
		writeJSON(w, http.StatusOK, okEnvelope(`{}`))
	}
}

func newCollectionService(t *testing.T) (*collectionService, *fakeAPI) {
	s := &collectionService{title: "first"}
	return s, newFakeAPI(t, s.respond)
}

// withViews is the configuration of a Client that lives for one operation,
// as the provider's do.
func withViews(cfg *Config) { cfg.ViewTTL = DefaultViewTTL }

// Reads of one collection at the same time, and reads while the answer is
// fresh, share one call; every caller gets a value of its own.
func TestViewsShareReads(t *testing.T) {
	_, f := newCollectionService(t)
	c, _ := newTestClient(t, f, withViews)
	var wg sync.WaitGroup
	got := make([]*Collection, 8)
	for i := range got {
		wg.Go(func() {
			col, err := c.GetCollection(t.Context(), "c1")
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = col
		})
	}
	wg.Wait()
	if n := len(actionsSent(f, ActionGetCollection)); n != 1 {
		t.Fatalf("%d getCollection calls for 8 reads at once, want 1", n)
	}
	got[0].CollectionTitle = "changed by a caller"
	for i, col := range got[1:] {
		if col == nil || col.CollectionTitle != "first" {
			t.Fatalf("reader %d got %+v, want its own copy titled first", i+1, col)
		}
	}
	for range 3 {
		if _, err := c.GetPermissions(t.Context(), "c1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(actionsSent(f, ActionGetPermissions)); n != 1 {
		t.Errorf("%d getPermissions calls for 3 reads, want 1", n)
	}
}

// No read shows an answer older than a write this Client made: a write
// whose answer is the collection leaves that answer as the view; any other
// write makes the next read reach the service; a read in flight during a
// write is not kept.
func TestViewsNeverOlderThanOwnWrite(t *testing.T) {
	s, f := newCollectionService(t)
	c, _ := newTestClient(t, f, withViews)
	ctx := t.Context()
	read := func(want string, wantItems int) {
		t.Helper()
		col, err := c.GetCollection(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if col.CollectionTitle != want || len(col.CollectionItems) != wantItems {
			t.Fatalf("read %q with %d items, want %q with %d", col.CollectionTitle, len(col.CollectionItems), want, wantItems)
		}
	}
	read("first", 0)
	if _, err := c.DeleteBackgroundImage(ctx, "c1", ResponseFormat{}); err != nil {
		t.Fatal(err)
	}
	read("after background", 0)
	if n := len(actionsSent(f, ActionGetCollection)); n != 1 {
		t.Fatalf("%d getCollection calls, want 1: the write's answer is the view", n)
	}

	if _, err := c.AddFlipbook(ctx, AddFlipbookInput{CollectionHash: "c1", FileURL: "https://example.com/a.pdf"}); err != nil {
		t.Fatal(err)
	}
	if n := len(actionsSent(f, ActionGetCollection)); n != 1 {
		t.Fatalf("%d getCollection calls, want 1: the look before the upload uses the view", n)
	}
	read("after background", 1)
	if n := len(actionsSent(f, ActionGetCollection)); n != 2 {
		t.Fatalf("%d getCollection calls, want 2: flipbook.add does not answer the collection, so it is read again", n)
	}

	// A read that left before a write and answers after it is not kept:
	// the write's own answer stays the view.
	s.set("held")
	s.mu.Lock()
	s.hold, s.entered = make(chan struct{}), make(chan struct{})
	hold, entered := s.hold, s.entered
	s.mu.Unlock()
	c.views.mu.Lock()
	delete(c.views.m, collectionView("c1")) // let the held read reach the service
	c.views.mu.Unlock()
	done := make(chan *Collection)
	go func() {
		col, err := c.GetCollection(ctx, "c1")
		if err != nil {
			t.Error(err)
		}
		done <- col
	}()
	<-entered
	if _, err := c.DeleteBackgroundImage(ctx, "c1", ResponseFormat{}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	if old := <-done; old == nil || old.CollectionTitle != "held" {
		t.Fatalf("the held read answered %+v, want the collection as it was when it arrived", old)
	}
	calls := len(actionsSent(f, ActionGetCollection))
	read("after background", 1)
	if n := len(actionsSent(f, ActionGetCollection)); n != calls {
		t.Errorf("%d getCollection calls after the write, want none: its answer is the view", n-calls)
	}
}

// Polls and reads after an ambiguous write reach the service even while an
// answer is fresh; what they read becomes the view.
func TestViewsPollsReadAfresh(t *testing.T) {
	s, f := newCollectionService(t)
	c, _ := newTestClient(t, f, withViews)
	if _, err := c.GetCollection(t.Context(), "c1"); err != nil {
		t.Fatal(err)
	}
	s.set("generated")
	if _, err := c.WaitForGeneration(t.Context(), "c1", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(actionsSent(f, ActionGetCollection)); n != 2 {
		t.Fatalf("%d getCollection calls, want 2: the poll reads afresh", n)
	}
	col, err := c.GetCollection(t.Context(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if col.CollectionTitle != "generated" || len(actionsSent(f, ActionGetCollection)) != 2 {
		t.Errorf("read %q after %d calls, want the poll's answer without a call", col.CollectionTitle, len(actionsSent(f, ActionGetCollection)))
	}
}

// A change made outside is seen by the next operation (a new Client, as
// every Configure builds) at once, and by the same Client once its answer
// is older than the TTL.
func TestViewsSeeOutsideChanges(t *testing.T) {
	s, f := newCollectionService(t)
	c, fs := newTestClient(t, f, withViews)
	if _, err := c.GetCollection(t.Context(), "c1"); err != nil {
		t.Fatal(err)
	}
	s.set("changed outside")
	next, _ := newTestClient(t, f, withViews)
	if col, err := next.GetCollection(t.Context(), "c1"); err != nil || col.CollectionTitle != "changed outside" {
		t.Fatalf("the next operation read %+v, %v; want the change", col, err)
	}
	if col, _ := c.GetCollection(t.Context(), "c1"); col.CollectionTitle != "first" {
		t.Fatalf("within the TTL the same Client read %q, want its fresh answer", col.CollectionTitle)
	}
	_ = fs.sleep(t.Context(), DefaultViewTTL)
	if col, _ := c.GetCollection(t.Context(), "c1"); col.CollectionTitle != "changed outside" {
		t.Errorf("after the TTL the same Client read %q, want the change", col.CollectionTitle)
	}
	// A Client that may live longer than an operation reuses nothing.
	off, _ := newTestClient(t, f, nil)
	before := f.count()
	for range 2 {
		if _, err := off.GetCollection(t.Context(), "c1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.count() - before; n != 2 {
		t.Errorf("without ViewTTL, 2 reads made %d calls, want 2", n)
	}
}

// A read issued while a write whose answer is the collection is in flight
// waits for that answer instead of calling.
func TestViewsReadWaitsForCarryingWrite(t *testing.T) {
	_, f := newCollectionService(t)
	c, _ := newTestClient(t, f, withViews)
	release := make(chan struct{})
	go func() {
		err := c.views.write(collectionView("c1"), true, func() (json.RawMessage, error) {
			<-release
			return json.RawMessage(`{"collectionHash":"c1","collectionTitle":"from the write"}`), nil
		})
		if err != nil {
			t.Error(err)
		}
	}()
	for {
		c.views.mu.Lock()
		v := c.views.m[collectionView("c1")]
		busy := v != nil && v.carrying > 0
		c.views.mu.Unlock()
		if busy {
			break
		}
		time.Sleep(time.Millisecond)
	}
	got := make(chan *Collection)
	go func() {
		col, err := c.GetCollection(context.WithoutCancel(t.Context()), "c1")
		if err != nil {
			t.Error(err)
		}
		got <- col
	}()
	time.Sleep(20 * time.Millisecond) // let the read find the write in flight (either way, it must not call)
	close(release)
	if col := <-got; col == nil || col.CollectionTitle != "from the write" {
		t.Fatalf("read %+v, want the write's answer", col)
	}
	if n := len(actionsSent(f, ActionGetCollection)); n != 0 {
		t.Errorf("%d getCollection calls, want none", n)
	}
}
