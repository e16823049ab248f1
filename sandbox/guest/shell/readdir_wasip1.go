//go:build wasip1

package shell

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
)

// readDir is os.ReadDir for the walks of find and grep -r: the entries of
// directory p sorted by name, from fd_readdir directly. On wasip1 the os
// package's reader parses each entry through half a dozen helper calls
// and allocates it separately, which in the guest costs about as much as
// everything else find does with the entry.
func readDir(p string) ([]fs.DirEntry, error) {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var raw []rawDirEntry
	buf := make([]byte, 8<<10)
	var cookie uint64
	for {
		n, err := syscall.ReadDir(fd, buf, cookie)
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: p, Err: err}
		}
		if n <= 0 {
			break
		}
		var got int
		raw, cookie, got = appendDirents(raw, buf[:n], p, cookie)
		if got == 0 && n == len(buf) {
			buf = make([]byte, 2*len(buf)) // one entry larger than the buffer
			continue
		}
		if n < len(buf) {
			break // the directory's end: a short read
		}
	}
	slices.SortFunc(raw, func(a, b rawDirEntry) int { return strings.Compare(a.name, b.name) })
	entries := make([]fs.DirEntry, len(raw))
	for i := range raw {
		entries[i] = &raw[i]
	}
	return entries, nil
}

// appendDirents parses the WASI dirents in b (24-byte header: next
// cookie, inode, name length, type; then the name), skipping . and ..; a
// trailing entry cut off by the buffer's end is left for the next read,
// which starts at the returned cookie.
func appendDirents(raw []rawDirEntry, b []byte, dir string, cookie uint64) ([]rawDirEntry, uint64, int) {
	got := 0
	for len(b) >= 24 {
		next := binary.LittleEndian.Uint64(b)
		namlen := uint64(binary.LittleEndian.Uint32(b[16:]))
		if 24+namlen > uint64(len(b)) {
			break
		}
		name := string(b[24 : 24+namlen])
		typ := b[20]
		b = b[24+namlen:]
		cookie = next
		got++
		if name == "." || name == ".." {
			continue
		}
		raw = append(raw, rawDirEntry{name: name, dir: dir, typ: direntMode(typ)})
	}
	return raw, cookie, got
}

// direntMode is the fs.FileMode type bits of a WASI filetype;
// unknownType when the entry does not say.
func direntMode(t byte) fs.FileMode {
	switch t {
	case 3: // directory
		return fs.ModeDir
	case 4: // regular_file
		return 0
	case 7: // symbolic_link
		return fs.ModeSymlink
	case 1: // block_device
		return fs.ModeDevice
	case 2: // character_device
		return fs.ModeDevice | fs.ModeCharDevice
	case 5, 6: // socket_dgram, socket_stream
		return fs.ModeSocket
	}
	return unknownType
}

// unknownType marks an entry whose type fd_readdir did not give; Type
// asks Lstat then.
const unknownType = fs.ModeIrregular | fs.ModeTemporary

// rawDirEntry is one entry of readDir.
type rawDirEntry struct {
	name string
	dir  string
	typ  fs.FileMode
}

func (e *rawDirEntry) Name() string { return e.name }
func (e *rawDirEntry) IsDir() bool  { return e.Type().IsDir() }

func (e *rawDirEntry) Type() fs.FileMode {
	if e.typ == unknownType {
		if fi, err := os.Lstat(path.Join(e.dir, e.name)); err == nil {
			e.typ = fi.Mode().Type()
		} else {
			e.typ = fs.ModeIrregular
		}
	}
	return e.typ
}

func (e *rawDirEntry) Info() (fs.FileInfo, error) {
	fi, err := os.Lstat(path.Join(e.dir, e.name))
	if err != nil {
		return nil, err
	}
	return fi, nil
}

func (e *rawDirEntry) String() string { return fs.FormatDirEntry(e) }
