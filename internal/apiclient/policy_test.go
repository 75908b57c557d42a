package apiclient

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The operations that set a state are sent again after an ambiguous
// failure, and the second answer is their result.
func TestSetStateCallsResentAfterAmbiguousFailure(t *testing.T) {
	const logo = "PNG-logo-bytes"
	calls := map[string]struct {
		answer string
		call   func(ctx context.Context, c *Client) error
	}{
		ActionSetPermissions: {okEnvelope(`{"permissions":[{"type":"teammate"}]}`), func(ctx context.Context, c *Client) error {
			got, err := c.SetPermissions(ctx, "c-1", []Permission{{Type: PermissionTeammate}})
			if err == nil && !reflect.DeepEqual(got, []Permission{{Type: PermissionTeammate}}) {
				return errors.New("wrong result")
			}
			return err
		}},
		ActionDeleteBackgroundImage: {okEnvelope(`{"collectionHash":"c-1"}`), func(ctx context.Context, c *Client) error {
			_, err := c.DeleteBackgroundImage(ctx, "c-1", ResponseFormat{})
			return err
		}},
		ActionSetLogo: {okEnvelope(`{"collectionHash":"c-1","settings":{"logoImage":"l"}}`), func(ctx context.Context, c *Client) error {
			_, err := c.SetLogo(ctx, SetLogoInput{CollectionHash: "c-1", File: &Upload{Name: "l.png", Body: strings.NewReader(logo)}})
			return err
		}},
	}
	for fname, fail := range ambiguousFailures {
		for action, tt := range calls {
			t.Run(fname+"/"+action, func(t *testing.T) {
				f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
					if n == 0 {
						fail(t, w)
						return
					}
					writeJSON(w, http.StatusOK, tt.answer)
				})
				c, fs := newTestClient(t, f, nil)
				if err := tt.call(t.Context(), c); err != nil {
					t.Fatal(err)
				}
				reqs := f.requests()
				if len(reqs) != 2 || len(fs.recorded()) != 1 {
					t.Fatalf("%d requests, backoffs %v; want 2 and one backoff", len(reqs), fs.recorded())
				}
				if action == ActionSetLogo && (string(reqs[0].File) != logo || string(reqs[1].File) != logo) {
					t.Errorf("files sent %q, %q: the upload was not rewound", reqs[0].File, reqs[1].File)
				}
			})
		}
	}
}

// code 50 from setPermissions does not say whether the list was saved: it
// is sent again like any ambiguous failure.
func TestSetPermissionsOperationFailedIsResent(t *testing.T) {
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			writeJSON(w, http.StatusOK, `{"code":50,"status":"Operation failed"}`)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"permissions":[]}`))
	})
	c, _ := newTestClient(t, f, nil)
	if _, err := c.SetPermissions(t.Context(), "c-1", nil); err != nil || f.count() != 2 {
		t.Fatalf("err = %v after %d requests, want success after 2", err, f.count())
	}
}

// A re-send that never gets an answer ends as an unknown outcome that says
// how often it was sent.
func TestResendExhaustedIsOutcomeUnknown(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { resetConn(t, w) })
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Retry.MaxRetries = new(2) })
	_, err := c.DeleteBackgroundImage(t.Context(), "c-1", ResponseFormat{})
	if !IsOutcomeUnknown(err) || f.count() != 3 {
		t.Fatalf("err = %v after %d requests, want outcome unknown after 3", err, f.count())
	}
	if !strings.Contains(err.Error(), "sent 3 times") || strings.Contains(err.Error(), "not re-sent") {
		t.Errorf("message: %s", err)
	}
}

// A logo whose body cannot rewind is sent once.
func TestResendNeedsARewindableUpload(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { resetConn(t, w) })
	c, _ := newTestClient(t, f, nil)
	_, err := c.SetLogo(t.Context(), SetLogoInput{CollectionHash: "c-1",
		File: &Upload{Name: "l.png", Body: io.MultiReader(strings.NewReader("png"))}})
	if !IsOutcomeUnknown(err) || f.count() != 1 {
		t.Fatalf("err = %v after %d requests, want outcome unknown after 1", err, f.count())
	}
}

// permissionsAPI answers setPermissions by failing the first n calls after
// saving (the answer is lost), and getPermissions with what was saved.
func permissionsAPI(t *testing.T, lose int, skip bool) *fakeAPI {
	return permissionsAPIFrom(t, `[]`, lose, skip)
}

// permissionsAPIFrom is permissionsAPI with the list saved before as
// initial (JSON).
func permissionsAPIFrom(t *testing.T, initial string, lose int, skip bool) *fakeAPI {
	var mu sync.Mutex
	saved := initial
	sets := 0
	return newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch c.Params.Get("action") {
		case ActionGetPermissions:
			writeJSON(w, http.StatusOK, okEnvelope(`{"permissions":`+saved+`}`))
		case ActionSetPermissions:
			sets++
			saved = `[{"type":"teammate","email":"ANA@example.com"}]`
			if skip {
				saved = `[]` // the service skipped the entry
			}
			if sets <= lose {
				resetConn(t, w)
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(`{"permissions":`+saved+`}`))
		default:
			t.Errorf("unexpected action %s", c.Params.Get("action"))
		}
	})
}

// With notifyViaEmail the list is read back: a list already saved is not
// sent again (no second round of e-mails).
func TestSetPermissionsWithNotifyReadsBackBeforeResending(t *testing.T) {
	want := []Permission{{Type: PermissionTeammate, Email: "ana@example.com", NotifyViaEmail: true}}

	f := permissionsAPI(t, 1, false)
	c, _ := newTestClient(t, f, nil)
	got, err := c.SetPermissions(t.Context(), "c-1", want)
	if err != nil {
		t.Fatal(err)
	}
	if len(actionsSent(f, ActionSetPermissions)) != 1 || len(actionsSent(f, ActionGetPermissions)) != 2 {
		t.Errorf("requests %d: want one set, one read before it and one read back", f.count())
	}
	if !reflect.DeepEqual(got, []Permission{{Type: PermissionTeammate, Email: "ANA@example.com"}}) {
		t.Errorf("result %+v, want the list read back", got)
	}

	// Not saved (the service skipped the entry): sent again, and the
	// second answer is the result.
	f = permissionsAPI(t, 1, true)
	c, _ = newTestClient(t, f, nil)
	got, err = c.SetPermissions(t.Context(), "c-1", want)
	if err != nil {
		t.Fatal(err)
	}
	if len(actionsSent(f, ActionSetPermissions)) != 2 || len(got) != 0 {
		t.Errorf("sets %d, result %+v: want a second send and its empty answer", len(actionsSent(f, ActionSetPermissions)), got)
	}

	// Never answered: bounded by MaxRetries, then an unknown outcome.
	f = permissionsAPI(t, 100, true)
	c, _ = newTestClient(t, f, func(cfg *Config) { cfg.Retry.MaxRetries = new(2) })
	_, err = c.SetPermissions(t.Context(), "c-1", want)
	if !IsOutcomeUnknown(err) || len(actionsSent(f, ActionSetPermissions)) != 3 {
		t.Errorf("err = %v after %d sets, want outcome unknown after 3", err, len(actionsSent(f, ActionSetPermissions)))
	}
}

// addAPI is a collection holding items; flipbook.add appends one (titled
// as asked, or "doc") and loses the answer of the calls listed in lose
// (1-based); extra items appear with each add when given.
type addAPI struct {
	*fakeAPI
	mu    sync.Mutex
	items []string // JSON objects
	adds  int
	files [][]byte
}

func newAddAPI(t *testing.T, lose map[int]bool, landed func(n int) bool, extra string) *addAPI {
	a := &addAPI{items: []string{`{"flipbookHash":"old","flipbookTitle":"Manual"}`}}
	a.fakeAPI = newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		switch c.Params.Get("action") {
		case ActionGetCollection:
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionItems":[`+strings.Join(a.items, ",")+`]}`))
		case ActionAddFlipbook:
			a.adds++
			a.files = append(a.files, c.File)
			title := c.Params.Get("title")
			if title == "" {
				title = "doc"
			}
			item := `{"flipbookHash":"new-` + strconv.Itoa(a.adds) + `","flipbookTitle":"` + title + `","convertStatus":"PROCESSING","extension":"pdf"}`
			if landed == nil || landed(a.adds) {
				a.items = append(a.items, item)
				if extra != "" {
					a.items = append(a.items, extra)
				}
			}
			if lose[a.adds] {
				resetConn(t, w)
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(item))
		}
	})
	return a
}

const testPDF = "%PDF-1.4 a small document"

func addInput(title string) AddFlipbookInput {
	return AddFlipbookInput{CollectionHash: "c-1", Title: title,
		File: &Upload{Name: "a.pdf", Body: bytes.NewReader([]byte(testPDF)), Size: int64(len(testPDF))}}
}

// A lost answer to an upload that landed: the new item is adopted, the
// document is not uploaded again.
func TestAddFlipbookAdoptsTheItemOfALostAnswer(t *testing.T) {
	a := newAddAPI(t, map[int]bool{1: true}, nil, "")
	c, _ := newTestClient(t, a.fakeAPI, nil)
	fb, err := c.AddFlipbook(t.Context(), addInput("Manual"))
	if err != nil {
		t.Fatal(err)
	}
	if fb.FlipbookHash != "new-1" || fb.ConvertStatus != "PROCESSING" || a.adds != 1 {
		t.Errorf("got %+v after %d uploads, want new-1 after 1", fb, a.adds)
	}
}

// An upload that did not land is sent again, rewound.
func TestAddFlipbookResendsWhenNothingLanded(t *testing.T) {
	a := newAddAPI(t, map[int]bool{1: true}, func(n int) bool { return n > 1 }, "")
	c, _ := newTestClient(t, a.fakeAPI, nil)
	fb, err := c.AddFlipbook(t.Context(), addInput(""))
	if err != nil {
		t.Fatal(err)
	}
	if fb.FlipbookHash != "new-2" || a.adds != 2 {
		t.Errorf("got %+v after %d uploads, want new-2 after 2", fb, a.adds)
	}
	for i, f := range a.files {
		if string(f) != testPDF {
			t.Errorf("upload %d sent %q", i+1, f)
		}
	}
}

// Items with another title are not this upload; two candidates cannot be
// told apart, so nothing is adopted and nothing is sent again.
func TestAddFlipbookNeverGuesses(t *testing.T) {
	// Another title appeared besides ours: ours is adopted.
	a := newAddAPI(t, map[int]bool{1: true}, nil, `{"flipbookHash":"other","flipbookTitle":"Price list"}`)
	c, _ := newTestClient(t, a.fakeAPI, nil)
	fb, err := c.AddFlipbook(t.Context(), addInput("Manual"))
	if err != nil || fb.FlipbookHash != "new-1" {
		t.Fatalf("got %+v, %v", fb, err)
	}
	// No title asked: two new items, either could be this upload.
	a = newAddAPI(t, map[int]bool{1: true}, nil, `{"flipbookHash":"other","flipbookTitle":"Price list"}`)
	c, _ = newTestClient(t, a.fakeAPI, nil)
	_, err = c.AddFlipbook(t.Context(), addInput(""))
	if !IsOutcomeUnknown(err) || a.adds != 1 {
		t.Fatalf("err = %v after %d uploads, want outcome unknown after 1", err, a.adds)
	}
	for _, want := range []string{"new-1", "other", "2 new items"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %s", want, err)
		}
	}
}

// Uploads of one Client to one collection go one at a time, so a new item
// can only be the upload that is in flight.
func TestAddFlipbookSerialisesUploadsPerCollection(t *testing.T) {
	var inFlight, most atomic.Int32
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		if c.Params.Get("action") == ActionGetCollection {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1"}`))
			return
		}
		n := inFlight.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		inFlight.Add(-1)
		writeJSON(w, http.StatusOK, okEnvelope(`{"flipbookHash":"f"}`))
	})
	c, _ := newTestClient(t, f, nil)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1", FileURL: "https://example.com/a.pdf"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d uploads to one collection were in flight at once, want 1", most.Load())
	}
}

// Code 22 (maintenance) is retried like a throttle, from a longer backoff,
// for every operation, creates included; then it is reported as sent.
func TestMaintenanceRetriedThenReported(t *testing.T) {
	const maint = `{"code":22,"status":"Maintenance mode"}`
	f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if n < 2 {
			writeJSON(w, http.StatusOK, maint)
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"new"}`))
	})
	c, fs := newTestClient(t, f, nil)
	if _, err := c.CreateCatalog(t.Context(), CreateCatalogInput{Sections: []Section{{Type: SectionFeed}}}); err != nil {
		t.Fatal(err)
	}
	if got, want := fs.recorded(), []time.Duration{2 * time.Second, 4 * time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("backoffs %v, want %v", got, want)
	}

	f = newFakeAPI(t, func(int, captured, http.ResponseWriter, *http.Request) {})
	f.respond = func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, maint) }
	c, fs = newTestClient(t, f, nil)
	_, err := c.GetCollection(t.Context(), "c-1")
	if !IsMaintenance(err) || f.count() != 1+MaintenanceMaxRetries {
		t.Fatalf("err = %v after %d requests, want code 22 after %d", err, f.count(), 1+MaintenanceMaxRetries)
	}
	if !strings.Contains(err.Error(), "code 22 (Maintenance mode)") || IsUnlistedCode(err) {
		t.Errorf("message: %s", err)
	}
	if got := fs.recorded(); got[len(got)-1] != MaintenanceMaxBackoff {
		t.Errorf("backoffs %v, want growth to %v", got, MaintenanceMaxBackoff)
	}
}

// A code nobody lists is an error naming the code and status as sent; a
// mutating call is not retried on it.
func TestUnlistedCodeNamedAsSent(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, `{"code":27,"status":"Quota Of Something"}`)
	})
	c, _ := newTestClient(t, f, nil)
	_, err := c.SetPermissions(t.Context(), "c-1", nil)
	if !IsUnlistedCode(err) || CodeOf(err) != 27 || f.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, f.count())
	}
	if !strings.Contains(err.Error(), "code 27 (Quota Of Something)") {
		t.Errorf("message: %s", err)
	}
}

// A collection that was generating before the upload gains its generated
// item too: without a title nothing can be adopted safely.
func TestAddFlipbookToAGeneratingCollectionNeedsATitle(t *testing.T) {
	var adds atomic.Int32
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		switch c.Params.Get("action") {
		case ActionGetCollection:
			if adds.Load() == 0 {
				writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionStatus":"processing"}`))
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionStatus":"unlisted",
				"collectionItems":[{"flipbookHash":"generated","flipbookTitle":"Brochure"},{"flipbookHash":"mine","flipbookTitle":"Manual"}]}`))
		case ActionAddFlipbook:
			adds.Add(1)
			resetConn(t, w)
		}
	})
	c, _ := newTestClient(t, f, nil)
	if _, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1", FileURL: "https://example.com/a.pdf"}); !IsOutcomeUnknown(err) || adds.Load() != 1 {
		t.Fatalf("err = %v after %d uploads, want outcome unknown after 1", err, adds.Load())
	}
	adds.Store(0)
	fb, err := c.AddFlipbook(t.Context(), AddFlipbookInput{CollectionHash: "c-1", Title: "Manual", FileURL: "https://example.com/a.pdf"})
	if err != nil || fb.FlipbookHash != "mine" || adds.Load() != 1 {
		t.Fatalf("got %+v, %v after %d uploads, want mine after 1", fb, err, adds.Load())
	}
}

// Some requested entries skipped (spec, rule 6), the answer lost: the list
// read back is neither the requested one nor the one before, so the call
// landed and is not sent again (the saved reader is e-mailed once). When
// the list read back is still the one before and already held a requested
// entry, reading back cannot tell: nothing is sent again.
func TestSetPermissionsWithNotifyPartlySkipped(t *testing.T) {
	want := []Permission{
		{Type: PermissionTeammate, Email: "ana@example.com", NotifyViaEmail: true},
		{Type: PermissionTeammate, Email: "ghost@example.com", NotifyViaEmail: true},
	}
	f := permissionsAPI(t, 1, false) // saves ana only
	c, _ := newTestClient(t, f, nil)
	got, err := c.SetPermissions(t.Context(), "c-1", want)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(actionsSent(f, ActionSetPermissions)); n != 1 {
		t.Errorf("sets %d, want 1: the read back shows the call landed", n)
	}
	if !reflect.DeepEqual(got, []Permission{{Type: PermissionTeammate, Email: "ANA@example.com"}}) {
		t.Errorf("result %+v, want the list read back", got)
	}

	f = permissionsAPIFrom(t, `[{"type":"teammate","email":"ana@example.com"}]`, 1, false)
	c, _ = newTestClient(t, f, nil)
	_, err = c.SetPermissions(t.Context(), "c-1", want)
	if !IsOutcomeUnknown(err) || len(actionsSent(f, ActionSetPermissions)) != 1 {
		t.Errorf("err = %v after %d sets, want outcome unknown after 1", err, len(actionsSent(f, ActionSetPermissions)))
	}
}

// An upload that landed but is listed only on a later read (the spec does
// not say items are listed at once) is still adopted, not uploaded again.
func TestAddFlipbookWaitsForALateListing(t *testing.T) {
	var mu sync.Mutex
	reads, adds := 0, 0
	f := newFakeAPI(t, func(_ int, c captured, w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch c.Params.Get("action") {
		case ActionGetCollection:
			reads++
			items := `{"flipbookHash":"old","flipbookTitle":"Manual"}`
			if adds > 0 && reads >= 3 { // the read before, one read back without it
				items += `,{"flipbookHash":"late","flipbookTitle":"Guide","convertStatus":"PROCESSING"}`
			}
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionItems":[`+items+`]}`))
		case ActionAddFlipbook:
			adds++
			resetConn(t, w)
		}
	})
	c, sleeps := newTestClient(t, f, nil)
	fb, err := c.AddFlipbook(t.Context(), addInput("Guide"))
	if err != nil {
		t.Fatal(err)
	}
	if fb.FlipbookHash != "late" || adds != 1 {
		t.Errorf("got %+v after %d uploads, want the late item after 1", fb, adds)
	}
	if !slices.Contains(sleeps.recorded(), addedItemPause) {
		t.Errorf("waits %v: want a pause of %v before reading again", sleeps.recorded(), addedItemPause)
	}
}

// PermissionKey is the one definition of the same access-list entry: the
// client's read-back used to compare the type without case while the
// provider compared it exactly; now both compare it exactly.
func TestPermissionKey(t *testing.T) {
	same := func(a, b Permission) bool { return PermissionKey(a) == PermissionKey(b) }
	if !same(Permission{Type: "teammate", Email: "Ana@Example.com"}, Permission{Type: "teammate", Email: "ana@example.com"}) {
		t.Error("e-mails differing only in case must be the same entry")
	}
	if same(Permission{Type: "Teammate", Email: "ana@example.com"}, Permission{Type: "teammate", Email: "ana@example.com"}) {
		t.Error("a type spelled otherwise is another (unknown) type, not the same entry")
	}
	if same(Permission{Type: "teammate", Group: "Sales"}, Permission{Type: "teammate", Group: "sales"}) {
		t.Error("groups are matched exactly")
	}
	if !samePermissions([]Permission{{Type: "sso"}, {Type: "teammate", Group: "Sales"}}, []Permission{{Type: "teammate", Group: "Sales"}, {Type: "sso"}}) {
		t.Error("lists are compared as sets")
	}
}

// A caller that has just read the list afresh gives it as the list before:
// a notifying call then reads only to learn whether a lost call landed, and
// still does not send it again.
func TestSetPermissionsAfterUsesTheListGiven(t *testing.T) {
	want := []Permission{{Type: PermissionTeammate, Email: "ana@example.com", NotifyViaEmail: true}}

	f := permissionsAPI(t, 0, false)
	c, _ := newTestClient(t, f, nil)
	if _, err := c.SetPermissionsAfter(t.Context(), "c-1", want, []Permission{}); err != nil {
		t.Fatal(err)
	}
	if sets, reads := len(actionsSent(f, ActionSetPermissions)), len(actionsSent(f, ActionGetPermissions)); sets != 1 || reads != 0 {
		t.Errorf("%d sets and %d reads, want one set and no read (the list before was given)", sets, reads)
	}

	f = permissionsAPI(t, 1, false) // the answer is lost
	c, _ = newTestClient(t, f, nil)
	got, err := c.SetPermissionsAfter(t.Context(), "c-1", want, []Permission{})
	if err != nil {
		t.Fatal(err)
	}
	if sets, reads := len(actionsSent(f, ActionSetPermissions)), len(actionsSent(f, ActionGetPermissions)); sets != 1 || reads != 1 {
		t.Errorf("%d sets and %d reads, want one set and one read back", sets, reads)
	}
	if !reflect.DeepEqual(got, []Permission{{Type: PermissionTeammate, Email: "ANA@example.com"}}) {
		t.Errorf("result %+v, want the list read back", got)
	}
}
