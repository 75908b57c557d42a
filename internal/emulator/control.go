package emulator

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"time"
)

// Errors of the Go control methods (and their HTTP status on /_emulator/).
var (
	ErrUnknownCollection = errors.New("emulator: unknown collection hash")
	ErrDeletedCollection = errors.New("emulator: collection is deleted")
	ErrProcessing        = errors.New("emulator: collection is still generating")
	ErrInvalidStatus     = errors.New("emulator: unknown collection status")
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
	// The fields below are not named by CONTRACT.md.
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

func (e *Emulator) view(c *collection, now time.Time) CollectionView {
	v := CollectionView{
		CollectionHash: c.Hash, APIKey: c.APIKey, Title: c.Title, Status: c.status(now),
		Private: c.Private, Password: c.Password, PageCount: c.pageCount(now),
		Layout: c.Layout, Kind: c.Kind, Deleted: c.Deleted, Folder: c.Folder,
		FlipbookStatus: c.flipbookStatus(now), BackgroundImage: c.Background,
		BackgroundColor: c.BackgroundHex, LogoImage: c.LogoImage, LogoURL: c.LogoURL,
		Items: []ItemView{}, Permissions: []PermissionView{},
	}
	if c.Sections != "" && json.Valid([]byte(c.Sections)) {
		v.Sections = json.RawMessage(c.Sections)
	}
	for _, it := range c.Items {
		v.Items = append(v.Items, ItemView{FlipbookHash: it.Hash, Title: it.Title, Description: it.Description, PageCount: it.PageCount, ConvertStatus: c.convertStatus(it, now)})
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
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []CollectionView{}
	for _, c := range e.sortedCollections() {
		out = append(out, e.view(c, now))
	}
	return out
}

// Collection is one collection's view.
func (e *Emulator) Collection(hash string) (CollectionView, error) {
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.cols[hash]
	if c == nil {
		return CollectionView{}, ErrUnknownCollection
	}
	return e.view(c, now), nil
}

// Publish gives a collection its final hash, as publishing from the editor
// does: the old hash is gone (code 46), an editable collection becomes
// unlisted, and the publish date is now. It returns the new hash.
func (e *Emulator) Publish(hash string) (string, error) {
	now := e.now().UTC()
	e.mu.Lock()
	c := e.cols[hash]
	switch {
	case c == nil:
		e.mu.Unlock()
		return "", ErrUnknownCollection
	case c.Deleted:
		e.mu.Unlock()
		return "", ErrDeletedCollection
	case c.processing(now):
		e.mu.Unlock()
		return "", ErrProcessing
	}
	delete(e.cols, hash)
	c.Hash = newHash()
	e.cols[c.Hash] = c
	if c.Status == "editable" {
		c.Status = "unlisted"
	}
	c.PublishedAt = now
	published := c.Hash // read under the lock: a concurrent publish may move it again
	e.changed()
	e.mu.Unlock()
	e.persist()
	return published, nil
}

// SetAccess changes what decides permission eligibility; nil leaves a field
// as it is.
func (e *Emulator) SetAccess(hash string, private, password *bool, status *string) error {
	if status != nil && !validStatus(*status) {
		return fmt.Errorf("%w %q (want public, editable, unlisted or published)", ErrInvalidStatus, *status)
	}
	e.mu.Lock()
	c := e.cols[hash]
	switch {
	case c == nil:
		e.mu.Unlock()
		return ErrUnknownCollection
	case c.Deleted:
		e.mu.Unlock()
		return ErrDeletedCollection
	}
	if private != nil {
		c.Private = *private
	}
	if password != nil {
		c.Password = *password
	}
	if status != nil {
		c.Status = *status
		if published(c.Status) && c.PublishedAt.IsZero() {
			c.PublishedAt = e.now().UTC()
		}
	}
	e.changed()
	e.mu.Unlock()
	e.persist()
	return nil
}

// Delete deletes a collection as the web application would: the API then
// answers 43 for it. Deleting twice is not an error.
func (e *Emulator) Delete(hash string) error {
	e.mu.Lock()
	c := e.cols[hash]
	if c == nil {
		e.mu.Unlock()
		return ErrUnknownCollection
	}
	c.Deleted = true
	e.changed()
	e.mu.Unlock()
	e.persist()
	return nil
}

// Requests counts every API call by action and by the code it was answered
// with, "fault" for a fault that sent no envelope.
func (e *Emulator) Requests() map[string]map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]map[string]int, len(e.requests))
	for a, m := range e.requests {
		cp := make(map[string]int, len(m))
		for k, v := range m {
			cp[k] = v
		}
		out[a] = cp
	}
	return out
}

// ResetRequests zeroes the request counters.
func (e *Emulator) ResetRequests() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests = map[string]map[string]int{}
}

// Notifications lists, oldest first, the e-mails setPermissions would have
// sent.
func (e *Emulator) Notifications() []Notification {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Notification{}, e.notifications...)
}

// SetGenerationDelay sets how long generations started from now on stay
// processing.
func (e *Emulator) SetGenerationDelay(d time.Duration) {
	if d < 0 {
		d = 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.genDelay = d
}

// Handler serves the API at /api/v1/ and /upload/v1/ and the control
// endpoints under /_emulator/.
func (e *Emulator) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/", func(w http.ResponseWriter, r *http.Request) { e.apiPath(w, r, "/api/v1/", false) })
	mux.HandleFunc("/upload/v1/", func(w http.ResponseWriter, r *http.Request) { e.apiPath(w, r, "/upload/v1/", true) })
	mux.HandleFunc("/api/v1", func(w http.ResponseWriter, r *http.Request) { e.serveAPI(w, r, false) })
	mux.HandleFunc("/upload/v1", func(w http.ResponseWriter, r *http.Request) { e.serveAPI(w, r, true) })
	mux.HandleFunc("/api/", e.badAddress)
	mux.HandleFunc("/upload/", e.badAddress)

	mux.HandleFunc("GET /_emulator/collections", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, e.Collections()) })
	mux.HandleFunc("GET /_emulator/collections/{hash}", func(w http.ResponseWriter, r *http.Request) {
		v, err := e.Collection(r.PathValue("hash"))
		if err != nil {
			controlError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("POST /_emulator/collections/{hash}/publish", func(w http.ResponseWriter, r *http.Request) {
		h, err := e.Publish(r.PathValue("hash"))
		if err != nil {
			controlError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"collectionHash": h})
	})
	mux.HandleFunc("POST /_emulator/collections/{hash}/access", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Private  *bool   `json:"private"`
			Password *bool   `json:"password"`
			Status   *string `json:"status"`
		}
		if !readJSON(w, r, &body) {
			return
		}
		if err := e.SetAccess(r.PathValue("hash"), body.Private, body.Password, body.Status); err != nil {
			controlError(w, err)
			return
		}
		v, _ := e.Collection(r.PathValue("hash"))
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("DELETE /_emulator/collections/{hash}", func(w http.ResponseWriter, r *http.Request) {
		if err := e.Delete(r.PathValue("hash")); err != nil {
			controlError(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_emulator/requests", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"byAction": e.Requests()})
	})
	mux.HandleFunc("DELETE /_emulator/requests", func(w http.ResponseWriter, r *http.Request) {
		e.ResetRequests()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_emulator/faults", func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		body := map[string]any{"rate": e.faults.rate, "kinds": append([]string{}, e.faults.kinds...)}
		if len(e.faults.actions) > 0 {
			body["actions"] = append([]string{}, e.faults.actions...)
		}
		e.mu.Unlock()
		writeJSON(w, http.StatusOK, body)
	})
	mux.HandleFunc("POST /_emulator/faults", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Rate    float64  `json:"rate"`
			Kinds   []string `json:"kinds"`
			Actions []string `json:"actions,omitempty"` // extension: only these actions meet faults
		}
		if !readJSON(w, r, &body) {
			return
		}
		if err := e.SetFaultsOn(body.Actions, body.Rate, body.Kinds); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		out := map[string]any{"rate": body.Rate, "kinds": body.Kinds}
		if len(body.Actions) > 0 {
			out["actions"] = body.Actions
		}
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("GET /_emulator/notifications", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, e.Notifications())
	})
	mux.HandleFunc("POST /_emulator/generation", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			DelayMs *int64 `json:"delayMs"`
		}
		if !readJSON(w, r, &body) {
			return
		}
		if body.DelayMs == nil || *body.DelayMs < 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "delayMs (>= 0) is required"})
			return
		}
		e.SetGenerationDelay(time.Duration(*body.DelayMs) * time.Millisecond)
		writeJSON(w, http.StatusOK, map[string]int64{"delayMs": *body.DelayMs})
	})
	mux.HandleFunc("GET /_emulator/view/{hash}", e.servePlayer)
	mux.HandleFunc("GET /_emulator/cover/{file}", e.serveCover)
	mux.HandleFunc("GET /_emulator/packages/{file}", e.servePackage)
	return mux
}

// apiPath serves the API at exactly its base path (with or without the
// trailing slash); deeper paths are malformed URLs (code 40).
func (e *Emulator) apiPath(w http.ResponseWriter, r *http.Request, base string, upload bool) {
	if r.URL.Path != base {
		e.badAddress(w, r)
		return
	}
	e.serveAPI(w, r, upload)
}

// badAddress answers a path under /api/ or /upload/ that is not a base
// address: a malformed URL, code 40.
func (e *Emulator) badAddress(w http.ResponseWriter, r *http.Request) {
	e.finish(w, r.URL.Query().Get("action"), format{kind: "json"},
		invalid("Malformed URL: no API at "+r.URL.Path, "url: the API is served at /api/v1/ and /upload/v1/"), false)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid JSON body: " + err.Error()})
		return false
	}
	return true
}

func controlError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	switch {
	case errors.Is(err, ErrUnknownCollection):
		status = http.StatusNotFound
	case errors.Is(err, ErrDeletedCollection), errors.Is(err, ErrProcessing):
		status = http.StatusConflict
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

// serveCover is the coverImage thumbnail, an SVG with the title.
func (e *Emulator) serveCover(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimSuffix(r.PathValue("file"), ".svg")
	e.mu.Lock()
	c := e.cols[hash]
	var title string
	if c != nil {
		title = c.Title
	}
	e.mu.Unlock()
	if c == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="280"><rect width="200" height="280" fill="#eee"/><text x="100" y="140" text-anchor="middle">%s</text></svg>`+"\n", html.EscapeString(title))
}

// servePackage serves a downloadHTML package: a zip with index.html, for
// one minute after the answer that named it.
func (e *Emulator) servePackage(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimSuffix(r.PathValue("file"), ".zip")
	now := e.now()
	e.mu.Lock()
	t, found := e.tokens[token]
	var c *collection
	if found && now.Before(t.expires) {
		for _, col := range e.cols {
			if col.Seq == t.seq && !col.Deleted {
				c = col
			}
		}
	}
	var title string
	var items []string
	if c != nil {
		title = c.Title
		for _, it := range c.Items {
			items = append(items, fmt.Sprintf("<li>%s (%d pages)</li>", html.EscapeString(it.Title), it.PageCount))
		}
	}
	e.mu.Unlock()
	switch {
	case !found:
		http.NotFound(w, r)
		return
	case c == nil:
		http.Error(w, "this package link has expired", http.StatusGone)
		return
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	f, _ := zw.Create("index.html")
	fmt.Fprintf(f, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body><h1>%s</h1><ul>%s</ul></body></html>\n",
		html.EscapeString(title), html.EscapeString(title), strings.Join(items, ""))
	if err := zw.Close(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="flipbook.zip"`)
	_, _ = w.Write(buf.Bytes())
}
