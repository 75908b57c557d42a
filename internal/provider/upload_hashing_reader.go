package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// This file is the upload body: it streams the local file and hashes what it
// read, and rewinds when the client retries.

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
