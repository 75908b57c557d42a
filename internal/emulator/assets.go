package emulator

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"net/http"
	"strings"
)

// serveCover is the coverImage thumbnail, an SVG with the title.
func (e *Emulator) serveCover(w http.ResponseWriter, r *http.Request) {
	c, found := e.store.AnyCollection(strings.TrimSuffix(r.PathValue("file"), ".svg"))
	if !found {
		http.NotFound(w, r)
		return
	}
	title := c.Title
	w.Header().Set("Content-Type", "image/svg+xml")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="280"><rect width="200" height="280" fill="#eee"/><text x="100" y="140" text-anchor="middle">%s</text></svg>`+"\n", html.EscapeString(title))
}

// servePackage serves a downloadHTML package: a zip with index.html, for
// one minute after the answer that named it.
func (e *Emulator) servePackage(w http.ResponseWriter, r *http.Request) {
	c, found := e.store.PackageByToken(strings.TrimSuffix(r.PathValue("file"), ".zip"), e.now())
	switch {
	case !found:
		http.NotFound(w, r)
		return
	case c == nil:
		http.Error(w, "this package link has expired", http.StatusGone)
		return
	}
	title := c.Title
	var items []string
	for _, it := range c.Items {
		items = append(items, fmt.Sprintf("<li>%s (%d pages)</li>", html.EscapeString(it.Title), it.PageCount))
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
