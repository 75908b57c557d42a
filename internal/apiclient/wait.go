package apiclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Progress is reported while waiting for an asynchronous job.
type Progress struct {
	What    string        // JobGeneration, JobConversion or JobDownloadPackage
	Hash    string        // the collection or flipbook hash waited on
	Status  string        // the status last seen
	Polls   int           // calls spent so far
	Elapsed time.Duration // since the wait began
}

// ProgressFunc receives Progress after every poll; nil is allowed.
type ProgressFunc func(Progress)

// Poll schedule: the next poll comes PollBase + PollGrowth·elapsed after
// the previous one, at most MaxPollInterval. A job that ends at elapsed t is
// seen by t + PollBase + PollGrowth·t, and a long job costs a number of
// polls that grows only with the logarithm of its duration.
//
// collection.downloadHTML is repeated "at intervals of a few seconds"
// (spec, downloadHTML), so its polls are at least DownloadPollInterval
// apart.
const (
	PollBase             = 500 * time.Millisecond
	PollGrowth           = 0.10
	MaxPollInterval      = 30 * time.Second
	DownloadPollInterval = 2 * time.Second
)

// MaxFirstPollDelay bounds how long a wait holds back its first poll on
// what the process saw of other jobs: a short job that follows a long one
// is seen done at most this late.
const MaxFirstPollDelay = 10 * time.Second

// pollInterval is the wait after a poll made at elapsed.
func pollInterval(elapsed time.Duration) time.Duration {
	d := PollBase + time.Duration(PollGrowth*float64(elapsed))
	return min(d, MaxPollInterval)
}

// jobTimes is what this process has seen of one kind of job (generation,
// conversion) on one account: every poll costs a call of the shared budget,
// so a poll is spent only where it can tell something.
//
//   - Once a job was seen done at elapsed d, a later job's first poll comes
//     at d (the least such d seen, at most MaxFirstPollDelay), not on the
//     fast schedule.
//   - Until then, only the oldest job still waited on polls on the fast
//     schedule; younger ones wait for it to finish (it teaches d) or to
//     leave, at most MaxFirstPollDelay: jobs started together mostly finish
//     in the order they started.
type jobTimes struct {
	done    time.Duration // least elapsed at which a job was seen done; 0: none yet
	pending []time.Time   // starts of the jobs waited on, oldest first
}

// JobBook remembers how long asynchronous jobs (generations, conversions)
// took, so that status polls are spent where they tell something: it holds
// the jobTimes of each kind. A Client has its own unless Config.Jobs shares
// one. It is safe for concurrent use.
type JobBook struct {
	mu   sync.Mutex
	jobs map[string]*jobTimes
}

// NewJobBook returns an empty JobBook.
func NewJobBook() *JobBook { return &JobBook{jobs: map[string]*jobTimes{}} }

// jobKind returns kind's times. Callers hold b.mu.
func (b *JobBook) jobKind(kind string) *jobTimes {
	j := b.jobs[kind]
	if j == nil {
		j = &jobTimes{}
		b.jobs[kind] = j
	}
	return j
}

// jobStarted registers a wait that began at start; the returned function
// ends it.
func (b *JobBook) jobStarted(kind string, start time.Time) func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	j := b.jobKind(kind)
	i, _ := slices.BinarySearchFunc(j.pending, start, time.Time.Compare)
	j.pending = slices.Insert(j.pending, i, start)
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if i := slices.IndexFunc(j.pending, start.Equal); i >= 0 {
			j.pending = slices.Delete(j.pending, i, i+1)
		}
	}
}

// jobDone records that a job was seen done at elapsed.
func (b *JobBook) jobDone(kind string, elapsed time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	j := b.jobKind(kind)
	if j.done == 0 || elapsed < j.done {
		j.done = max(elapsed, time.Nanosecond)
	}
}

// firstPollAt is the elapsed time before which the first poll of a job
// started at start is not worth its call; follow says the job waits on an
// older one, so the answer may change before then.
func (b *JobBook) firstPollAt(kind string, start time.Time) (at time.Duration, follow bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	j := b.jobKind(kind)
	if j.done > 0 {
		return min(j.done, MaxFirstPollDelay), false
	}
	if len(j.pending) > 0 && j.pending[0].Before(start) {
		return MaxFirstPollDelay, true
	}
	return 0, false
}

// pollCheck makes one poll and says whether the job is over.
type pollCheck func(ctx context.Context) (status string, done bool, err error)

// pollSchedule describes how one kind of wait polls.
type pollSchedule struct {
	what  string        // JobGeneration, JobConversion or JobDownloadPackage
	learn bool          // learn from and teach the Client's job durations (JobBook)
	least time.Duration // least time between two polls
}

// poll runs check on the schedule until it is done, fails, or ctx ends.
// Its calls are status polls: they wait behind other calls for the budget.
func (c *Client) poll(ctx context.Context, sched pollSchedule, hash string, progress ProgressFunc, check pollCheck) error {
	start := c.now()
	ctx = withLowPriority(ctx)
	if sched.learn {
		defer c.jobs.jobStarted(sched.what, start)()
	}
	status := "(not yet read)"
	stopped := func(polls int, err error) error {
		return fmt.Errorf("flipbook: stopped waiting for %s of %s after %d polls, last status %q: %w",
			sched.what, hash, polls, status, err)
	}
	var next time.Duration // elapsed of the next poll on the schedule
	for polls := 1; ; polls++ {
		if sched.learn && polls == 1 {
			// Wait for what the process knows of such jobs; look again
			// every PollBase while an older job may still teach it.
			for {
				at, follow := c.jobs.firstPollAt(sched.what, start)
				wait := at - c.now().Sub(start)
				if wait <= 0 {
					break
				}
				if follow {
					wait = min(wait, PollBase)
				}
				if err := c.sleep(ctx, wait); err != nil {
					return stopped(polls-1, err)
				}
			}
		} else if wait := next - c.now().Sub(start); wait > 0 {
			if err := c.sleep(ctx, wait); err != nil {
				return stopped(polls-1, err)
			}
		}
		s, done, err := check(ctx)
		if err != nil {
			if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
				err = fmt.Errorf("%w: %w", ctx.Err(), err)
			}
			if ctx.Err() != nil {
				return stopped(polls, err)
			}
			return err
		}
		status = s
		elapsed := c.now().Sub(start)
		if progress != nil {
			progress(Progress{What: sched.what, Hash: hash, Status: status, Polls: polls, Elapsed: elapsed})
		}
		if done {
			if sched.learn {
				c.jobs.jobDone(sched.what, elapsed)
			}
			return nil
		}
		next = elapsed + max(pollInterval(elapsed), sched.least)
	}
}

// WaitForGeneration polls until the collection leaves processing. A failed
// generation is a *JobFailedError, returned with the collection as last
// read. Done means collectionStatus is no longer "processing" or
// flipbookStatus is "complete" or "failed"; failed means flipbookStatus is
// "failed" (a failed generation may leave collectionStatus "editable").
func (c *Client) WaitForGeneration(ctx context.Context, collectionHash string, progress ProgressFunc) (*Collection, error) {
	var last *Collection
	err := c.poll(ctx, pollSchedule{what: JobGeneration, learn: true}, collectionHash, progress, func(ctx context.Context) (string, bool, error) {
		coll, err := c.GetCollection(ctx, collectionHash)
		if err != nil {
			return "", false, err
		}
		last = coll
		status := coll.CollectionStatus
		if coll.FlipbookStatus != "" {
			status += "/" + coll.FlipbookStatus
		}
		done := coll.CollectionStatus != CollectionProcessing ||
			strings.EqualFold(coll.FlipbookStatus, FlipbookComplete) ||
			strings.EqualFold(coll.FlipbookStatus, FlipbookFailed)
		return status, done, nil
	})
	if err != nil {
		return last, err
	}
	if strings.EqualFold(last.FlipbookStatus, FlipbookFailed) {
		return last, &JobFailedError{What: JobGeneration, Hash: collectionHash, Status: last.FlipbookStatus}
	}
	return last, nil
}

// WaitForConversion polls until the item's convertStatus is COMPLETE; FAILED
// is a *JobFailedError (returned with the item and collection last read).
// An item not (yet) listed keeps the wait going until ctx ends.
//
// When this Client's flipbook.add already answered a final convertStatus for
// the item, nothing is polled: the item is returned as that answer showed
// it, with a nil collection. A conversion that ended stays ended (States:
// PROCESSING moves to COMPLETE or FAILED, and nothing moves back), so that
// answer is as good as any later read.
func (c *Client) WaitForConversion(ctx context.Context, collectionHash, flipbookHash string, progress ProgressFunc) (*CollectionItem, *Collection, error) {
	if fb, ok := c.takeConverted(flipbookHash); ok {
		item := &CollectionItem{FlipbookHash: fb.FlipbookHash, FlipbookTitle: fb.FlipbookTitle,
			FlipbookDescription: fb.FlipbookDescription, FlipbookPageCount: fb.FlipbookPageCount,
			Extension: fb.Extension, ConvertStatus: fb.ConvertStatus}
		if progress != nil {
			progress(Progress{What: JobConversion, Hash: flipbookHash, Status: item.ConvertStatus})
		}
		if strings.EqualFold(item.ConvertStatus, StatusFailed) {
			return item, nil, &JobFailedError{What: JobConversion, Hash: flipbookHash, Status: item.ConvertStatus}
		}
		return item, nil, nil
	}
	var (
		lastColl *Collection
		lastItem *CollectionItem
	)
	err := c.poll(ctx, pollSchedule{what: JobConversion, learn: true}, flipbookHash, progress, func(ctx context.Context) (string, bool, error) {
		coll, err := c.GetCollection(ctx, collectionHash)
		if err != nil {
			return "", false, err
		}
		lastColl = coll
		lastItem = nil
		for i := range coll.CollectionItems {
			if coll.CollectionItems[i].FlipbookHash == flipbookHash {
				lastItem = &coll.CollectionItems[i]
				break
			}
		}
		if lastItem == nil {
			return "(item not listed)", false, nil
		}
		s := lastItem.ConvertStatus
		return s, strings.EqualFold(s, StatusComplete) || strings.EqualFold(s, StatusFailed), nil
	})
	if err != nil {
		return lastItem, lastColl, err
	}
	if strings.EqualFold(lastItem.ConvertStatus, StatusFailed) {
		return lastItem, lastColl, &JobFailedError{What: JobConversion, Hash: flipbookHash, Status: lastItem.ConvertStatus}
	}
	return lastItem, lastColl, nil
}

// WaitForDownload repeats downloadHTML until COMPLETE; FAILED is a
// *JobFailedError.
func (c *Client) WaitForDownload(ctx context.Context, collectionHash string, progress ProgressFunc) (*DownloadPackage, error) {
	var last *DownloadPackage
	err := c.poll(ctx, pollSchedule{what: JobDownloadPackage, least: DownloadPollInterval}, collectionHash, progress, func(ctx context.Context) (string, bool, error) {
		pkg, err := c.DownloadHTML(ctx, collectionHash)
		if err != nil {
			return "", false, err
		}
		last = pkg
		return pkg.Status, strings.EqualFold(pkg.Status, StatusComplete) || strings.EqualFold(pkg.Status, StatusFailed), nil
	})
	if err != nil {
		return last, err
	}
	if strings.EqualFold(last.Status, StatusFailed) {
		return last, &JobFailedError{What: JobDownloadPackage, Hash: collectionHash, Status: last.Status}
	}
	return last, nil
}

// converted remembers the items whose flipbook.add answer already showed a
// final convertStatus, until WaitForConversion takes them.
type converted struct {
	mu    sync.Mutex
	items map[string]Flipbook
}

// noteConverted keeps fb when its conversion already ended.
func (c *Client) noteConverted(fb Flipbook) {
	if !strings.EqualFold(fb.ConvertStatus, StatusComplete) && !strings.EqualFold(fb.ConvertStatus, StatusFailed) {
		return
	}
	c.converted.mu.Lock()
	defer c.converted.mu.Unlock()
	if c.converted.items == nil {
		c.converted.items = map[string]Flipbook{}
	}
	c.converted.items[fb.FlipbookHash] = fb
}

// takeConverted returns and forgets what noteConverted kept for hash.
func (c *Client) takeConverted(hash string) (Flipbook, bool) {
	c.converted.mu.Lock()
	defer c.converted.mu.Unlock()
	fb, ok := c.converted.items[hash]
	delete(c.converted.items, hash)
	return fb, ok
}
