package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// errMissing is a required argument left empty; the service would answer
// code 30, so the call is not spent.
func errMissing(action, param string) error {
	return fmt.Errorf("flipbook API %s: %s is required", action, param)
}

// formatParams adds `format` and `callback` when set; jsonp needs a
// callback.
func formatParams(action string, p map[string]string, f ResponseFormat) error {
	switch f.Format {
	case "", FormatJSON, FormatXML:
	case FormatJSONP:
		if f.Callback == "" {
			return fmt.Errorf("flipbook API %s: format jsonp needs a callback name", action)
		}
	default:
		return fmt.Errorf("flipbook API %s: unknown response format %q (json, jsonp or xml)", action, f.Format)
	}
	if f.Format != "" {
		p["format"] = f.Format
	}
	if f.Callback != "" {
		p["callback"] = f.Callback
	}
	return nil
}

// CreateFromTemplate queues generation and returns the new collection hash.
func (c *Client) CreateFromTemplate(ctx context.Context, in CreateFromTemplateInput) (string, error) {
	return c.create(ctx, ActionCreateFromTemplate, in.Sections, in.Title, in.Folder)
}

// CreateCatalog queues catalog generation and returns the new collection hash.
func (c *Client) CreateCatalog(ctx context.Context, in CreateCatalogInput) (string, error) {
	return c.create(ctx, ActionCreateCatalog, in.Sections, in.Title, in.Folder)
}

// MarshalSections is the `sections` parameter exactly as sent and signed.
func MarshalSections(sections []Section) (string, error) {
	if sections == nil {
		sections = []Section{}
	}
	return marshalJSON(sections)
}

// MarshalPermissions is the `permissions` parameter exactly as sent and
// signed: {"permissions":[...]}, never null.
func MarshalPermissions(perms []Permission) (string, error) {
	if perms == nil {
		perms = []Permission{}
	}
	return marshalJSON(struct {
		Permissions []Permission `json:"permissions"`
	}{perms})
}

func (c *Client) create(ctx context.Context, action string, sections []Section, title, folder string) (string, error) {
	if len(sections) == 0 {
		return "", errMissing(action, "sections")
	}
	js, err := MarshalSections(sections)
	if err != nil {
		return "", fmt.Errorf("flipbook API %s: encoding sections: %w", action, err)
	}
	p := map[string]string{"sections": js}
	if title != "" {
		p["title"] = title
	}
	if folder != "" {
		p["folder"] = folder
	}
	var out struct {
		CollectionHash string `json:"collectionHash"`
	}
	if err := c.call(ctx, &request{action: action, method: http.MethodPost, mutating: true, params: p}, &out); err != nil {
		return "", err
	}
	if out.CollectionHash == "" {
		// Code 20 without a hash: something was probably queued, but it
		// cannot be tracked.
		return "", &OutcomeUnknownError{Action: action, Err: errors.New("the success answer carried no collectionHash")}
	}
	return out.CollectionHash, nil
}

// GetCollection reads one collection.
func (c *Client) GetCollection(ctx context.Context, collectionHash string) (*Collection, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionGetCollection, "collectionHash")
	}
	var out Collection
	err := c.call(ctx, &request{action: ActionGetCollection, method: http.MethodGet,
		params: map[string]string{"collectionHash": collectionHash}, reads: collectionView(collectionHash)}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

type permissionsData struct {
	Permissions []Permission `json:"permissions"`
}

// GetPermissions reads the access list in saved order.
func (c *Client) GetPermissions(ctx context.Context, collectionHash string) ([]Permission, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionGetPermissions, "collectionHash")
	}
	var out permissionsData
	err := c.call(ctx, &request{action: ActionGetPermissions, method: http.MethodGet,
		params: map[string]string{"collectionHash": collectionHash}, reads: permissionsView(collectionHash)}, &out)
	if err != nil {
		return nil, err
	}
	return nonNilPermissions(out.Permissions), nil
}

// SetPermissions replaces the access list and returns what was saved.
func (c *Client) SetPermissions(ctx context.Context, collectionHash string, perms []Permission) ([]Permission, error) {
	return c.SetPermissionsAfter(ctx, collectionHash, perms, nil)
}

// SetPermissionsAfter is SetPermissions for a caller that has just read
// the saved list afresh (WithFreshRead): before is that list, which a
// notifying call needs to tell a lost answer from a call that landed, so
// it is not read a second time. A nil before is read here.
func (c *Client) SetPermissionsAfter(ctx context.Context, collectionHash string, perms, before []Permission) ([]Permission, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionSetPermissions, "collectionHash")
	}
	js, err := MarshalPermissions(perms)
	if err != nil {
		return nil, fmt.Errorf("flipbook API %s: encoding permissions: %w", ActionSetPermissions, err)
	}
	req := &request{action: ActionSetPermissions, method: http.MethodGet, mutating: true, notify: anyNotify(perms),
		params: map[string]string{"collectionHash": collectionHash, "permissions": js}, writes: permissionsView(collectionHash)}
	var out permissionsData
	if onAmbiguous(ActionSetPermissions, req.notify) != readBack {
		if err := c.call(ctx, req, &out); err != nil {
			return nil, err
		}
		return nonNilPermissions(out.Permissions), nil
	}
	// The list before the call, so that a lost answer can be told from a
	// call that landed: a failed read leaves it unknown (nil). It is read
	// afresh: a reused answer could miss a change made meanwhile outside.
	if before == nil {
		before, _ = c.GetPermissions(WithFreshRead(ctx), collectionHash)
	}
	var readBack []Permission // set (never nil) when reading back showed the call had landed
	if err := c.confirmed(ctx, req, &out, c.confirmPermissions(collectionHash, perms, before, &readBack)); err != nil {
		return nil, err
	}
	if readBack != nil {
		return readBack, nil
	}
	return nonNilPermissions(out.Permissions), nil
}

func anyNotify(perms []Permission) bool {
	for _, p := range perms {
		if p.NotifyViaEmail {
			return true
		}
	}
	return false
}

// nonNilPermissions keeps "no permissions" an empty list, never nil.
func nonNilPermissions(p []Permission) []Permission {
	if p == nil {
		return []Permission{}
	}
	return p
}

// GetEmbed returns the embed markup.
func (c *Client) GetEmbed(ctx context.Context, in EmbedInput) (string, error) {
	if in.CollectionHash == "" {
		return "", errMissing(ActionGetEmbed, "collectionHash")
	}
	p := map[string]string{"collectionHash": in.CollectionHash}
	if in.Responsive != nil {
		p["responsive"] = strconv.FormatBool(*in.Responsive)
	}
	for name, v := range map[string]*float64{"startPage": in.StartPage, "width": in.Width, "height": in.Height} {
		if v != nil {
			p[name] = strconv.FormatFloat(*v, 'f', -1, 64)
		}
	}
	var out struct {
		EmbedCode string `json:"embedCode"`
	}
	if err := c.call(ctx, &request{action: ActionGetEmbed, method: http.MethodGet, params: p}, &out); err != nil {
		return "", err
	}
	return out.EmbedCode, nil
}

// DownloadHTML starts or resumes package generation and returns its progress.
func (c *Client) DownloadHTML(ctx context.Context, collectionHash string) (*DownloadPackage, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionDownloadHTML, "collectionHash")
	}
	var out DownloadPackage
	err := c.call(ctx, &request{action: ActionDownloadHTML, method: http.MethodGet,
		params: map[string]string{"collectionHash": collectionHash}}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetStats reads one flipbook's statistics.
func (c *Client) GetStats(ctx context.Context, collectionHash, flipbookHash string, f ResponseFormat) (*FlipbookStats, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionGetStats, "collectionHash")
	}
	if flipbookHash == "" {
		return nil, errMissing(ActionGetStats, "flipbookHash")
	}
	p := map[string]string{"collectionHash": collectionHash, "flipbookHash": flipbookHash}
	if err := formatParams(ActionGetStats, p, f); err != nil {
		return nil, err
	}
	var out FlipbookStats
	if err := c.call(ctx, &request{action: ActionGetStats, method: http.MethodGet, params: p}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// uploadParams checks the File/FileURL choice shared by both uploads.
func uploadParams(action, collectionHash string, file *Upload, fileURL string, f ResponseFormat) (map[string]string, error) {
	if collectionHash == "" {
		return nil, errMissing(action, "collectionHash")
	}
	if file == nil && fileURL == "" {
		return nil, errMissing(action, "file or fileUrl")
	}
	if file != nil && file.Body == nil {
		return nil, fmt.Errorf("flipbook API %s: upload %q has no body", action, file.Name)
	}
	p := map[string]string{"collectionHash": collectionHash}
	if fileURL != "" {
		p["fileUrl"] = fileURL
	}
	if err := formatParams(action, p, f); err != nil {
		return nil, err
	}
	return p, nil
}

// SetLogo uploads a logo (File) or names one (FileURL).
func (c *Client) SetLogo(ctx context.Context, in SetLogoInput) (*Collection, error) {
	p, err := uploadParams(ActionSetLogo, in.CollectionHash, in.File, in.FileURL, in.ResponseFormat)
	if err != nil {
		return nil, err
	}
	if in.LogoURL != "" {
		p["logoUrl"] = in.LogoURL
	}
	var out Collection
	err = c.call(ctx, &request{action: ActionSetLogo, method: http.MethodPost, upload: true, mutating: true,
		params: p, file: in.File, writes: collectionView(in.CollectionHash), carries: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteBackgroundImage removes the collection's background image.
func (c *Client) DeleteBackgroundImage(ctx context.Context, collectionHash string, f ResponseFormat) (*Collection, error) {
	if collectionHash == "" {
		return nil, errMissing(ActionDeleteBackgroundImage, "collectionHash")
	}
	p := map[string]string{"collectionHash": collectionHash}
	if err := formatParams(ActionDeleteBackgroundImage, p, f); err != nil {
		return nil, err
	}
	var out Collection
	err := c.call(ctx, &request{action: ActionDeleteBackgroundImage, method: http.MethodGet, mutating: true,
		params: p, writes: collectionView(collectionHash), carries: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// AddFlipbook uploads a PDF (File) or names one (FileURL) into a collection.
// A File whose known Size is over MaxUploadBytes is refused before sending
// with the code the service would give (34).
func (c *Client) AddFlipbook(ctx context.Context, in AddFlipbookInput) (*Flipbook, error) {
	p, err := uploadParams(ActionAddFlipbook, in.CollectionHash, in.File, in.FileURL, in.ResponseFormat)
	if err != nil {
		return nil, err
	}
	if in.File != nil && in.File.Size > MaxUploadBytes {
		return nil, &APIError{Action: ActionAddFlipbook, Code: CodeFileTooLarge, Status: "File size too large",
			Message: fmt.Sprintf("%q is %d bytes; the service accepts at most %d (refused before sending)",
				in.File.Name, in.File.Size, MaxUploadBytes)}
	}
	if in.Title != "" {
		p["title"] = in.Title
	}
	if in.Description != "" {
		p["description"] = in.Description
	}
	// Uploads to one collection go one at a time, and the items listed
	// before each are noted: after an ambiguous failure, a new item is this
	// upload (policy.go).
	unlock, err := c.lockCollection(ctx, in.CollectionHash)
	if err != nil {
		return nil, fmt.Errorf("flipbook API %s: waiting for another upload to collection %s: %w", ActionAddFlipbook, in.CollectionHash, err)
	}
	defer unlock()
	coll, err := c.GetCollection(ctx, in.CollectionHash)
	if err != nil {
		return nil, err
	}
	before := make(map[string]bool, len(coll.CollectionItems))
	for _, it := range coll.CollectionItems {
		before[it.FlipbookHash] = true
	}
	var out Flipbook
	err = c.confirmed(ctx, &request{action: ActionAddFlipbook, method: http.MethodPost, upload: true, mutating: true,
		params: p, file: in.File, writes: collectionView(in.CollectionHash)}, &out, c.adoptAddedItem(in, before, coll.CollectionStatus == CollectionProcessing, &out))
	if err != nil {
		return nil, err
	}
	if out.FlipbookHash == "" {
		return nil, &OutcomeUnknownError{Action: ActionAddFlipbook, Err: errors.New("the success answer carried no flipbookHash")}
	}
	c.noteConverted(out)
	return &out, nil
}

// GetUserStats reads the account's statistics.
func (c *Client) GetUserStats(ctx context.Context) (*UserStats, error) {
	var out UserStats
	if err := c.call(ctx, &request{action: ActionUserGetStats, method: http.MethodGet}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
