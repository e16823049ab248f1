// Package hostfileops performs the sandbox file operations of the proto
// contract (read, write, edit, stat) natively on the host, over the same
// confining filesystems a guest command's mounts are made of (package
// rootfs for the workspace and the read-only directories, package memfs
// for /tmp), with the guest's answers (package sandbox/guest/fileops):
// the same responses, error codes and messages. Every path is resolved by
// those filesystems one directory at a time and never outside their root,
// so symlinks, protected paths, read-only modes and the write quota hold
// exactly as for a command; what changes is only who runs the code —
// compiled Go instead of a guest call (about 0.6 ms each, most of it the
// call, not the file).
//
// A failed operation is a response with Error set, never a Go error.
package hostfileops

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/ptc-dev/ptc/sandbox/guest/fileops"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/search"
)

// Do dispatches op over mounts. An unknown op is an ErrInvalid response.
func Do(mounts []search.Mount, op string, req *proto.FileRequest) proto.FileResponse {
	if req == nil {
		return failf(proto.ErrInvalid, "the %s operation needs a file request", op)
	}
	m, rel, ok := search.Resolve(mounts, req.Path)
	if !ok {
		return failf(proto.ErrNotFound, "%s %s", req.Path, search.OutsideText)
	}
	f := file{fs: m.FS, rel: rel, path: req.Path}
	switch op {
	case proto.OpRead:
		return f.read(req)
	case proto.OpWrite:
		return f.write(req)
	case proto.OpEdit:
		return f.edit(req)
	case proto.OpStat:
		return f.stat()
	}
	return failf(proto.ErrInvalid, "unknown file operation %q", op)
}

// file is one request's path: its filesystem, the path relative to it and
// the absolute path the messages name.
type file struct {
	fs   experimentalsys.FS
	rel  string
	path string
}

func failf(code, format string, a ...any) proto.FileResponse {
	return proto.FileResponse{Error: &proto.FileError{Code: code, Message: fmt.Sprintf(format, a...)}}
}

// fromErrno maps a filesystem error on p to a response with the code the
// guest gives for the same error.
func fromErrno(p string, e experimentalsys.Errno) proto.FileResponse {
	switch {
	case errors.Is(e, fs.ErrNotExist):
		return failf(proto.ErrNotFound, "%s does not exist", p)
	case e == experimentalsys.EROFS:
		return failf(proto.ErrPermission, "%s is read-only here", p)
	case errors.Is(e, fs.ErrPermission), e == experimentalsys.EPERM:
		return failf(proto.ErrPermission, "permission denied for %s", p)
	case errors.Is(e, fs.ErrExist):
		return failf(proto.ErrExists, "%s already exists", p)
	}
	return failf(proto.ErrIO, "%s: %v", p, e)
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// describe is the proto.Stat of f from st, with the SHA-256 of data for a
// regular file.
func (f file) describe(st statT, data []byte) *proto.Stat {
	s := &proto.Stat{Path: f.path, Size: st.Size, ModTime: st.Mtim, IsDir: st.Mode.IsDir()}
	if st.Mode.IsRegular() {
		s.SHA256 = hashHex(data)
	}
	return s
}

// load reads the whole regular file f, refusing directories and other
// non-regular files as the guest does.
func (f file) load() ([]byte, statT, *proto.FileResponse) {
	st, e := f.fs.Stat(f.rel)
	if e != 0 {
		r := fromErrno(f.path, e)
		return nil, st, &r
	}
	if st.Mode.IsDir() {
		r := failf(proto.ErrIsDir, "%s is a directory; list it with glob or ls instead", f.path)
		return nil, st, &r
	}
	if !st.Mode.IsRegular() {
		r := failf(proto.ErrNotRegular, "%s is not a regular file", f.path)
		return nil, st, &r
	}
	data, e := f.readAll(st.Size)
	if e != 0 {
		r := fromErrno(f.path, e)
		return nil, st, &r
	}
	return data, st, nil
}

// readAll reads f's content, sized by the stat but reading to the end.
func (f file) readAll(size int64) ([]byte, experimentalsys.Errno) {
	h, e := f.fs.OpenFile(f.rel, experimentalsys.O_RDONLY, 0)
	if e != 0 {
		return nil, e
	}
	defer h.Close()
	buf := make([]byte, 0, max(size, 0)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, e := h.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if e != 0 {
			return nil, e
		}
		if n == 0 {
			return buf, 0
		}
	}
}

func (f file) stat() proto.FileResponse {
	st, e := f.fs.Stat(f.rel)
	if e != 0 {
		return fromErrno(f.path, e)
	}
	if !st.Mode.IsRegular() {
		return proto.FileResponse{Stat: f.describe(st, nil)}
	}
	data, e := f.readAll(st.Size)
	if e != 0 {
		return fromErrno(f.path, e)
	}
	return proto.FileResponse{Stat: f.describe(st, data)}
}

// splitLines splits text into lines without their terminators (a final
// newline does not start another line), as the guest's read does.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// read answers as fileops.Read: numbered lines from Offset, at most Limit
// lines and MaxBytes of text, each line cut at fileops.MaxLineChars.
func (f file) read(req *proto.FileRequest) proto.FileResponse {
	data, st, fail := f.load()
	if fail != nil {
		return *fail
	}
	if fileops.IsBinary(data) {
		return failf(proto.ErrBinary, "%s is a binary file and cannot be read as text", f.path)
	}
	offset, limit, maxBytes := req.Offset, req.Limit, req.MaxBytes
	if offset <= 0 {
		offset = 1
	}
	if limit <= 0 {
		limit = fileops.DefaultLimit
	}
	if maxBytes <= 0 {
		maxBytes = fileops.DefaultMaxBytes
	}
	all := splitLines(string(data))
	resp := proto.FileResponse{Stat: f.describe(st, data), TotalLine: len(all)}
	if offset > len(all) && len(all) > 0 {
		return failf(proto.ErrInvalid, "offset %d is past the end of %s (%d lines)", offset, f.path, len(all))
	}
	used := 0
	for i := offset - 1; i < len(all); i++ {
		if len(resp.Lines) == limit {
			resp.Truncated = true
			break
		}
		text := fileops.CutLine(all[i])
		if used+len(text)+1 > maxBytes && len(resp.Lines) > 0 {
			resp.Truncated = true
			break
		}
		used += len(text) + 1
		resp.Lines = append(resp.Lines, proto.Line{N: i + 1, Text: text})
	}
	return resp
}

// statT is wazero's stat type, named once.
type statT = sys.Stat_t

// writeAll writes data to f, created 0644 when new, truncated otherwise.
func (f file) writeAll(data []byte) experimentalsys.Errno {
	h, e := f.fs.OpenFile(f.rel, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, 0o644)
	if e != 0 {
		return e
	}
	for len(data) > 0 {
		n, e := h.Write(data)
		if e != 0 {
			h.Close()
			return e
		}
		if n == 0 {
			h.Close()
			return experimentalsys.EIO
		}
		data = data[n:]
	}
	return h.Close()
}

// mkdirAll makes dir (relative to the mount) and its parents, 0755, as
// os.MkdirAll does in the guest.
func mkdirAll(fsys experimentalsys.FS, dir string) experimentalsys.Errno {
	if dir == "." || dir == "" || dir == "/" {
		return 0
	}
	if st, e := fsys.Stat(dir); e == 0 {
		if st.Mode.IsDir() {
			return 0
		}
		return experimentalsys.ENOTDIR
	}
	if e := mkdirAll(fsys, path.Dir(dir)); e != 0 {
		return e
	}
	if e := fsys.Mkdir(dir, 0o755); e != 0 {
		if st, serr := fsys.Stat(dir); serr == 0 && st.Mode.IsDir() {
			return 0
		}
		return e
	}
	return 0
}
