package emulator

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"
)

// Bodies of the control endpoints (under /_emulator/, listed in the README's
// "Control endpoints"); CollectionView and FaultSettings are the others.
type (
	// Health answers GET /_emulator/health: {"status": "ok"} once the API
	// answers.
	Health struct {
		Status string `json:"status"`
	}
	// PublishResult answers POST /_emulator/collections/{hash}/publish.
	PublishResult struct {
		CollectionHash string `json:"collectionHash"`
	}
	// AccessChange is the body of POST /_emulator/collections/{hash}/access;
	// an absent field is left as it is.
	AccessChange struct {
		Private  *bool   `json:"private"`
		Password *bool   `json:"password"`
		Status   *string `json:"status"`
	}
	// Rename is the body of POST /_emulator/collections/{hash}/rename.
	Rename struct {
		Title *string `json:"title"`
	}
	// RequestCounts answers GET /_emulator/requests.
	RequestCounts struct {
		ByAction map[string]map[string]int `json:"byAction"`
	}
	// GenerationDelay is the body and answer of POST /_emulator/generation.
	GenerationDelay struct {
		DelayMs *int64 `json:"delayMs"`
	}
	// ControlError is every control endpoint's answer to a bad call (HTTP
	// 400, 404 or 409).
	ControlError struct {
		Error string `json:"error"`
	}
)

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

	mux.HandleFunc("GET /_emulator/health", e.getHealth)
	mux.HandleFunc("POST /_emulator/reset", e.postReset)
	mux.HandleFunc("PUT /_emulator/fixture", e.putFixture)
	mux.HandleFunc("GET /_emulator/collections", e.getCollections)
	mux.HandleFunc("GET /_emulator/collections/{hash}", e.getCollection)
	mux.HandleFunc("POST /_emulator/collections/{hash}/publish", e.postPublish)
	mux.HandleFunc("POST /_emulator/collections/{hash}/access", e.postAccess)
	mux.HandleFunc("POST /_emulator/collections/{hash}/rename", e.postRename)
	mux.HandleFunc("DELETE /_emulator/collections/{hash}", e.deleteCollection)
	mux.HandleFunc("GET /_emulator/requests", e.getRequests)
	mux.HandleFunc("DELETE /_emulator/requests", e.deleteRequests)
	mux.HandleFunc("GET /_emulator/faults", e.getFaults)
	mux.HandleFunc("POST /_emulator/faults", e.postFaults)
	mux.HandleFunc("GET /_emulator/notifications", e.getNotifications)
	mux.HandleFunc("POST /_emulator/generation", e.postGeneration)
	mux.HandleFunc("GET /_emulator/view/{hash}", e.servePlayer)
	mux.HandleFunc("GET /_emulator/cover/{file}", e.serveCover)
	mux.HandleFunc("GET /_emulator/packages/{file}", e.servePackage)
	return mux
}

func (e *Emulator) getHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, Health{Status: "ok"})
}

func (e *Emulator) postReset(w http.ResponseWriter, _ *http.Request) {
	e.Reset()
	writeJSON(w, http.StatusOK, Health{Status: "ok"})
}

func (e *Emulator) putFixture(w http.ResponseWriter, r *http.Request) {
	fx, err := ParseFixtureBody(r.Body)
	if err == nil {
		err = e.ReplaceFixture(fx)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, ControlError{Error: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, Health{Status: "ok"})
}

func (e *Emulator) getCollections(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, e.Collections())
}

func (e *Emulator) getCollection(w http.ResponseWriter, r *http.Request) {
	v, err := e.Collection(r.PathValue("hash"))
	if err != nil {
		controlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (e *Emulator) postPublish(w http.ResponseWriter, r *http.Request) {
	h, err := e.Publish(r.PathValue("hash"))
	if err != nil {
		controlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, PublishResult{CollectionHash: h})
}

func (e *Emulator) postAccess(w http.ResponseWriter, r *http.Request) {
	var body AccessChange
	if !readJSON(w, r, &body) {
		return
	}
	if err := e.SetAccess(r.PathValue("hash"), body.Private, body.Password, body.Status); err != nil {
		controlError(w, err)
		return
	}
	v, _ := e.Collection(r.PathValue("hash"))
	writeJSON(w, http.StatusOK, v)
}

func (e *Emulator) postRename(w http.ResponseWriter, r *http.Request) {
	var body Rename
	if !readJSON(w, r, &body) {
		return
	}
	if body.Title == nil {
		writeJSON(w, http.StatusBadRequest, ControlError{Error: "title is required"})
		return
	}
	if err := e.Rename(r.PathValue("hash"), *body.Title); err != nil {
		controlError(w, err)
		return
	}
	v, _ := e.Collection(r.PathValue("hash"))
	writeJSON(w, http.StatusOK, v)
}

func (e *Emulator) deleteCollection(w http.ResponseWriter, r *http.Request) {
	if err := e.Delete(r.PathValue("hash")); err != nil {
		controlError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) getRequests(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, RequestCounts{ByAction: e.Requests()})
}

func (e *Emulator) deleteRequests(w http.ResponseWriter, _ *http.Request) {
	e.ResetRequests()
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) getFaults(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, e.Faults())
}

func (e *Emulator) postFaults(w http.ResponseWriter, r *http.Request) {
	var body FaultSettings
	if !readJSON(w, r, &body) {
		return
	}
	if err := e.SetFaultsOn(body.Actions, body.Rate, body.Kinds); err != nil {
		writeJSON(w, http.StatusBadRequest, ControlError{Error: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, body)
}

func (e *Emulator) getNotifications(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, e.Notifications())
}

func (e *Emulator) postGeneration(w http.ResponseWriter, r *http.Request) {
	var body GenerationDelay
	if !readJSON(w, r, &body) {
		return
	}
	if body.DelayMs == nil || *body.DelayMs < 0 {
		writeJSON(w, http.StatusBadRequest, ControlError{Error: "delayMs (>= 0) is required"})
		return
	}
	e.SetGenerationDelay(time.Duration(*body.DelayMs) * time.Millisecond)
	writeJSON(w, http.StatusOK, body)
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
		writeJSON(w, http.StatusBadRequest, ControlError{Error: "invalid JSON body: " + err.Error()})
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
	writeJSON(w, status, ControlError{Error: err.Error()})
}
