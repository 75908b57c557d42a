package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is all the upload code of the two uploading resources,
// flipbook_document and flipbook_collection_logo (spec: flipbook.add and
// collection.setLogo take `file` or `fileUrl`): the source attributes and
// their checks, the local file's inspection at plan time, and the upload
// that streams it and proves the bytes sent are the bytes planned.

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

// fileProblem is a local file that cannot be uploaded, worded for a
// diagnostic: Summary is Title Case, Detail says why and what to do.
type fileProblem struct {
	Summary string
	Detail  string
	Err     error
}

func (p *fileProblem) Error() string { return p.Summary + ": " + p.Detail }
func (p *fileProblem) Unwrap() error { return p.Err }

// localFile is what inspectLocalFile learnt about a file. Doubts are the
// guessed limits of a kind the file breaks: warnings, never errors.
type localFile struct {
	Size        int64
	ContentType string
	SHA256      string // lower-case hex
	Doubts      []*fileProblem
}

// inspectLocalFile checks that path is a regular file of an accepted content
// type within kind's size limit, and hashes it by streaming it. The size is
// checked before any byte is read, so an oversized file costs one stat.
func inspectLocalFile(path string, kind fileKind) (localFile, error) {
	f, size, doubts, err := openRegularFile(path, kind)
	if err != nil {
		return localFile{}, err
	}
	defer f.Close()

	h := sha256.New()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return localFile{}, readProblem(path, err)
	}
	head = head[:n]
	ct := sniffContentType(head)
	if !kind.accepted(ct) && size > 0 {
		if !kind.guessed {
			return localFile{}, contentProblem(path, kind, ct)
		}
		doubts = append(doubts, contentProblem(path, kind, ct))
	}
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return localFile{}, readProblem(path, err)
	}
	return localFile{Size: size, ContentType: ct, SHA256: hex.EncodeToString(h.Sum(nil)), Doubts: doubts}, nil
}

// openRegularFile opens path after checking it is a regular file no larger
// than kind allows. For a guessed kind, size problems come back as doubts.
func openRegularFile(path string, kind fileKind) (*os.File, int64, []*fileProblem, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil, &fileProblem{Summary: "File Not Found", Err: err,
				Detail: fmt.Sprintf("The %s %q does not exist. Check the path; a relative path is taken from the directory "+
					"Terraform runs in, so prefer \"${path.module}/...\".", kind.noun, path)}
		}
		return nil, 0, nil, readProblem(path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, readProblem(path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, nil, &fileProblem{Summary: "Not A Regular File",
			Detail: fmt.Sprintf("The %s %q is a %s, not a regular file. Point the attribute at the file to upload.", kind.noun, path, describeMode(st.Mode()))}
	}
	var doubts []*fileProblem
	var problem *fileProblem
	switch {
	case st.Size() > kind.maxBytes:
		// Spec, Limits: a document is "at most 100 MB" (code 34).
		problem = &fileProblem{Summary: "File Too Large",
			Detail: fmt.Sprintf("The %s %q is %d bytes; the service accepts at most %d bytes (%d MB). Use a smaller file.",
				kind.noun, path, st.Size(), kind.maxBytes, kind.maxBytes>>20)}
	case st.Size() == 0:
		// Spec, Limits: a document is "PDF only", and an empty file is no PDF.
		problem = &fileProblem{Summary: "Empty File",
			Detail: fmt.Sprintf("The %s %q is empty. Point the attribute at a %s.", kind.noun, path, strings.Join(kind.accepts, ", "))}
	}
	if problem != nil {
		if !kind.guessed {
			f.Close()
			return nil, 0, nil, problem
		}
		doubts = append(doubts, guessedProblem(kind, problem))
	}
	return f, st.Size(), doubts, nil
}

// guessedProblem rewords a problem with a limit the spec does not state.
func guessedProblem(kind fileKind, p *fileProblem) *fileProblem {
	return &fileProblem{Summary: p.Summary, Err: p.Err, Detail: p.Detail + fmt.Sprintf(" The spec does not state the "+
		"limits for a %s (\"not shown\"), so this is a guess: the file is sent, and if the service refuses it the apply "+
		"fails with its answer.", kind.noun)}
}

func describeMode(m fs.FileMode) string {
	if m.IsDir() {
		return "directory"
	}
	return "special file (" + m.Type().String() + ")"
}

func readProblem(path string, err error) *fileProblem {
	return &fileProblem{Summary: "Cannot Read File", Err: err,
		Detail: fmt.Sprintf("Reading %q failed: %v. Check the path and the file's permissions.", path, err)}
}

func contentProblem(path string, kind fileKind, got string) *fileProblem {
	if got == "" {
		got = "not a type the provider recognises"
	}
	p := &fileProblem{Summary: "Unsupported File Type",
		Detail: fmt.Sprintf("The %s %q is %s; the service accepts %s for a %s (recognised by the file's content, not its name).",
			kind.noun, path, got, strings.Join(kind.accepts, ", "), kind.noun)}
	if kind.guessed {
		p = &fileProblem{Summary: "File Type May Be Refused",
			Detail: fmt.Sprintf("The %s %q is %s, not one of the common image types %s (recognised by the file's content).",
				kind.noun, path, got, strings.Join(kind.accepts, ", "))}
		return guessedProblem(kind, p)
	}
	return p
}

// fileUpload streams one local file to the API and hashes what was read, so
// that the caller can prove the bytes sent are the bytes planned.
type fileUpload struct {
	file   *os.File
	body   *hashingReader
	Upload *apiclient.Upload
}

// openUpload checks path again (it may have changed since plan), refuses it
// when its hash is no longer wantSHA256, and returns it ready to stream.
// Close it after the call.
func openUpload(path string, kind fileKind, wantSHA256 string) (*fileUpload, error) {
	info, err := inspectLocalFile(path, kind)
	if err != nil {
		return nil, err
	}
	if wantSHA256 != "" && info.SHA256 != wantSHA256 {
		return nil, changedProblem(path, wantSHA256, info.SHA256)
	}
	f, size, _, err := openRegularFile(path, kind)
	if err != nil {
		return nil, err
	}
	body := &hashingReader{file: f, hasher: sha256.New()}
	return &fileUpload{
		file:   f,
		body:   body,
		Upload: &apiclient.Upload{Name: filepath.Base(path), Body: body, Size: size},
	}, nil
}

// SentSHA256 is the hash of the bytes read since the last rewind: after a
// successful upload, the whole file as sent by the attempt that succeeded.
func (u *fileUpload) SentSHA256() string { return hex.EncodeToString(u.body.hasher.Sum(nil)) }

func (u *fileUpload) Close() error { return u.file.Close() }

// hashingReader reads a file from its start and hashes what it reads. It is
// an io.Seeker so that the API client can rewind a throttled upload and send
// it again; rewinding to the start starts the hash over, so it always covers
// exactly the bytes of the latest attempt. Seeking anywhere else is refused:
// the hash could not follow.
type hashingReader struct {
	file   *os.File
	hasher hash.Hash
	offset int64 // bytes read, and hashed, since the start
}

func (r *hashingReader) Read(p []byte) (int, error) {
	n, err := r.file.Read(p)
	r.hasher.Write(p[:n])
	r.offset += int64(n)
	return n, err
}

func (r *hashingReader) Seek(offset int64, whence int) (int64, error) {
	target := int64(-1)
	switch whence {
	case io.SeekStart:
		target = offset
	case io.SeekCurrent:
		target = r.offset + offset
	}
	switch target {
	case r.offset:
		return r.offset, nil
	case 0:
		if _, err := r.file.Seek(0, io.SeekStart); err != nil {
			return r.offset, err
		}
		r.hasher.Reset()
		r.offset = 0
		return 0, nil
	}
	return r.offset, fmt.Errorf("upload of %q can only be rewound to its start (asked: offset %d, whence %d)", r.file.Name(), offset, whence)
}

func changedProblem(path, planned, now string) *fileProblem {
	return &fileProblem{Summary: "File Changed Since Plan",
		Detail: fmt.Sprintf("The file %q had SHA-256 %s when the plan was made and has %s now. Run terraform plan again "+
			"so that the plan shows the file that will be uploaded.", path, planned, now)}
}

// The file / file_url source attributes, the plan-time hash that makes new
// content on disk a planned change, and the check that the bytes sent are the
// bytes planned.

// httpURLValidators warn about a file_url that is not an absolute http(s)
// URL. The spec types fileUrl as a "string URL" and does not say which
// schemes the service fetches: a guess, so a warning.
var httpURLValidators = []validator.String{urlWarning{}}

type urlWarning struct{}

var _ validator.String = urlWarning{}

func (urlWarning) Description(context.Context) string {
	return "a value that is not an absolute http:// or https:// URL gets a warning"
}

func (v urlWarning) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (urlWarning) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	u, err := url.Parse(req.ConfigValue.ValueString())
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return
	}
	resp.Diagnostics.AddAttributeWarning(req.Path, "URL May Be Refused", fmt.Sprintf(
		"%q is not an absolute http:// or https:// URL. The spec only says the service fetches a \"string URL\"; "+
			"which URLs it can fetch is not stated, so this is a guess and the plan goes ahead. If the service cannot "+
			"fetch it, the apply fails with its answer.", req.ConfigValue.ValueString()))
}

// fileSourceValidators apply the spec's upload parameters (collection.setLogo,
// flipbook.add): "`file` ... or `fileUrl` ...: at least one must be sent,
// otherwise code 30; when both are sent only `file` is used". Both set is
// allowed, with a warning that file_url is not used.
func fileSourceValidators() []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.AtLeastOneOf(path.MatchRoot("file"), path.MatchRoot("file_url")),
		bothSourcesWarning{},
	}
}

type bothSourcesWarning struct{}

var _ resource.ConfigValidator = bothSourcesWarning{}

func (bothSourcesWarning) Description(context.Context) string {
	return "when both file and file_url are set, file_url is not used"
}

func (v bothSourcesWarning) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (bothSourcesWarning) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var file, fileURL types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file"), &file)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file_url"), &fileURL)...)
	if file.IsNull() || fileURL.IsNull() {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("file_url"), "File URL Not Used",
		"Both file and file_url are set. The spec says \"when both are sent only `file` is used\", so file_url has no "+
			"effect. Remove one of them.")
}

func fileSHA256Attribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "SHA-256 of `file`, computed at plan time, so that a changed file on disk is a planned " +
			"change. Null when `file_url` is used.",
		Computed: true,
	}
}

// fileSource names the attribute the content comes from and its value, for
// diagnostics.
func fileSource(file, fileURL types.String) (path.Path, string) {
	if !file.IsNull() {
		return path.Root("file"), file.ValueString()
	}
	return path.Root("file_url"), fileURL.ValueString()
}

// planFileSHA256 checks the configured local file and returns its hash for
// the plan: unknown when the path is, null when no file is configured.
func planFileSHA256(file types.String, kind fileKind, diags *diag.Diagnostics) types.String {
	switch {
	case file.IsUnknown():
		return types.StringUnknown()
	case file.IsNull():
		return types.StringNull()
	}
	info, err := inspectLocalFile(file.ValueString(), kind)
	if err != nil {
		addFileProblem(diags, path.Root("file"), err)
		return types.StringUnknown()
	}
	for _, d := range info.Doubts {
		diags.AddAttributeWarning(path.Root("file"), d.Summary, d.Detail)
	}
	return types.StringValue(info.SHA256)
}

// openPlannedUpload opens the configured file for upload, refusing it when
// it no longer has the planned hash; nil when that failed (reported on file).
func openPlannedUpload(file, plannedSHA256 types.String, kind fileKind, diags *diag.Diagnostics) *fileUpload {
	up, err := openUpload(file.ValueString(), kind, plannedSHA256.ValueString())
	if err != nil {
		addFileProblem(diags, path.Root("file"), err)
		return nil
	}
	return up
}

// recordSentSHA256 puts into sha the hash of the bytes up sent. A hash
// unknown at plan time (a path known only at apply) is simply filled in; a
// different planned one means the file changed while it was being sent, an
// error on file whose detail ends with consequence: what the service now
// holds, and what to do.
func recordSentSHA256(up *fileUpload, sha *types.String, consequence string, diags *diag.Diagnostics) {
	planned, sent := *sha, up.SentSHA256()
	*sha = types.StringValue(sent)
	if planned.IsUnknown() || planned.ValueString() == sent {
		return
	}
	diags.AddAttributeError(path.Root("file"), "File Changed During Upload", fmt.Sprintf(
		"The file %q changed while it was being uploaded: the service received content with SHA-256 %s, not the "+
			"planned %s. %s", up.file.Name(), sent, planned.ValueString(), consequence))
}

func addFileProblem(diags *diag.Diagnostics, at path.Path, err error) {
	var p *fileProblem
	if errors.As(err, &p) {
		diags.AddAttributeError(at, p.Summary, p.Detail)
		return
	}
	diags.AddAttributeError(at, "Cannot Use File", err.Error())
}
