package apiclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Progress is reported while waiting for an asynchronous job.
type Progress struct {
	What    string        // "generation", "conversion" or "download package"
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
const (
	PollBase        = 500 * time.Millisecond
	PollGrowth      = 0.10
	MaxPollInterval = 30 * time.Second
)

// pollInterval is the wait after a poll made at elapsed.
func pollInterval(elapsed time.Duration) time.Duration {
	d := PollBase + time.Duration(PollGrowth*float64(elapsed))
	return min(d, MaxPollInterval)
}

// pollCheck makes one poll and says whether the job is over.
type pollCheck func(ctx context.Context) (status string, done bool, err error)

// poll runs check on the schedule until it is done, fails, or ctx ends.
func (c *Client) poll(ctx context.Context, what, hash string, progress ProgressFunc, check pollCheck) error {
	start := c.now()
	status := "(not yet read)"
	for polls := 1; ; polls++ {
		s, done, err := check(ctx)
		if err != nil {
			if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
				err = fmt.Errorf("%w: %w", ctx.Err(), err)
			}
			if ctx.Err() != nil {
				return fmt.Errorf("flipbook: stopped waiting for %s of %s after %d polls, last status %q: %w",
					what, hash, polls, status, err)
			}
			return err
		}
		status = s
		elapsed := c.now().Sub(start)
		if progress != nil {
			progress(Progress{What: what, Hash: hash, Status: status, Polls: polls, Elapsed: elapsed})
		}
		if done {
			return nil
		}
		if err := c.sleep(ctx, pollInterval(elapsed)); err != nil {
			return fmt.Errorf("flipbook: stopped waiting for %s of %s after %d polls, last status %q: %w",
				what, hash, polls, status, err)
		}
	}
}

// WaitForGeneration polls until the collection leaves processing. A failed
// generation is a *JobFailedError, returned with the collection as last
// read. Done means collectionStatus is no longer "processing" or
// flipbookStatus is "complete" or "failed"; failed means flipbookStatus is
// "failed" (a failed generation may leave collectionStatus "editable").
func (c *Client) WaitForGeneration(ctx context.Context, collectionHash string, progress ProgressFunc) (*Collection, error) {
	var last *Collection
	err := c.poll(ctx, "generation", collectionHash, progress, func(ctx context.Context) (string, bool, error) {
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
func (c *Client) WaitForConversion(ctx context.Context, collectionHash, flipbookHash string, progress ProgressFunc) (*CollectionItem, *Collection, error) {
	var (
		lastColl *Collection
		lastItem *CollectionItem
	)
	err := c.poll(ctx, "conversion", flipbookHash, progress, func(ctx context.Context) (string, bool, error) {
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
	err := c.poll(ctx, "download package", collectionHash, progress, func(ctx context.Context) (string, bool, error) {
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
