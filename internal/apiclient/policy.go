package apiclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file is the one place that decides what an ambiguous failure of a
// mutating call means: the request may have reached the service and the
// answer was lost (a reset connection, an HTTP 502 page, a truncated body,
// code 50 from the permissions backend). Reads are always retried (call.go);
// a failure that provably came before the service acted (a refused dial, a
// throttle, code 22) is retried for every operation.

// ambiguity is what the client does after an ambiguous failure.
type ambiguity int

const (
	// reportUnknown: nothing the API offers can prove afterwards whether the
	// call landed. It is not re-sent; the caller gets an
	// *OutcomeUnknownError and decides.
	reportUnknown ambiguity = iota
	// resend: the call sets a state rather than adding one, so sending it
	// again within the retry budget ends in the same state whether or not
	// the first send landed.
	resend
	// readBack: the operation reads the service to find out whether the
	// call landed, and sends it again only when it did not.
	readBack
)

// onAmbiguous decides per operation. notify is whether a setPermissions
// call carries notifyViaEmail true.
func onAmbiguous(action string, notify bool) ambiguity {
	switch action {
	case ActionSetPermissions:
		if notify {
			// Spec, collection.setPermissions rule 7: "notifyViaEmail true
			// sends notification emails during this call only ... A repeat
			// call with true can send again." So collection.getPermissions
			// is read first (see confirmPermissions), and the list is sent
			// again only when it is not the one requested.
			return readBack
		}
		// Spec, collection.setPermissions: "The array replaces the existing
		// access list." The same list sent twice is saved once.
		return resend
	case ActionSetLogo:
		// Spec, collection.setLogo: "Response data: the same as
		// collection.getCollection, with settings.logoImage set": a
		// collection has one logo, and a second send sets it again (the
		// upload is rewound; a body that cannot rewind is not re-sent).
		return resend
	case ActionDeleteBackgroundImage:
		// Spec: collection.deleteBackgroundImage answers "the same as
		// collection.getCollection": it takes away the collection's one
		// background image, and a collection without one stays without one.
		return resend
	case ActionAddFlipbook:
		// Spec, flipbook.add: "Adds a PDF to an existing collection": each
		// send adds an item, so it is never re-sent blindly. The collection's
		// `collectionItems` (collection.getCollection) show whether it
		// landed: see adoptAddedItem.
		return readBack
	case ActionCreateFromTemplate, ActionCreateCatalog:
		// Spec: "the call returns a new hash once the job is queued", and no
		// operation lists an account's collections: a collection whose hash
		// was lost cannot be found, and a second send would queue a second
		// collection.
		return reportUnknown
	}
	return reportUnknown
}

// ambiguousOn says whether an envelope code is itself an ambiguous outcome
// for an operation: code 50 "Operation failed: the permissions service
// returned an unexpected response" (spec, Errors) does not say whether the
// list was saved.
func ambiguousOn(action string, code int) bool {
	return action == ActionSetPermissions && code == CodeOperationFailed
}

// CodeMaintenance is code 22, "Maintenance mode": not in the spec's table
// (which says "Codes beyond those listed ... not shown"); the public
// documentation of the service it resembles gives it as "no request can be
// completed; try again later". The service did not act, so every operation
// retries it like a throttle, with a longer backoff.
const CodeMaintenance = 22

// Maintenance retries: MaintenanceMaxRetries retries waiting from
// MaintenanceMinBackoff doubling to MaintenanceMaxBackoff (with equal
// jitter: at least 15 s, at most 30 s in all).
const (
	MaintenanceMaxRetries = 4
	MaintenanceMinBackoff = 2 * time.Second
	MaintenanceMaxBackoff = 16 * time.Second
)

// IsMaintenance: code 22 (the service is in maintenance mode); the client
// only returns one after its retries ran out.
func IsMaintenance(err error) bool { return hasCode(err, CodeMaintenance) }

// knownCodes are the codes the spec's error table lists, plus 22.
var knownCodes = []int{CodeOK, CodeMaintenance, CodeMissingParameter, CodePerSecondLimit, CodePerMinuteLimit,
	CodeUploadQuota, CodeFileTooLarge, CodeTooManyPages, CodeMultipleFiles, CodeInProgress, CodeBadRequest,
	CodeInvalidCredentials, CodeInvalidAction, CodeForbidden, CodeInvalidSignature, CodeInvalidFileFormat,
	CodeCollectionNotFound, CodeFlipbookNotFound, CodeNotEligible, CodeOperationFailed}

// IsUnlistedCode: the service answered with a code neither the spec nor
// the client knows; the error names the code and status as sent.
func IsUnlistedCode(err error) bool {
	c, ok := apiCode(err)
	return ok && !slices.Contains(knownCodes, c)
}

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
		got, err := c.GetPermissions(ctx, hash)
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

// permissionKey identifies an entry as getPermissions returns it: type,
// e-mail without case (as addresses are compared) and group.
func permissionKey(p Permission) string {
	return strings.ToLower(p.Type) + "\x00" + strings.ToLower(p.Email) + "\x00" + p.Group
}

// sharesPermission says whether some entry of a is also in b.
func sharesPermission(a, b []Permission) bool {
	for _, p := range a {
		if slices.ContainsFunc(b, func(q Permission) bool { return permissionKey(q) == permissionKey(p) }) {
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
			out = append(out, permissionKey(p))
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
			coll, err := c.GetCollection(ctx, in.CollectionHash)
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
