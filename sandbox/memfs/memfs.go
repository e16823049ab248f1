// Package memfs is an in-memory filesystem for wazero (experimental/sys.FS):
// the sandbox guest's private /tmp. It lives in the host process's memory
// and disappears with the instance, so a killed process leaves nothing on
// disk, and it is bounded in bytes like a tmpfs.
//
// It holds directories, regular files and symlinks. Symlink targets that
// are absolute or climb out of the filesystem are refused when the link
// is made, as in package rootfs, so every path resolves inside it.
package memfs

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// FS is one in-memory tree. Safe for concurrent use.
type FS struct {
	experimentalsys.UnimplementedFS
	mu      sync.Mutex
	root    *node
	limit   int64 // bytes of file contents allowed
	used    int64
	full    bool // a write was refused for want of room
	nextIno uint64
	maxOpen int
	open    int
}

type node struct {
	mode     fs.FileMode // type bits and permissions
	data     []byte
	target   string
	children map[string]*node
	ino      uint64
	nlink    uint64
	atim     int64
	mtim     int64
	ctim     int64
}

// maxHops bounds symlinks followed in one lookup.
const maxHops = 40

// New returns an empty FS of at most limit bytes of file contents, with
// at most maxOpen files open at once (0: 256).
func New(limit int64, maxOpen int) *FS {
	if maxOpen <= 0 {
		maxOpen = 256
	}
	f := &FS{limit: limit, maxOpen: maxOpen}
	f.root = f.newNode(fs.ModeDir | 0o1777)
	return f
}

func now() int64 { return time.Now().UnixNano() }

func (f *FS) newNode(mode fs.FileMode) *node {
	f.nextIno++
	t := now()
	n := &node{mode: mode, ino: f.nextIno, nlink: 1, atim: t, mtim: t, ctim: t}
	if mode.IsDir() {
		n.children = map[string]*node{}
		n.nlink = 2
	}
	return n
}

// Reset empties the FS, as if it were new, so an instance that serves
// another command gives it an empty /tmp. The root stays the same node
// (the guest holds it open as its preopened directory); a file still
// open keeps its node, no longer reachable by any path, so callers reuse
// an FS only when OpenFiles is back to what it was.
func (f *FS) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.root
	clear(r.children)
	r.mode, r.nlink = fs.ModeDir|0o1777, 2
	r.atim, r.mtim, r.ctim = now(), now(), now()
	f.used, f.full = 0, false
}

// OpenFiles reports the files open now (the guest's preopened /tmp
// counts as one).
func (f *FS) OpenFiles() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open
}

// Full reports whether a write was refused because the FS was full.
func (f *FS) Full() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.full
}

// Limit is the FS's size in bytes.
func (f *FS) Limit() int64 { return f.limit }

// Used reports the bytes of file contents held.
func (f *FS) Used() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.used
}

// split cleans p into components; one climbing out is refused.
func split(p string) ([]string, experimentalsys.Errno) {
	p = path.Clean(strings.TrimLeft(p, "/"))
	switch {
	case p == "..", strings.HasPrefix(p, "../"):
		return nil, experimentalsys.EPERM
	case p == ".":
		return nil, 0
	}
	return strings.Split(p, "/"), 0
}

// lookup resolves comps to the parent directory and the last name
// (followLast: a final symlink is followed too, returning its target's
// parent and name). parent is nil for the root itself.
func (f *FS) lookup(comps []string, followLast bool) (parent *node, name string, e experimentalsys.Errno) {
	hops := 0
	stack := []*node{f.root}
	rest := append([]string(nil), comps...)
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		cur := stack[len(stack)-1]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) == 1 {
				return nil, "", experimentalsys.EPERM
			}
			stack = stack[:len(stack)-1]
			continue
		}
		child, ok := cur.children[c]
		if len(rest) == 0 && (!ok || !followLast || child.mode&fs.ModeSymlink == 0) {
			return cur, c, 0
		}
		switch {
		case !ok:
			return nil, "", experimentalsys.ENOENT
		case child.mode&fs.ModeSymlink != 0:
			if hops++; hops > maxHops {
				return nil, "", experimentalsys.ELOOP
			}
			// The target is relative to the link's directory, cur.
			rest = append(strings.Split(child.target, "/"), rest...)
		case !child.mode.IsDir():
			return nil, "", experimentalsys.ENOTDIR
		default:
			stack = append(stack, child)
		}
	}
	// The path was the root, or ended in "." or "..".
	if len(stack) == 1 {
		return nil, "", 0
	}
	top, parent := stack[len(stack)-1], stack[len(stack)-2]
	for n, c := range parent.children {
		if c == top {
			return parent, n, 0
		}
	}
	return nil, "", experimentalsys.ENOENT
}

// resolve returns the node p names (following a final symlink when
// follow is set).
func (f *FS) resolve(p string, follow bool) (*node, experimentalsys.Errno) {
	comps, e := split(p)
	if e != 0 {
		return nil, e
	}
	parent, name, e := f.lookup(comps, follow)
	if e != 0 {
		return nil, e
	}
	if parent == nil {
		return f.root, 0
	}
	n, ok := parent.children[name]
	if !ok {
		return nil, experimentalsys.ENOENT
	}
	return n, 0
}

func stat(n *node) sys.Stat_t {
	size := int64(len(n.data))
	if n.mode&fs.ModeSymlink != 0 {
		size = int64(len(n.target))
	}
	return sys.Stat_t{Ino: n.ino, Mode: n.mode, Nlink: n.nlink, Size: size, Atim: n.atim, Mtim: n.mtim, Ctim: n.ctim}
}

// Stat implements experimentalsys.FS.
func (f *FS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(p, true)
	if e != 0 {
		return sys.Stat_t{}, e
	}
	return stat(n), 0
}

// Lstat implements experimentalsys.FS.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(p, false)
	if e != 0 {
		return sys.Stat_t{}, e
	}
	return stat(n), 0
}

// Readlink implements experimentalsys.FS.
func (f *FS) Readlink(p string) (string, experimentalsys.Errno) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(p, false)
	if e != 0 {
		return "", e
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", experimentalsys.EINVAL
	}
	return n.target, 0
}

// parentOf resolves the directory that holds p's last component.
func (f *FS) parentOf(p string) (*node, string, experimentalsys.Errno) {
	comps, e := split(p)
	if e != 0 {
		return nil, "", e
	}
	parent, name, e := f.lookup(comps, false)
	if e != 0 {
		return nil, "", e
	}
	if parent == nil {
		return nil, "", experimentalsys.EINVAL // the root itself
	}
	return parent, name, 0
}

// Mkdir implements experimentalsys.FS.
func (f *FS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, name, e := f.parentOf(p)
	if e != 0 {
		if e == experimentalsys.EINVAL {
			return experimentalsys.EEXIST
		}
		return e
	}
	if _, ok := parent.children[name]; ok {
		return experimentalsys.EEXIST
	}
	parent.children[name] = f.newNode(fs.ModeDir | perm.Perm())
	parent.nlink++
	parent.mtim = now()
	return 0
}

// Rmdir implements experimentalsys.FS.
func (f *FS) Rmdir(p string) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, name, e := f.parentOf(p)
	if e != 0 {
		return e
	}
	n, ok := parent.children[name]
	switch {
	case !ok:
		return experimentalsys.ENOENT
	case !n.mode.IsDir():
		return experimentalsys.ENOTDIR
	case len(n.children) > 0:
		return experimentalsys.ENOTEMPTY
	}
	delete(parent.children, name)
	parent.nlink--
	parent.mtim = now()
	return 0
}

// Unlink implements experimentalsys.FS.
func (f *FS) Unlink(p string) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, name, e := f.parentOf(p)
	if e != 0 {
		return e
	}
	n, ok := parent.children[name]
	switch {
	case !ok:
		return experimentalsys.ENOENT
	case n.mode.IsDir():
		return experimentalsys.EISDIR
	}
	delete(parent.children, name)
	f.dropLink(n)
	parent.mtim = now()
	return 0
}

// dropLink gives a file's bytes back when its last name goes.
func (f *FS) dropLink(n *node) {
	n.nlink--
	if n.nlink == 0 {
		f.used -= int64(len(n.data))
	}
}

// Rename implements experimentalsys.FS.
func (f *FS) Rename(from, to string) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	fp, fname, e := f.parentOf(from)
	if e != 0 {
		return e
	}
	tp, tname, e := f.parentOf(to)
	if e != 0 {
		return e
	}
	n, ok := fp.children[fname]
	if !ok {
		return experimentalsys.ENOENT
	}
	if fp == tp && fname == tname {
		return 0
	}
	if n.mode.IsDir() && (n == tp || isAncestor(n, tp)) {
		return experimentalsys.EINVAL
	}
	if old, ok := tp.children[tname]; ok {
		switch {
		case old.mode.IsDir() && !n.mode.IsDir():
			return experimentalsys.EISDIR
		case !old.mode.IsDir() && n.mode.IsDir():
			return experimentalsys.ENOTDIR
		case old.mode.IsDir() && len(old.children) > 0:
			return experimentalsys.ENOTEMPTY
		}
		if old.mode.IsDir() {
			tp.nlink--
		} else {
			f.dropLink(old)
		}
	}
	delete(fp.children, fname)
	tp.children[tname] = n
	if n.mode.IsDir() {
		fp.nlink--
		tp.nlink++
	}
	t := now()
	fp.mtim, tp.mtim, n.ctim = t, t, t
	return 0
}

func isAncestor(dir, n *node) bool {
	for _, c := range dir.children {
		if c == n || c.mode.IsDir() && isAncestor(c, n) {
			return true
		}
	}
	return false
}

// Link implements experimentalsys.FS.
func (f *FS) Link(oldPath, newPath string) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(oldPath, false)
	if e != 0 {
		return e
	}
	if n.mode.IsDir() {
		return experimentalsys.EPERM
	}
	parent, name, e := f.parentOf(newPath)
	if e != 0 {
		return e
	}
	if _, ok := parent.children[name]; ok {
		return experimentalsys.EEXIST
	}
	parent.children[name] = n
	n.nlink++
	return 0
}

// Symlink implements experimentalsys.FS. Absolute targets and targets
// that climb out are refused (EPERM).
func (f *FS) Symlink(target, linkName string) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	parent, name, e := f.parentOf(linkName)
	if e != 0 {
		return e
	}
	comps, _ := split(linkName)
	if target == "" || path.IsAbs(target) || escapes(len(comps)-1, target) {
		return experimentalsys.EPERM
	}
	if _, ok := parent.children[name]; ok {
		return experimentalsys.EEXIST
	}
	n := f.newNode(fs.ModeSymlink | 0o777)
	n.target = target
	parent.children[name] = n
	return 0
}

// escapes reports whether target, read from a directory depth levels
// below the root, climbs above the root.
func escapes(depth int, target string) bool {
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// Chmod implements experimentalsys.FS.
func (f *FS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(p, true)
	if e != 0 {
		return e
	}
	n.mode = n.mode&fs.ModeType | perm.Perm()
	n.ctim = now()
	return 0
}

// Utimens implements experimentalsys.FS.
func (f *FS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.resolve(p, true)
	if e != 0 {
		return e
	}
	setTimes(n, atim, mtim)
	return 0
}

func setTimes(n *node, atim, mtim int64) {
	if atim != experimentalsys.UTIME_OMIT {
		n.atim = atim
	}
	if mtim != experimentalsys.UTIME_OMIT {
		n.mtim = mtim
	}
	n.ctim = now()
}

// names lists a directory's entries in name order.
func names(n *node) []string {
	out := make([]string, 0, len(n.children))
	for name := range n.children {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
