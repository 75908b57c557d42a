package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// For any job length, the schedule sees completion within PollBase plus
// 10% of the job's length, and a long job costs few polls.
func TestPollScheduleDetectionBound(t *testing.T) {
	for _, job := range []time.Duration{0, 100 * time.Millisecond, time.Second, 3 * time.Second, 17 * time.Second,
		time.Minute, 7 * time.Minute, 30 * time.Minute, 2 * time.Hour} {
		var at time.Duration
		polls := 1
		for at < job {
			at += pollInterval(at)
			polls++
		}
		if late, bound := at-job, PollBase+job/10; late > bound {
			t.Errorf("job of %v seen %v late, bound %v", job, late, bound)
		}
		// About 35 polls to reach the 30 s cap (at ~5 min), then two a minute.
		if job == 30*time.Minute && polls > 100 {
			t.Errorf("a 30 min job took %d polls", polls)
		}
	}
	if got := pollInterval(10 * time.Hour); got != MaxPollInterval {
		t.Errorf("interval after 10 h = %v, want the cap", got)
	}
}

func TestWaitForGenerationOnThreeSecondJob(t *testing.T) {
	var fs *fakeSleep
	var start time.Time
	// The job completes 3 s (on the client's fake clock) after the wait began.
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if fs.clock().Sub(start) < 3*time.Second {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionStatus":"processing","flipbookStatus":"processing"}`))
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionHash":"c-1","collectionStatus":"unlisted","flipbookStatus":"complete"}`))
	})
	c, fsl := newTestClient(t, f, nil)
	fs, start = fsl, fsl.clock()
	var seen []Progress
	coll, err := c.WaitForGeneration(t.Context(), "c-1", func(p Progress) { seen = append(seen, p) })
	if err != nil || coll.CollectionStatus != "unlisted" {
		t.Fatalf("got %+v, %v", coll, err)
	}
	// Polls at 0, 0.5, 1.05, 1.655, 2.3205 and 3.05255 s.
	if n := f.count(); n != 6 {
		t.Errorf("a 3 s job took %d polls, want 6", n)
	}
	done := fs.clock().Sub(start)
	if late := done - 3*time.Second; late < 0 || late > PollBase+300*time.Millisecond {
		t.Errorf("completion seen %v after it happened", late)
	}
	if len(seen) != 6 || seen[5].Polls != 6 || seen[5].Status != "unlisted/complete" || seen[0].Status != "processing/processing" ||
		seen[5].What != "generation" || seen[5].Hash != "c-1" || seen[5].Elapsed != done {
		t.Errorf("progress reports: %+v", seen)
	}
	t.Logf("poll calls on a 3 s job: %d, completion seen %v late", f.count(), done-3*time.Second)
}

func TestWaitForGenerationFailureStopsAtOnce(t *testing.T) {
	for _, final := range []string{
		`{"collectionHash":"c-1","collectionStatus":"editable","flipbookStatus":"failed"}`,
		`{"collectionHash":"c-1","collectionStatus":"processing","flipbookStatus":"failed"}`,
	} {
		f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
			if n < 2 {
				writeJSON(w, http.StatusOK, okEnvelope(`{"collectionStatus":"processing","flipbookStatus":"processing"}`))
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(final))
		})
		c, _ := newTestClient(t, f, nil)
		coll, err := c.WaitForGeneration(t.Context(), "c-1", nil)
		var jf *JobFailedError
		if !errors.As(err, &jf) || jf.Hash != "c-1" || jf.Status != "failed" || jf.What != "generation" {
			t.Fatalf("err = %v, want *JobFailedError", err)
		}
		if coll == nil || coll.FlipbookStatus != "failed" || f.count() != 3 {
			t.Errorf("collection %+v after %d polls", coll, f.count())
		}
	}
}

func TestWaitStopsOnAPIErrorAndOnCancel(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, `{"code":46,"status":"Invalid collection hash"}`)
	})
	c, _ := newTestClient(t, f, nil)
	if _, err := c.WaitForGeneration(t.Context(), "gone", nil); !IsCollectionNotFound(err) || f.count() != 1 {
		t.Errorf("err = %v after %d polls", err, f.count())
	}

	g := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{"status":"PROCESSING"}`))
	})
	c, _ = newTestClient(t, g, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err := c.WaitForDownload(ctx, "c-7", func(p Progress) {
		if p.Polls == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "c-7") || !strings.Contains(err.Error(), `"PROCESSING"`) {
		t.Errorf("err = %v, want a cancellation naming the hash and last status", err)
	}
	if g.count() != 3 {
		t.Errorf("%d polls, want 3", g.count())
	}
}

func TestWaitHonoursRealDeadline(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionItems":[{"flipbookHash":"f-1","convertStatus":"PROCESSING"}]}`))
	})
	c, err := New(f.config())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = c.WaitForConversion(ctx, "c-1", "f-1", nil)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "conversion of f-1") {
		t.Errorf("err = %v", err)
	}
	if waited := time.Since(start); waited > 450*time.Millisecond {
		t.Errorf("returned %v after start: the deadline was not honoured", waited)
	}
}

func TestWaitForConversion(t *testing.T) {
	items := []string{
		`[]`,
		`[{"flipbookHash":"other","convertStatus":"COMPLETE"}]`,
		`[{"flipbookHash":"f-1","convertStatus":"PROCESSING"}]`,
	}
	for _, final := range []string{"COMPLETE", "FAILED"} {
		f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
			if n < len(items) {
				writeJSON(w, http.StatusOK, okEnvelope(`{"collectionItems":`+items[n]+`}`))
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(fmt.Sprintf(`{"collectionItems":[{"flipbookHash":"f-1","flipbookPageCount":"3","convertStatus":%q}]}`, final)))
		})
		c, _ := newTestClient(t, f, nil)
		var statuses []string
		item, coll, err := c.WaitForConversion(t.Context(), "c-1", "f-1", func(p Progress) { statuses = append(statuses, p.Status) })
		if f.count() != 4 || item == nil || coll == nil || item.ConvertStatus != final || item.FlipbookPageCount.Int64() != 3 {
			t.Fatalf("%s: item %+v after %d polls", final, item, f.count())
		}
		want := "(item not listed),(item not listed),PROCESSING," + final
		if strings.Join(statuses, ",") != want {
			t.Errorf("statuses %v, want %s", statuses, want)
		}
		var jf *JobFailedError
		if isFailed := errors.As(err, &jf); isFailed != (final == "FAILED") {
			t.Errorf("%s: err = %v", final, err)
		}
	}
}

func TestWaitForDownload(t *testing.T) {
	for _, final := range []string{"COMPLETE", "FAILED"} {
		f := newFakeAPI(t, func(n int, _ captured, w http.ResponseWriter, _ *http.Request) {
			if n == 0 {
				writeJSON(w, http.StatusOK, okEnvelope(`{"status":"PROCESSING"}`))
				return
			}
			writeJSON(w, http.StatusOK, okEnvelope(`{"status":"`+final+`","resourceUrl":"https://x/p.zip"}`))
		})
		c, fs := newTestClient(t, f, nil)
		pkg, err := c.WaitForDownload(t.Context(), "c-1", nil)
		if pkg == nil || pkg.Status != final || f.count() != 2 {
			t.Fatalf("%s: %+v, %v after %d calls", final, pkg, err, f.count())
		}
		if (err != nil) != (final == "FAILED") {
			t.Errorf("%s: err = %v", final, err)
		}
		// "Repeat calls at intervals of a few seconds" (spec, downloadHTML).
		if got := fs.recorded(); len(got) != 1 || got[0] != DownloadPollInterval {
			t.Errorf("waits %v, want one of %v", got, DownloadPollInterval)
		}
	}
}

// The process remembers how long a generation took: the next one's first
// poll comes when the first was seen done, and costs one call.
func TestWaitForGenerationFirstPollAtTheDurationSeen(t *testing.T) {
	var fs *fakeSleep
	var start time.Time
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		if fs.clock().Sub(start) < 3*time.Second {
			writeJSON(w, http.StatusOK, okEnvelope(`{"collectionStatus":"processing","flipbookStatus":"processing"}`))
			return
		}
		writeJSON(w, http.StatusOK, okEnvelope(`{"collectionStatus":"unlisted","flipbookStatus":"complete"}`))
	})
	c, fsl := newTestClient(t, f, nil)
	fs, start = fsl, fsl.clock()
	if _, err := c.WaitForGeneration(t.Context(), "c-1", nil); err != nil {
		t.Fatal(err)
	}
	first := f.count()
	seen := fs.clock().Sub(start)
	start = fs.clock()
	if _, err := c.WaitForGeneration(t.Context(), "c-2", nil); err != nil {
		t.Fatal(err)
	}
	if n := f.count() - first; n != 1 {
		t.Errorf("the second 3 s generation took %d polls, want 1", n)
	}
	if got := fs.clock().Sub(start); got != seen {
		t.Errorf("second generation seen done after %v, want %v (when the first was)", got, seen)
	}
}

// Of jobs waited on together, only the oldest polls until one is seen done
// (or MaxFirstPollDelay passes); then every later first poll comes at the
// duration seen. Downloads are not timed this way.
func TestFirstPollFollowsTheOldestJob(t *testing.T) {
	b := NewJobBook()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	endOld := b.jobStarted("generation", t0)
	endYoung := b.jobStarted("generation", t0.Add(200*time.Millisecond))
	if at, follow := b.firstPollAt("generation", t0); at != 0 || follow {
		t.Errorf("oldest job: first poll at %v (follow %v), want at once", at, follow)
	}
	if at, follow := b.firstPollAt("generation", t0.Add(200*time.Millisecond)); at != MaxFirstPollDelay || !follow {
		t.Errorf("younger job: first poll at %v (follow %v), want %v following", at, follow, MaxFirstPollDelay)
	}
	if at, follow := b.firstPollAt("conversion", t0.Add(200*time.Millisecond)); at != 0 || follow {
		t.Errorf("another kind of job: first poll at %v (follow %v), want at once", at, follow)
	}
	endOld() // gave up without seeing it done: the younger one leads
	if at, follow := b.firstPollAt("generation", t0.Add(200*time.Millisecond)); at != 0 || follow {
		t.Errorf("after the oldest left: first poll at %v (follow %v), want at once", at, follow)
	}
	b.jobDone("generation", 3050*time.Millisecond)
	b.jobDone("generation", 3400*time.Millisecond)
	endYoung()
	if at, follow := b.firstPollAt("generation", t0.Add(time.Minute)); at != 3050*time.Millisecond || follow {
		t.Errorf("after jobs were seen done: first poll at %v (follow %v), want the least duration seen, 3.05s", at, follow)
	}
	// A long job seen first holds later first polls back no more than
	// MaxFirstPollDelay.
	b.jobDone("conversion", 5*time.Minute)
	if at, _ := b.firstPollAt("conversion", t0.Add(time.Hour)); at != MaxFirstPollDelay {
		t.Errorf("after a 5 min conversion: first poll at %v, want %v", at, MaxFirstPollDelay)
	}
}

// Every status poll waits behind other calls for the budget.
func TestPollCallsAreLowPriority(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{}`))
	})
	c, _ := newTestClient(t, f, nil)
	polls := 0
	err := c.poll(t.Context(), pollSchedule{what: "generation", learn: true}, "c-1", nil, func(ctx context.Context) (string, bool, error) {
		polls++
		if low, _ := ctx.Value(lowPriorityKey{}).(bool); !low {
			t.Errorf("poll %d is not marked low priority", polls)
		}
		return "processing", polls == 3, nil
	})
	if err != nil || polls != 3 {
		t.Errorf("err %v after %d polls", err, polls)
	}
}
