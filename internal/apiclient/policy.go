package apiclient

import (
	"slices"
	"time"
)

// This file is the one place that decides what an ambiguous failure of a
// mutating call means: the request may have reached the service and the
// answer was lost (a reset connection, an HTTP 502 page, a truncated body,
// code 50 from the permissions backend). Reads are always retried (call.go);
// a failure that provably came before the service acted (a refused dial, a
// throttle, code 22) is retried for every operation. It holds decisions
// only; readback.go carries out the readBack ones.

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
