package provider

import (
	"bytes"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file tells what a local file to upload is from its leading bytes, and
// which kinds each uploading resource accepts.

// Content types recognised by their leading bytes. Only the leading bytes are
// read: a file is never loaded whole, whatever its size.
const (
	contentPDF  = "PDF"
	contentPNG  = "PNG"
	contentJPEG = "JPEG"
	contentGIF  = "GIF"
	contentWebP = "WebP"
	contentSVG  = "SVG"
)

// sniffLen is how many leading bytes sniffContentType reads: enough to find
// the <svg> element of an SVG after its XML prolog or a comment.
const sniffLen = 1024

// sniffContentType names the content type of a file from its first bytes, or
// returns "" when none of the known signatures matches.
func sniffContentType(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return contentPDF
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return contentPNG
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return contentJPEG
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return contentGIF
	case len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")):
		return contentWebP
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if (bytes.HasPrefix(t, []byte("<?xml")) || bytes.HasPrefix(t, []byte("<svg")) || bytes.HasPrefix(t, []byte("<!--"))) &&
		bytes.Contains(head, []byte("<svg")) {
		return contentSVG
	}
	return ""
}

// fileKind is what an upload attribute accepts. When guessed is set the spec
// states neither accepts nor maxBytes: a file outside them only warns.
type fileKind struct {
	noun     string   // "document", "logo image"
	accepts  []string // content types, as sniffContentType names them
	maxBytes int64
	guessed  bool
}

// documentFile is flipbook.add's document. Spec, Limits: "Uploaded document |
// PDF only, at most 100 MB and 500 pages".
var documentFile = fileKind{noun: "document", accepts: []string{contentPDF}, maxBytes: apiclient.MaxUploadBytes}

// logoFile is collection.setLogo's image. Spec, Limits: "Maximum size and
// allowed types for logo images: not shown", so these common image types and
// the documents' 100 MB are only guesses: a file outside them gets a warning
// and is sent; the service answers (45, 34).
var logoFile = fileKind{noun: "logo image", accepts: []string{contentPNG, contentJPEG, contentGIF, contentWebP, contentSVG},
	maxBytes: apiclient.MaxUploadBytes, guessed: true}

func (k fileKind) accepted(contentType string) bool {
	for _, a := range k.accepts {
		if a == contentType {
			return true
		}
	}
	return false
}
