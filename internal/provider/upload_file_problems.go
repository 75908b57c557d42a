package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// This file is the inspection of a local file to upload and the problems it
// can have, each worded for a diagnostic on the file attribute.

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

func changedProblem(path, planned, now string) *fileProblem {
	return &fileProblem{Summary: "File Changed Since Plan",
		Detail: fmt.Sprintf("The file %q had SHA-256 %s when the plan was made and has %s now. Run terraform plan again "+
			"so that the plan shows the file that will be uploaded.", path, planned, now)}
}

func addFileProblem(diags *diag.Diagnostics, at path.Path, err error) {
	var p *fileProblem
	if errors.As(err, &p) {
		diags.AddAttributeError(at, p.Summary, p.Detail)
		return
	}
	diags.AddAttributeError(at, "Cannot Use File", err.Error())
}
