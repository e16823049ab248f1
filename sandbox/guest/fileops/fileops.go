// Package fileops performs the sandbox file operations of the proto
// contract (read, write, edit, stat) inside the guest, so every file
// access of the agent goes through the same confined mount as the shell.
// (glob and grep run on the host over the same confining filesystems:
// package sandbox/search.) Each operation takes a FileRequest and answers a FileResponse; a
// failed operation is a response with Error set, never a Go error.
package fileops

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Defaults and limits from the proto contract.
const (
	DefaultLimit    = 2000
	DefaultMaxBytes = 50_000
	MaxLineChars    = 2000
	binarySniff     = 8 << 10
)

// LineCutMarker ends a line that read shortened to MaxLineChars.
const LineCutMarker = "… [line truncated]"

// Do dispatches op to its operation. An unknown op is an ErrInvalid
// response.
func Do(op string, req *proto.FileRequest) proto.FileResponse {
	if req == nil {
		return failf(proto.ErrInvalid, "the %s operation needs a file request", op)
	}
	switch op {
	case proto.OpRead:
		return Read(req)
	case proto.OpWrite:
		return Write(req)
	case proto.OpEdit:
		return Edit(req)
	case proto.OpStat:
		return Stat(req)
	}
	return failf(proto.ErrInvalid, "unknown file operation %q", op)
}

func failf(code, format string, a ...any) proto.FileResponse {
	return proto.FileResponse{Error: &proto.FileError{Code: code, Message: fmt.Sprintf(format, a...)}}
}

// fromErr maps an OS error to a response with the matching error code.
func fromErr(p string, err error) proto.FileResponse {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return failf(proto.ErrNotFound, "%s does not exist", p)
	case errors.Is(err, fs.ErrPermission):
		return failf(proto.ErrPermission, "permission denied for %s", p)
	case errors.Is(err, syscall.EROFS):
		return failf(proto.ErrPermission, "%s is read-only here", p)
	case errors.Is(err, fs.ErrExist):
		return failf(proto.ErrExists, "%s already exists", p)
	}
	return failf(proto.ErrIO, "%s: %v", p, err)
}

// statOf describes p; for a regular file it includes the SHA-256 of data
// when data is non-nil, else of the file's current content.
func statOf(p string, fi fs.FileInfo, data []byte) (*proto.Stat, error) {
	st := &proto.Stat{Path: p, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), IsDir: fi.IsDir()}
	if !fi.Mode().IsRegular() {
		return st, nil
	}
	if data != nil {
		st.SHA256 = hashHex(data)
		return st, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	st.SHA256 = hex.EncodeToString(h.Sum(nil))
	return st, nil
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Stat describes req.Path (size, mtime, and SHA-256 of a regular file).
func Stat(req *proto.FileRequest) proto.FileResponse {
	fi, err := os.Stat(req.Path)
	if err != nil {
		return fromErr(req.Path, err)
	}
	st, err := statOf(req.Path, fi, nil)
	if err != nil {
		return fromErr(req.Path, err)
	}
	return proto.FileResponse{Stat: st}
}

// loadRegular reads a whole regular file, refusing directories and other
// non-regular files.
func loadRegular(p string) ([]byte, fs.FileInfo, *proto.FileResponse) {
	fi, err := os.Stat(p)
	if err != nil {
		r := fromErr(p, err)
		return nil, nil, &r
	}
	if fi.IsDir() {
		r := failf(proto.ErrIsDir, "%s is a directory; list it with glob or ls instead", p)
		return nil, nil, &r
	}
	if !fi.Mode().IsRegular() {
		r := failf(proto.ErrNotRegular, "%s is not a regular file", p)
		return nil, nil, &r
	}
	data, err := os.ReadFile(p)
	if err != nil {
		r := fromErr(p, err)
		return nil, nil, &r
	}
	return data, fi, nil
}
