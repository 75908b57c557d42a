package apiclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file carries out the readBack decisions of policy.go: it sends, and
// after an ambiguous failure reads the service to learn whether the call
// landed. Its reads are fresh (views.go): they exist to see a change.

// confirmed runs a readBack operation: send, and after an ambiguous failure
// ask confirm whether the call landed. confirm returns true when it did
// (having filled the result itself), false when it provably did not (the
// call is then sent again, at most MaxRetries more times), or an error when
// it cannot tell. A file body is rewound before each new send.
func (c *Client) confirmed(ctx context.Context, req *request, out any, confirm func(ctx context.Context) (bool, error)) error {
	rewind := uploadRewinder(req.file)
	for round := 0; ; round++ {
		if round > 0 && req.file != nil {
			if rewind == nil {
				return &OutcomeUnknownError{Action: req.action, Err: errors.New("the call did not land and the upload cannot be rewound to send it again")}
			}
			if err := rewind(); err != nil {
				return &OutcomeUnknownError{Action: req.action, Err: fmt.Errorf("the call did not land and the upload could not be rewound: %w", err)}
			}
		}
		err := c.call(ctx, req, out)
		var ou *OutcomeUnknownError
		if err == nil || !errors.As(err, &ou) || ctx.Err() != nil {
			return err
		}
		landed, cerr := confirm(ctx)
		if cerr != nil {
			ou.Note = "reading the service back could not tell whether it took effect: " + cerr.Error()
			return err
		}
		c.logDecision(ctx, req.action, landed, round+1)
		if landed {
			return nil
		}
		if round >= c.retry.maxRetries {
			ou.Note = fmt.Sprintf("it was sent %d times, each time without an answer, and reading back showed no effect", round+1)
			return err
		}
		if serr := c.sleep(ctx, c.backoff(round+1, 0)); serr != nil {
			return err
		}
	}
}

func (c *Client) logDecision(ctx context.Context, action string, landed bool, sends int) {
	if c.cfg.Logger == nil {
		return
	}
	msg := "ambiguous failure: read back, the call had not landed; sending it again"
	if landed {
		msg = "ambiguous failure: read back, the call had landed; adopting its result"
	}
	c.cfg.Logger.Log(ctx, LevelInfo, msg, map[string]any{"action": action, "sends": sends})
}

// confirmPermissions reads collection.getPermissions after an ambiguous
// collection.setPermissions with notifyViaEmail. Spec, rule 7: "A repeat
// call with true can send again", so the list is re-sent only when reading
// back proves the first send did not land:
//   - the saved list is the requested one: landed;
//   - it differs from the list read before the send (before): something was
//     saved, and this call is what changed it: landed, and what it saved is
//     the answer;
//   - it is still the list before, and none of its entries was requested:
//     a landed call would have saved the requested entries that are not
//     skipped (rule 6; when all are skipped nothing is saved, and a second
//     send notifies nobody), so it did not land: send again;
//   - otherwise (still the list before, which already held some requested
//     entries) it cannot tell, and says so rather than e-mail twice.
//
// notifyViaEmail "is never returned", so it is not compared. A nil before
// (the read before the send failed) leaves only the first rule and
// re-sending.
func (c *Client) confirmPermissions(hash string, want, before []Permission, saved *[]Permission) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		got, err := c.GetPermissions(WithFreshRead(ctx), hash)
		if err != nil {
			return false, err
		}
		switch {
		case samePermissions(got, want), before != nil && !samePermissions(got, before):
			*saved = got
			return true, nil
		case before == nil || !sharesPermission(got, want):
			return false, nil
		}
		return false, fmt.Errorf("the saved access list is unchanged and already held some of the requested entries, " +
			"so reading it back cannot tell whether the call landed (it was not sent again, to avoid a second round of e-mails)")
	}
}

// PermissionKey is the one definition of "the same access-list entry", for
// this client and the provider alike: the same type, exactly (the spec's
// values are "teammate", "otp" and "sso"; another spelling is an unknown
// type the service refuses), the same e-mail without regard to case (as
// addresses are compared), and the same group, exactly.
func PermissionKey(p Permission) string {
	return p.Type + "\x00" + strings.ToLower(p.Email) + "\x00" + p.Group
}

// sharesPermission says whether some entry of a is also in b.
func sharesPermission(a, b []Permission) bool {
	for _, p := range a {
		if slices.ContainsFunc(b, func(q Permission) bool { return PermissionKey(q) == PermissionKey(p) }) {
			return true
		}
	}
	return false
}

// samePermissions compares two access lists as sets of (type, email,
// group); emails without case, as addresses are.
func samePermissions(a, b []Permission) bool {
	key := func(ps []Permission) []string {
		out := make([]string, 0, len(ps))
		for _, p := range ps {
			out = append(out, PermissionKey(p))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(key(a), key(b))
}

// adoptAddedItem reads collection.getCollection after an ambiguous
// flipbook.add. before holds the item hashes listed before the upload; an
// item not among them, with the requested title when one was given, is this
// upload: it is adopted (its hash, and the conversion status as listed).
// None after addedItemReads reads: the upload did not land. More than one: it cannot tell which, and
// says so rather than guess.
//
// A collection still generating lists no items (spec: the caller polls
// "until collectionStatus is no longer processing"), so its generated item
// would look new: then only an item with the requested title counts, and
// without a title nothing can be told apart.
func (c *Client) adoptAddedItem(in AddFlipbookInput, before map[string]bool, generating bool, out *Flipbook) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		if generating && in.Title == "" {
			return false, fmt.Errorf("collection %s was still generating before the upload, so its new items cannot be told apart "+
				"from the document without a title", in.CollectionHash)
		}
		var found []CollectionItem
		for read := 1; ; read++ {
			coll, err := c.GetCollection(WithFreshRead(ctx), in.CollectionHash)
			if err != nil {
				return false, err
			}
			for _, it := range coll.CollectionItems {
				if before[it.FlipbookHash] || (in.Title != "" && it.FlipbookTitle != in.Title) {
					continue
				}
				found = append(found, it)
			}
			// The spec does not say that an added item is listed at once, so
			// an absent one is looked for again before the upload counts as
			// lost: a second upload would leave two documents.
			if len(found) > 0 || read == addedItemReads {
				break
			}
			if err := c.sleep(ctx, addedItemPause); err != nil {
				return false, err
			}
		}
		switch len(found) {
		case 0:
			return false, nil
		case 1:
			it := found[0]
			*out = Flipbook{FlipbookHash: it.FlipbookHash, FlipbookTitle: it.FlipbookTitle,
				FlipbookDescription: it.FlipbookDescription, FlipbookPageCount: it.FlipbookPageCount,
				Extension: it.Extension, ConvertStatus: it.ConvertStatus}
			return true, nil
		}
		hashes := make([]string, len(found))
		for i, it := range found {
			hashes[i] = it.FlipbookHash
		}
		return false, fmt.Errorf("collection %s gained %d new items that could be this upload (%s)",
			in.CollectionHash, len(found), strings.Join(hashes, ", "))
	}
}

// addedItemReads is how many times collection.getCollection is read,
// addedItemPause apart, before an upload that lost its answer and is not
// listed counts as not landed.
const (
	addedItemReads = 3
	addedItemPause = 2 * time.Second
)

// lockCollection serialises the flipbook.add calls of this Client on one
// collection, so that an item found new after an ambiguous failure cannot
// be another concurrent upload's. It honours ctx while waiting.
func (c *Client) lockCollection(ctx context.Context, hash string) (func(), error) {
	c.addMu.Lock()
	if c.addLocks == nil {
		c.addLocks = map[string]chan struct{}{}
	}
	ch := c.addLocks[hash]
	if ch == nil {
		ch = make(chan struct{}, 1)
		c.addLocks[hash] = ch
	}
	c.addMu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
