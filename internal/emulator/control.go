package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// Errors of the Go control methods (and their HTTP status on /_emulator/).
var (
	ErrUnknownCollection = store.ErrUnknownCollection
	ErrDeletedCollection = store.ErrDeletedCollection
	ErrProcessing        = store.ErrProcessing
	ErrInvalidStatus     = errors.New("emulator: unknown collection status")
	ErrEmptyTitle        = errors.New("emulator: title is required")
)

// CollectionView is a collection as the control endpoints show it.
type CollectionView struct {
	CollectionHash string          `json:"collectionHash"`
	APIKey         string          `json:"apiKey"`
	Title          string          `json:"title"`
	Status         string          `json:"status"` // collectionStatus now, "processing" included
	Private        bool            `json:"private"`
	Password       bool            `json:"password"`
	PageCount      int             `json:"pageCount"`
	Sections       json.RawMessage `json:"sections,omitzero"` // generated ones: the JSON as received
	Layout         [][]string      `json:"layout,omitzero"`   // catalogs: SKUs per page
	// The fields below are emulator extensions.
	Kind            string           `json:"kind"` // fixture, template, catalog
	Deleted         bool             `json:"deleted"`
	Folder          string           `json:"folder,omitempty"`
	FlipbookStatus  string           `json:"flipbookStatus"`
	BackgroundImage bool             `json:"backgroundImage"`
	BackgroundColor string           `json:"backgroundColor"`
	LogoImage       string           `json:"logoImage,omitempty"`
	LogoURL         string           `json:"logoUrl,omitempty"`
	Items           []ItemView       `json:"items"`
	Permissions     []PermissionView `json:"permissions"`
}

// ItemView is one flipbook of a CollectionView.
type ItemView struct {
	FlipbookHash  string `json:"flipbookHash"`
	Title         string `json:"title"`
	Description   string `json:"description"`
	PageCount     int    `json:"pageCount"`
	ConvertStatus string `json:"convertStatus"`
}

// PermissionView is a saved access row.
type PermissionView struct {
	Type  string `json:"type"`
	Email string `json:"email,omitempty"`
	Group string `json:"group,omitempty"`
}

func view(c *store.Collection, now time.Time) CollectionView {
	v := CollectionView{
		CollectionHash: c.Hash, APIKey: c.APIKey, Title: c.Title, Status: c.StatusAt(now),
		Private: c.Private, Password: c.Password, PageCount: c.PageCountAt(now),
		Layout: c.Layout, Kind: c.Kind, Deleted: c.Deleted, Folder: c.Folder,
		FlipbookStatus: c.FlipbookStatus(now), BackgroundImage: c.Background,
		BackgroundColor: c.BackgroundHex, LogoImage: c.LogoImage, LogoURL: c.LogoURL,
		Items: []ItemView{}, Permissions: []PermissionView{},
	}
	if c.Sections != "" && json.Valid([]byte(c.Sections)) {
		v.Sections = json.RawMessage(c.Sections)
	}
	for _, it := range c.Items {
		v.Items = append(v.Items, ItemView{FlipbookHash: it.Hash, Title: it.Title, Description: it.Description, PageCount: it.PageCount, ConvertStatus: c.ConvertStatus(it, now)})
	}
	for _, p := range c.Permissions {
		v.Permissions = append(v.Permissions, PermissionView(p))
	}
	return v
}

// Collections lists every collection of every account, deleted ones
// included (Deleted true), in creation order.
func (e *Emulator) Collections() []CollectionView {
	now := e.now()
	out := []CollectionView{}
	for _, c := range e.store.AllCollections() {
		out = append(out, view(&c, now))
	}
	return out
}

// Collection is one collection's view.
func (e *Emulator) Collection(hash string) (CollectionView, error) {
	now := e.now()
	c, found := e.store.AnyCollection(hash)
	if !found {
		return CollectionView{}, ErrUnknownCollection
	}
	return view(&c, now), nil
}

// Publish gives a collection its final hash, as publishing from the editor
// does: the old hash is gone (code 46), an editable collection becomes
// unlisted, and the publish date is now. It returns the new hash.
func (e *Emulator) Publish(hash string) (string, error) {
	final, err := e.store.Publish(hash, e.now().UTC())
	if err != nil {
		return "", err
	}
	e.persist()
	return final, nil
}

// SetAccess changes what decides permission eligibility; nil leaves a field
// as it is.
func (e *Emulator) SetAccess(hash string, private, password *bool, status *string) error {
	if status != nil && !store.ValidStatus(*status) {
		return fmt.Errorf("%w %q (want public, editable, unlisted or published)", ErrInvalidStatus, *status)
	}
	if err := e.store.SetAccess(hash, private, password, status, e.now().UTC()); err != nil {
		return err
	}
	e.persist()
	return nil
}

// Rename changes a collection's title as the web editor would:
// collection.getCollection then reports the new collectionTitle.
func (e *Emulator) Rename(hash, title string) error {
	if title == "" {
		return ErrEmptyTitle
	}
	if err := e.store.Rename(hash, title); err != nil {
		return err
	}
	e.persist()
	return nil
}

// Delete deletes a collection as the web application would: the API then
// answers 43 for it. Deleting twice is not an error.
func (e *Emulator) Delete(hash string) error {
	if err := e.store.MarkDeleted(hash); err != nil {
		return err
	}
	e.persist()
	return nil
}

// Requests counts every API call by action and by the code it was answered
// with, "fault" for a fault that sent no envelope.
func (e *Emulator) Requests() map[string]map[string]int { return e.harness.Requests() }

// ResetRequests zeroes the request counters.
func (e *Emulator) ResetRequests() { e.harness.ResetRequests() }

// Notifications lists, oldest first, the e-mails setPermissions would have
// sent.
func (e *Emulator) Notifications() []Notification { return e.harness.Notifications() }

// SetGenerationDelay sets how long generations started from now on stay
// processing.
func (e *Emulator) SetGenerationDelay(d time.Duration) {
	e.store.SetGenerationDelay(max(d, 0))
}

// Accounts lists the API keys of the current fixture, in its order.
func (e *Emulator) Accounts() []string {
	var out []string
	for _, a := range e.w().fx.Accounts {
		out = append(out, a.APIKey)
	}
	return out
}

// Secret is the secret of an API key of the current fixture.
func (e *Emulator) Secret(apiKey string) (string, bool) {
	for _, a := range e.w().fx.Accounts {
		if a.APIKey == apiKey {
			return a.Secret, true
		}
	}
	return "", false
}
