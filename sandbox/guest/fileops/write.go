package fileops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// checkExpect enforces ExpectSHA256 / ExpectAbsent against the file's
// current content (nil when absent).
func checkExpect(req *proto.FileRequest, current []byte, exists bool) *proto.FileResponse {
	if req.ExpectAbsent && exists {
		r := failf(proto.ErrStale, "%s already exists; read it first or write without expecting it to be absent", req.Path)
		return &r
	}
	if req.ExpectSHA256 == "" {
		return nil
	}
	if !exists {
		r := failf(proto.ErrStale, "%s was deleted since it was read", req.Path)
		return &r
	}
	if !strings.EqualFold(hashHex(current), req.ExpectSHA256) {
		r := failf(proto.ErrStale, "%s changed since it was read; read it again before changing it", req.Path)
		return &r
	}
	return nil
}

// Write replaces the whole content of req.Path, creating parent
// directories, after checking ExpectSHA256/ExpectAbsent.
func Write(req *proto.FileRequest) proto.FileResponse {
	current, err := os.ReadFile(req.Path)
	exists := err == nil
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
	default:
		if fi, serr := os.Stat(req.Path); serr == nil && fi.IsDir() {
			return failf(proto.ErrIsDir, "%s is a directory", req.Path)
		}
		return fromErr(req.Path, err)
	}
	if fail := checkExpect(req, current, exists); fail != nil {
		return *fail
	}
	if err := os.MkdirAll(filepath.Dir(req.Path), 0o755); err != nil {
		return fromErr(filepath.Dir(req.Path), err)
	}
	return store(req.Path, []byte(req.Content), proto.FileResponse{})
}

// store writes data to p and fills resp.Stat.
func store(p string, data []byte, resp proto.FileResponse) proto.FileResponse {
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fromErr(p, err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fromErr(p, err)
	}
	resp.Stat, _ = statOf(p, fi, data)
	return resp
}

// Edit replaces OldString by NewString in req.Path: exactly one match is
// required unless ReplaceAll (ErrNotUnique carries the count; ErrNoMatch
// when absent).
func Edit(req *proto.FileRequest) proto.FileResponse {
	if req.OldString == "" {
		return failf(proto.ErrInvalid, "edit needs a non-empty oldString; use write to create or replace a whole file")
	}
	if req.OldString == req.NewString {
		return failf(proto.ErrInvalid, "oldString and newString are the same; nothing to change")
	}
	data, _, fail := loadRegular(req.Path)
	if fail != nil {
		return *fail
	}
	if fail := checkExpect(req, data, true); fail != nil {
		return *fail
	}
	text := string(data)
	n := strings.Count(text, req.OldString)
	switch {
	case n == 0:
		return failf(proto.ErrNoMatch, "oldString was not found in %s; read the file and copy the exact text, including whitespace", req.Path)
	case n > 1 && !req.ReplaceAll:
		r := failf(proto.ErrNotUnique, "oldString matches %d places in %s; add surrounding lines to make it unique or set replaceAll", n, req.Path)
		r.Error.Count = n
		return r
	}
	text = strings.ReplaceAll(text, req.OldString, req.NewString)
	return store(req.Path, []byte(text), proto.FileResponse{Replaced: n})
}
