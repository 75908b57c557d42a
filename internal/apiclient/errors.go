package apiclient

import (
	"errors"
	"fmt"
	"strings"
)

// Envelope codes the client acts on.
const (
	CodeOK                 = 20
	CodeMissingParameter   = 30
	CodePerSecondLimit     = 31
	CodePerMinuteLimit     = 32
	CodeUploadQuota        = 33
	CodeFileTooLarge       = 34
	CodeTooManyPages       = 35
	CodeMultipleFiles      = 36
	CodeInProgress         = 38
	CodeBadRequest         = 40
	CodeInvalidCredentials = 41
	CodeInvalidAction      = 42
	CodeForbidden          = 43
	CodeInvalidSignature   = 44
	CodeInvalidFileFormat  = 45
	CodeCollectionNotFound = 46
	CodeFlipbookNotFound   = 47
	CodeNotEligible        = 48
	CodeOperationFailed    = 50
)

// MaxUploadBytes is the spec's limit for a flipbook.add document (100 MB);
// a larger Upload with a known Size is refused before sending.
const MaxUploadBytes = 100 << 20

const outcomeUnknownPreamble = "outcome unknown"

// APIError is an envelope whose code is not 20.
type APIError struct {
	Action  string
	Code    int
	Status  string
	Message string
	Errors  []string
}

// Error reads as one line, e.g.
// "flipbook API collection.createCatalog: code 40 (Bad Request): Validation failed: sections[0].sources: ...".
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "flipbook API %s: code %d", e.Action, e.Code)
	if e.Status != "" {
		fmt.Fprintf(&b, " (%s)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if len(e.Errors) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(e.Errors, "; "))
	}
	return b.String()
}

// OutcomeUnknownError: a mutating call failed after it may have reached the
// service, and the client could not prove whether it took effect.
// What is done about one is decided per operation in policy.go; Note says
// what was tried (empty: it was not re-sent). Its text states what happened;
// what the user can do about it is the caller's to say.
type OutcomeUnknownError struct {
	Action string
	Err    error
	Note   string
}

func (e *OutcomeUnknownError) Error() string {
	cause := "unknown failure"
	if e.Err != nil {
		cause = strings.TrimPrefix(e.Err.Error(), "flipbook API "+e.Action+": ")
	}
	note := e.Note
	if note == "" {
		note = "it was not re-sent"
	}
	return fmt.Sprintf("flipbook API %s: %s: the request may have reached the service before it failed (%s); %s",
		e.Action, outcomeUnknownPreamble, cause, note)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// DecodeError: the body was not an envelope (an HTML error page, a truncated
// body).
type DecodeError struct {
	Action     string
	HTTPStatus int
	Snippet    string // the first ~200 bytes of the body, redacted
	Reason     string // why the body is not an envelope
	Err        error  // the underlying read or parse error, if any
}

func (e *DecodeError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = "not a valid envelope"
	}
	return fmt.Sprintf("flipbook API %s: HTTP %d: unreadable response (%s); body starts %q",
		e.Action, e.HTTPStatus, reason, e.Snippet)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// JobFailedError: an asynchronous job ended in failure.
type JobFailedError struct {
	What   string // JobGeneration, JobConversion or JobDownloadPackage
	Hash   string
	Status string
}

// The asynchronous jobs of the spec ("States and transitions"), as
// JobFailedError.What names them.
const (
	JobGeneration      = "generation"       // collection.createFromTemplate, collection.createCatalog
	JobConversion      = "conversion"       // flipbook.add
	JobDownloadPackage = "download package" // collection.downloadHTML
)

func (e *JobFailedError) Error() string {
	return fmt.Sprintf("flipbook %s of %s failed (status %q)", e.What, e.Hash, e.Status)
}

// TransportError is a request that got no HTTP answer (dial failure,
// connection reset, timeout). Its text never holds the apiKey or signature.
type TransportError struct {
	Action string
	Sent   bool // the request may have reached the service
	Err    error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("flipbook API %s: %v", e.Action, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

func apiCode(err error) (int, bool) {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code, true
	}
	return 0, false
}

func hasCode(err error, codes ...int) bool {
	c, ok := apiCode(err)
	if !ok {
		return false
	}
	for _, want := range codes {
		if c == want {
			return true
		}
	}
	return false
}

// IsNotFound: the collection (46) or flipbook (47) does not exist.
func IsNotFound(err error) bool { return hasCode(err, CodeCollectionNotFound, CodeFlipbookNotFound) }

// IsCollectionNotFound: code 46.
func IsCollectionNotFound(err error) bool { return hasCode(err, CodeCollectionNotFound) }

// IsFlipbookNotFound: code 47.
func IsFlipbookNotFound(err error) bool { return hasCode(err, CodeFlipbookNotFound) }

// IsForbidden: code 43 (deleted, or another workspace's collection).
func IsForbidden(err error) bool { return hasCode(err, CodeForbidden) }

// IsThrottled: code 31 or 32. The client only returns one after its
// retries ran out or ctx ended.
func IsThrottled(err error) bool { return hasCode(err, CodePerSecondLimit, CodePerMinuteLimit) }

// IsInProgress: code 38 (the flipbook is still publishing).
func IsInProgress(err error) bool { return hasCode(err, CodeInProgress) }

// IsNotEligible: code 48 (permissions need a published, private
// flipbook without a password).
func IsNotEligible(err error) bool { return hasCode(err, CodeNotEligible) }

// IsQuotaExceeded: code 33 (monthly uploads used).
func IsQuotaExceeded(err error) bool { return hasCode(err, CodeUploadQuota) }

// IsFileTooLarge: code 34, from the service or refused before sending.
func IsFileTooLarge(err error) bool { return hasCode(err, CodeFileTooLarge) }

// IsTooManyPages: code 35.
func IsTooManyPages(err error) bool { return hasCode(err, CodeTooManyPages) }

// IsInvalidFileFormat: code 45.
func IsInvalidFileFormat(err error) bool { return hasCode(err, CodeInvalidFileFormat) }

// IsValidation: code 40 (bad request; details in APIError.Errors).
func IsValidation(err error) bool { return hasCode(err, CodeBadRequest) }

// IsOutcomeUnknown: a mutating call may or may not have taken effect.
func IsOutcomeUnknown(err error) bool {
	var oe *OutcomeUnknownError
	return errors.As(err, &oe)
}

// CodeOf returns the envelope code of an *APIError in err's chain; 0 when
// there is none.
func CodeOf(err error) int {
	c, _ := apiCode(err)
	return c
}
