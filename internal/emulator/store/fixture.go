package store

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
)

// Fixture is the emulator's world: limits, generation timing and the
// accounts with their templates, feeds and existing collections, as the
// README's "Fixture" paragraph lists them; the fields marked "emulator
// extension" are this package's additions, all optional.
type Fixture struct {
	Generation GenerationFixture `json:"generation"`
	Limits     LimitsFixture     `json:"limits"`
	// Faults presets the fault injection of POST /_emulator/faults
	// (emulator extension).
	Faults *FaultsFixture `json:"faults,omitempty"`
	// StringScalars makes settings numbers and booleans and every
	// flipbookPageCount arrive as strings ("640", "true"), as the spec warns
	// they can (emulator extension).
	StringScalars bool             `json:"stringScalars,omitempty"`
	Accounts      []AccountFixture `json:"accounts"`
}

// GenerationFixture times the asynchronous jobs.
type GenerationFixture struct {
	// DelayMs is how long a generation stays processing (default 2000).
	DelayMs *int64 `json:"delayMs,omitempty"`
	// ResultStatus is the collectionStatus a finished generation ends in
	// (default "unlisted").
	ResultStatus string `json:"resultStatus,omitempty"`
	// Private is whether a generated collection is private (default true).
	Private *bool `json:"private,omitempty"`
	// ConversionDelayMs is how long a flipbook.add item stays PROCESSING
	// (emulator extension, default 500).
	ConversionDelayMs *int64 `json:"conversionDelayMs,omitempty"`
	// PackageDelayMs is how long a downloadHTML package stays PROCESSING
	// (emulator extension, default 1000).
	PackageDelayMs *int64 `json:"packageDelayMs,omitempty"`
}

// LimitsFixture holds the service limits; 0 means the default for the
// upload limits and unlimited for the rates.
type LimitsFixture struct {
	RequestsPerSecond int   `json:"requestsPerSecond,omitempty"`
	RequestsPerMinute int   `json:"requestsPerMinute,omitempty"`
	MaxUploadBytes    int64 `json:"maxUploadBytes,omitempty"` // default 104857600 (100 MB)
	MaxPages          int   `json:"maxPages,omitempty"`       // default 500
}

// FaultsFixture presets fault injection (emulator extension).
type FaultsFixture struct {
	Rate  float64  `json:"rate"`
	Kinds []string `json:"kinds,omitempty"`
	// SlowMs is how long the "slow" fault holds an answer (default 3000).
	SlowMs int64 `json:"slowMs,omitempty"`
	// Seed seeds the fault dice; 0 picks a random seed.
	Seed uint64 `json:"seed,omitempty"`
}

// AccountFixture is one API key and its workspace.
type AccountFixture struct {
	APIKey     string      `json:"apiKey"`
	Secret     string      `json:"secret"`
	Plan       PlanFixture `json:"plan"`
	SSOEnabled bool        `json:"ssoEnabled,omitempty"`
	// UploadsPerMonth is the flipbook.add quota (default 100; 0 allows none).
	UploadsPerMonth *int `json:"uploadsPerMonth,omitempty"`
	// UploadsThisMonth counts uploads already made in the current month
	// (emulator extension, default 0).
	UploadsThisMonth int                 `json:"uploadsThisMonth,omitempty"`
	Readers          []ReaderFixture     `json:"readers,omitempty"`
	Groups           []string            `json:"groups,omitempty"`
	SSOGroups        []string            `json:"ssoGroups,omitempty"`
	Templates        []TemplateFixture   `json:"templates,omitempty"`
	Feeds            []FeedFixture       `json:"feeds,omitempty"`
	Collections      []CollectionFixture `json:"collections,omitempty"`
	Stats            *UserStatsFixture   `json:"stats,omitempty"` // emulator extension
}

// PlanFixture lists the plan features that gate permission types.
type PlanFixture struct {
	OTP bool `json:"otp,omitempty"`
	SSO bool `json:"sso,omitempty"`
}

// ReaderFixture is a workspace reader; only accepted readers get access.
type ReaderFixture struct {
	Email    string   `json:"email"`
	Accepted bool     `json:"accepted,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// TemplateFixture is a template record.
type TemplateFixture struct {
	TemplateHash    string   `json:"templateHash"`
	Pages           int      `json:"pages"`
	Layers          []string `json:"layers,omitempty"`
	ProductsPerPage int      `json:"productsPerPage,omitempty"`
}

// FeedFixture is a product feed; product values may be JSON strings,
// numbers or booleans and are read as their text. File names a CSV or JSON
// file of products instead of listing them (see feedfile.go).
type FeedFixture struct {
	SourceHash string           `json:"sourceHash"`
	Products   []map[string]any `json:"products,omitempty"`
	File       string           `json:"file,omitempty"`

	columns  []string // column names in the feed's order, for the player
	fromFile bool     // Products were read from File
}

// Columns are the feed's column names in its order (the CSV header, or
// the first appearance in JSON or inline products).
func (f *FeedFixture) Columns() []string { return f.columns }

// CollectionFixture is a collection that exists when the emulator starts.
type CollectionFixture struct {
	CollectionHash string `json:"collectionHash"`
	Title          string `json:"title,omitempty"`
	Description    string `json:"description,omitempty"`
	Status         string `json:"status,omitempty"` // default "unlisted"
	Private        bool   `json:"private,omitempty"`
	Password       bool   `json:"password,omitempty"`
	// PageCount gives the collection one item of that many pages when Items
	// is empty; that item's flipbookHash is "fb-" + collectionHash.
	PageCount int `json:"pageCount,omitempty"`
	// The fields below are emulator extensions.
	Items           []ItemFixture         `json:"items,omitempty"`
	Folder          string                `json:"folder,omitempty"`
	BackgroundImage bool                  `json:"backgroundImage,omitempty"`
	Settings        map[string]any        `json:"settings,omitempty"` // overrides of the default settings
	Stats           *FlipbookStatsFixture `json:"stats,omitempty"`    // every item's statistics
	Permissions     []PermissionFixture   `json:"permissions,omitempty"`
}

// ItemFixture is a flipbook of a fixture collection (emulator extension).
type ItemFixture struct {
	FlipbookHash string `json:"flipbookHash"`
	Title        string `json:"title,omitempty"`
	Description  string `json:"description,omitempty"`
	PageCount    int    `json:"pageCount"`
	Extension    string `json:"extension,omitempty"` // default "pdf"
}

// PermissionFixture is a saved access row (emulator extension).
type PermissionFixture struct {
	Type  string `json:"type"`
	Email string `json:"email,omitempty"`
	Group string `json:"group,omitempty"`
}

// FlipbookStatsFixture fixes collection.getStats's numbers.
type FlipbookStatsFixture struct {
	Views     int64 `json:"views"`
	TimeSpent int64 `json:"time_spent"`
	Downloads int64 `json:"downloads"`
}

// UserStatsFixture fixes user.getStats's numbers (api_uploads_left is always
// computed from the quota).
type UserStatsFixture struct {
	Impressions int64 `json:"impressions"`
	Views       int64 `json:"views"`
	TimeSpent   int64 `json:"time_spent"`
	Downloads   int64 `json:"downloads"`
}

//go:embed fixtures/demo.json
var demoFixture []byte

// DemoFixture is the embedded demo world (also the binary's default).
func DemoFixture() *Fixture {
	f, err := ParseFixture(demoFixture)
	if err != nil {
		panic("emulator: embedded demo fixture: " + err.Error())
	}
	return f
}

// LoadFixture reads and checks a fixture file.
func LoadFixture(path string) (*Fixture, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parseFixture(b, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ParseFixture decodes a fixture strictly (unknown fields are errors, so a
// misspelt field is not silently ignored) and checks its consistency. Feed
// files are resolved relative to the current directory.
func ParseFixture(b []byte) (*Fixture, error) {
	return parseFixture(b, ".")
}

// decodeFixture decodes a fixture strictly: no field it does not know, no
// data after the object. Files and HTTP bodies both go through it.
func decodeFixture(b []byte) (*Fixture, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f Fixture
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if dec.More() {
		return nil, errors.New("fixture: trailing data after the JSON object")
	}
	return &f, nil
}

// parseFixture is ParseFixture with feed files resolved relative to dir.
func parseFixture(b []byte, dir string) (*Fixture, error) {
	f, err := decodeFixture(b)
	if err != nil {
		return nil, err
	}
	f.InlineColumns(b)
	if err := f.ResolveFeedFiles(dir); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("fixture: %w", err)
	}
	return f, nil
}

func (f *Fixture) Check() error {
	if len(f.Accounts) == 0 {
		return errors.New("accounts: at least one account is required")
	}
	if f.Limits.RequestsPerSecond < 0 || f.Limits.RequestsPerMinute < 0 || f.Limits.MaxUploadBytes < 0 || f.Limits.MaxPages < 0 {
		return errors.New("limits: values must not be negative")
	}
	if s := f.Generation.ResultStatus; s != "" && !ValidStatus(s) {
		return fmt.Errorf("generation.resultStatus: unknown status %q", s)
	}
	for _, d := range []*int64{f.Generation.DelayMs, f.Generation.ConversionDelayMs, f.Generation.PackageDelayMs} {
		if d != nil && *d < 0 {
			return errors.New("generation: delays must not be negative")
		}
	}
	if f.Faults != nil {
		if err := harness.CheckFaults(f.Faults.Rate, f.Faults.Kinds); err != nil {
			return fmt.Errorf("faults: %w", err)
		}
	}
	keys := map[string]bool{}
	hashes := map[string]bool{}
	for i, a := range f.Accounts {
		where := "accounts[" + strconv.Itoa(i) + "]"
		if a.APIKey == "" || a.Secret == "" {
			return fmt.Errorf("%s: apiKey and secret are required", where)
		}
		if keys[a.APIKey] {
			return fmt.Errorf("%s: duplicate apiKey %q", where, a.APIKey)
		}
		keys[a.APIKey] = true
		if a.UploadsPerMonth != nil && *a.UploadsPerMonth < 0 {
			return fmt.Errorf("%s: uploadsPerMonth must not be negative", where)
		}
		for j, t := range a.Templates {
			if t.TemplateHash == "" || t.Pages < 1 || t.ProductsPerPage < 0 {
				return fmt.Errorf("%s.templates[%d]: templateHash and pages >= 1 are required", where, j)
			}
		}
		for j, fd := range a.Feeds {
			if fd.SourceHash == "" {
				return fmt.Errorf("%s.feeds[%d]: sourceHash is required", where, j)
			}
			if fd.File != "" && !fd.fromFile {
				return fmt.Errorf("%s.feeds[%d]: file %q is not read yet (LoadFixture or ResolveFeedFiles reads it)", where, j, fd.File)
			}
			for k, p := range fd.Products {
				for col, v := range p {
					if _, ok := scalarText(v); !ok {
						return fmt.Errorf("%s.feeds[%d].products[%d].%s: must be a string, number or boolean", where, j, k, col)
					}
				}
			}
		}
		for j, c := range a.Collections {
			cw := fmt.Sprintf("%s.collections[%d]", where, j)
			if c.CollectionHash == "" {
				return fmt.Errorf("%s: collectionHash is required", cw)
			}
			if hashes[c.CollectionHash] {
				return fmt.Errorf("%s: duplicate collectionHash %q", cw, c.CollectionHash)
			}
			hashes[c.CollectionHash] = true
			if c.Status != "" && !ValidStatus(c.Status) {
				return fmt.Errorf("%s: unknown status %q", cw, c.Status)
			}
			for _, it := range c.Items {
				if it.FlipbookHash == "" || hashes[it.FlipbookHash] {
					return fmt.Errorf("%s: items need unique flipbookHash values", cw)
				}
				hashes[it.FlipbookHash] = true
			}
		}
	}
	return nil
}

// validStatus lists the collectionStatus values a collection can be put in.
func ValidStatus(s string) bool {
	switch s {
	case "public", "editable", "unlisted", "published":
		return true
	}
	return false
}

// scalarText is the text of a JSON scalar as a product value.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}
