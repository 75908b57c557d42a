package emulator

import (
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// Result codes of the spec's Errors table (plus 22, see codeMaintenance).
const (
	codeOK                  = 20 // success
	codeMaintenance         = 22 // not in the spec's table; README, "Faults and failed jobs"
	codeMissingParameter    = 30
	codeRatePerSecond       = harness.CodeRatePerSecond
	codeRatePerMinute       = harness.CodeRatePerMinute
	codeUploadQuota         = store.CodeUploadQuota
	codeFileTooLarge        = 34
	codeTooManyPages        = 35
	codeMultipleFiles       = 36
	codeInProgress          = store.CodeInProgress
	codeBadRequest          = 40
	codeInvalidCredentials  = 41
	codeInvalidAction       = 42
	codeForbidden           = store.CodeForbidden
	codeInvalidSignature    = 44
	codeInvalidFileFormat   = 45
	codeInvalidCollection   = store.CodeInvalidCollection
	codeInvalidFlipbook     = 47
	codeNotPrivatePublished = store.CodeNotPrivatePublished
	codeOperationFailed     = 50
)

// outcomeFault counts, in Requests, a call that a fault answered without an
// envelope.
const outcomeFault = "fault"

// statusText is the status of each code, verbatim from the spec's Errors
// table.
var statusText = map[int]string{
	codeOK:                  "OK",
	codeMaintenance:         "Maintenance mode",
	codeMissingParameter:    "Missing mandatory parameter",
	codeRatePerSecond:       "Requests per second limit exceeded",
	codeRatePerMinute:       "Requests per minute limit exceeded",
	codeUploadQuota:         "Uploads per month exceeded",
	codeFileTooLarge:        "File size too large",
	codeTooManyPages:        "Collection maximum pages number exceeded",
	codeMultipleFiles:       "Multiple files upload not allowed",
	codeInProgress:          "Collection is in progress. Please try again later",
	codeBadRequest:          "Bad Request",
	codeInvalidCredentials:  "Invalid credentials",
	codeInvalidAction:       "Invalid action",
	codeForbidden:           "Forbidden",
	codeInvalidSignature:    "Invalid signature",
	codeInvalidFileFormat:   "Invalid file format",
	codeInvalidCollection:   "Invalid collection hash",
	codeInvalidFlipbook:     "Invalid flipbook hash",
	codeNotPrivatePublished: "Permissions are only available for published private flipbooks",
	codeOperationFailed:     "Operation failed",
}
