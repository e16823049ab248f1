package hostfileops

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// checkExpect enforces ExpectSHA256 / ExpectAbsent against the file's
// current content (nil when absent), with the guest's messages.
func checkExpect(req *proto.FileRequest, p string, current []byte, exists bool) *proto.FileResponse {
	if req.ExpectAbsent && exists {
		r := failf(proto.ErrStale, "%s already exists; read it first or write without expecting it to be absent", p)
		return &r
	}
	if req.ExpectSHA256 == "" {
		return nil
	}
	if !exists {
		r := failf(proto.ErrStale, "%s was deleted since it was read", p)
		return &r
	}
	if !strings.EqualFold(hashHex(current), req.ExpectSHA256) {
		r := failf(proto.ErrStale, "%s changed since it was read; read it again before changing it", p)
		return &r
	}
	return nil
}

// write replaces the whole content of f, creating parent directories,
// after checking ExpectSHA256/ExpectAbsent (fileops.Write).
func (f file) write(req *proto.FileRequest) proto.FileResponse {
	var current []byte
	exists := false
	st, e := f.fs.Stat(f.rel)
	switch {
	case e == 0 && st.Mode.IsDir():
		return failf(proto.ErrIsDir, "%s is a directory", f.path)
	case e == 0:
		if current, e = f.readAll(st.Size); e != 0 {
			return fromErrno(f.path, e)
		}
		exists = true
	case !errors.Is(e, fs.ErrNotExist):
		return fromErrno(f.path, e)
	}
	if fail := checkExpect(req, f.path, current, exists); fail != nil {
		return *fail
	}
	if f.rel != "." {
		if e := mkdirAll(f.fs, path.Dir(f.rel)); e != 0 {
			return fromErrno(path.Dir(f.path), e)
		}
	}
	return f.store([]byte(req.Content), proto.FileResponse{})
}

// store writes data to f and fills resp.Stat.
func (f file) store(data []byte, resp proto.FileResponse) proto.FileResponse {
	if e := f.writeAll(data); e != 0 {
		return fromErrno(f.path, e)
	}
	st, e := f.fs.Stat(f.rel)
	if e != 0 {
		return fromErrno(f.path, e)
	}
	resp.Stat = f.describe(st, data)
	return resp
}

// edit replaces OldString by NewString in f: exactly one match unless
// ReplaceAll (fileops.Edit).
func (f file) edit(req *proto.FileRequest) proto.FileResponse {
	if req.OldString == "" {
		return failf(proto.ErrInvalid, "edit needs a non-empty oldString; use write to create or replace a whole file")
	}
	if req.OldString == req.NewString {
		return failf(proto.ErrInvalid, "oldString and newString are the same; nothing to change")
	}
	data, _, fail := f.load()
	if fail != nil {
		return *fail
	}
	if fail := checkExpect(req, f.path, data, true); fail != nil {
		return *fail
	}
	text := string(data)
	n := strings.Count(text, req.OldString)
	switch {
	case n == 0:
		return failf(proto.ErrNoMatch, "oldString was not found in %s; read the file and copy the exact text, including whitespace", f.path)
	case n > 1 && !req.ReplaceAll:
		r := failf(proto.ErrNotUnique, "oldString matches %d places in %s; add surrounding lines to make it unique or set replaceAll", n, f.path)
		r.Error.Count = n
		return r
	}
	text = strings.ReplaceAll(text, req.OldString, req.NewString)
	return f.store([]byte(text), proto.FileResponse{Replaced: n})
}
