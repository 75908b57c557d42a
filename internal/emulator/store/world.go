package store

import (
	"errors"
	"time"
)

// Defaults the store's records start with.
const (
	// DefaultResultStatus is a collection's status when the fixture or the
	// generation names none.
	DefaultResultStatus = "unlisted"
	// DefaultUploadsPerMonth is an account's flipbook.add quota when the
	// fixture names none (the spec gives no number).
	DefaultUploadsPerMonth = 100
	// DefaultBackground is the background colour of a new collection.
	DefaultBackground = "#2B2B2B"
	// PackageURLLifetime is how long a download package link is valid: "one
	// minute" (spec, Limits).
	PackageURLLifetime = time.Minute
)

// Package states of collection.downloadHTML.
const (
	PackageProcessing = "PROCESSING"
	PackageComplete   = "COMPLETE"
	PackageFailed     = "FAILED"
)

// The spec's result codes the store answers with (its Errors table).
const (
	CodeUploadQuota         = 33 // "Uploads per month exceeded"
	CodeInProgress          = 38 // "Collection is in progress. Please try again later"
	CodeForbidden           = 43 // "Forbidden"
	CodeInvalidCollection   = 46 // "Invalid collection hash"
	CodeNotPrivatePublished = 48 // "Permissions are only available for published private flipbooks"
)

// Errors of the control methods (web-application stand-ins).
var (
	ErrUnknownCollection = errors.New("emulator: unknown collection hash")
	ErrDeletedCollection = errors.New("emulator: collection is deleted")
	ErrProcessing        = errors.New("emulator: collection is still generating")
)

// fixtureCollection is the record of a fixture's collection.
func fixtureCollection(cf CollectionFixture, apiKey string, now time.Time) *Collection {
	c := &Collection{
		Hash:          cf.CollectionHash,
		APIKey:        apiKey,
		Kind:          "fixture",
		Title:         cf.Title,
		Description:   cf.Description,
		Status:        cf.Status,
		Private:       cf.Private,
		Password:      cf.Password,
		Folder:        cf.Folder,
		CreatedAt:     now,
		PublishedAt:   now,
		Settings:      cf.Settings,
		Background:    cf.BackgroundImage,
		BackgroundHex: DefaultBackground,
		Stats:         cf.Stats,
		Permissions:   []Permission{},
	}
	if c.Status == "" {
		c.Status = DefaultResultStatus
	}
	if v, ok := cf.Settings["backgroundColor"].(string); ok {
		c.BackgroundHex = v
	}
	if v, ok := cf.Settings["transparentBackground"].(bool); ok {
		c.Transparent = v
	}
	if c.Status == "editable" {
		c.PublishedAt = time.Time{}
	}
	for _, it := range cf.Items {
		ext := it.Extension
		if ext == "" {
			ext = "pdf"
		}
		c.Items = append(c.Items, &Item{Hash: it.FlipbookHash, Title: it.Title, Description: it.Description, PageCount: it.PageCount, Extension: ext})
	}
	if len(c.Items) == 0 && cf.PageCount > 0 {
		c.Items = []*Item{{Hash: "fb-" + cf.CollectionHash, Title: cf.Title, Description: cf.Description, PageCount: cf.PageCount, Extension: "pdf"}}
	}
	for _, p := range cf.Permissions {
		c.Permissions = append(c.Permissions, Permission(p))
	}
	return c
}
