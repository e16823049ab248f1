package rootfs

import (
	"path"
	"strings"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"golang.org/x/sys/unix"
)

// A path is resolved the way the kernel would resolve it, but one step at
// a time under our control, so that what is checked is what is operated
// on (no check-then-open):
//
//   - every directory is opened relative to the previous one's descriptor
//     (openat with O_NOFOLLOW), starting at the root's descriptor;
//   - a symlink on the way is read (readlinkat) and its target spliced in
//     front of the remaining components; an absolute target, or one that
//     lexically leaves the root, is refused; ".." pops the real path;
//   - the names walked are the real path of the directory reached, and
//     the directories passed are compared by identity with the protected
//     ones found when the FS was opened;
//   - the operation then acts on (directory descriptor, last name) with a
//     *at system call that does not follow a final symlink, so nothing can
//     be swapped in between.
//
// A run of plain components is handed to openat2 with RESOLVE_BENEATH,
// RESOLVE_NO_SYMLINKS and RESOLVE_NO_XDEV: the kernel walks it in one
// call and fails if any component is a symlink or a mount point, so the
// names it resolved are exactly the names given. When openat2 refuses (a
// link, a mount point, an old kernel) the component-wise walk takes over.
//
// Even so a kernel walk costs time per component, and wazero hands the FS
// whole paths: a find over a 5 000-level tree would pay for thousands of
// components on each of thousands of calls. The FS therefore keeps the
// descriptors of the directories on the real path it resolved last (see
// dirCache) and starts the next walk from the deepest one the new path
// shares, which makes walks of deep trees linear.

// loc is a resolved path: the parent directory's descriptor, its real
// root-relative path and the last component.
type loc struct {
	fd     int    // parent directory (O_PATH)
	own    bool   // fd must be closed by release (else the root's or the cache's)
	rel    string // real root-relative path of the parent ("." = root)
	name   string // last component; "" when the path is the root itself
	marked bool   // the walk passed a protected directory (by identity)
}

// path is the real root-relative path of the location.
func (l loc) path() string {
	if l.name == "" {
		return l.rel
	}
	return path.Join(l.rel, l.name)
}

// release closes the parent descriptor when the location owns it.
func (f *FS) release(l loc) {
	if l.own {
		_ = unix.Close(l.fd)
	}
}

// openat2Missing is set once openat2 turned out to be unavailable (ENOSYS,
// or refused by a seccomp filter): later walks go component-wise at once.
var openat2Missing atomic.Bool

// fastMax bounds the bytes of one openat2 run (PATH_MAX is 4096).
const fastMax = 3800

// dirWalk is the state of one walk: the directory reached and its real
// root-relative path.
type dirWalk struct {
	fd     int
	own    bool   // fd is ours to close (not the root's, not the cache's)
	path   string // real path of fd ("" = the root)
	depth  int    // components in path
	marked bool
	hops   int
	// found collects descriptors opened at sparse depths on the way, for
	// the cache (they are not closed when the walk steps past them).
	found map[int]foundDir
}

// locate resolves the parent of the clean root-relative path p. The
// caller holds f.mu.
func (f *FS) locate(p string) (loc, experimentalsys.Errno) {
	if p == "." {
		return loc{fd: f.rootFD, rel: "."}, 0
	}
	dir, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	w, e := f.walkFrom(dir, 0)
	if e != 0 {
		return loc{}, e
	}
	return w.loc(name), 0
}

// walkFrom walks the directory dir (root-relative, "" = root) from the
// deepest cached directory it shares with the last walk and records the
// result in the cache.
func (f *FS) walkFrom(dir string, hops int) (dirWalk, experimentalsys.Errno) {
	depth, end, fd, marked := f.cache.lookup(dir)
	w := dirWalk{fd: f.rootFD, hops: hops}
	if fd >= 0 {
		w = dirWalk{fd: fd, path: dir[:end], depth: depth, marked: marked, hops: hops}
	}
	rest := strings.TrimPrefix(dir[len(w.path):], "/")
	if e := f.walk(&w, rest); e != 0 {
		f.closeWalk(&w)
		return w, e
	}
	if f.cache.keep(w.path, w.depth, w.fd, w.own, w.marked, w.found) {
		w.own = false
	}
	w.found = nil
	return w, 0
}

func (w *dirWalk) loc(name string) loc {
	rel := w.path
	if rel == "" {
		rel = "."
	}
	return loc{fd: w.fd, own: w.own, rel: rel, name: name, marked: w.marked}
}

// closeWalk closes what a failed walk opened.
func (f *FS) closeWalk(w *dirWalk) {
	if w.own {
		_ = unix.Close(w.fd)
	}
	for _, fnd := range w.found {
		if fnd.fd != w.fd || !w.own {
			_ = unix.Close(fnd.fd)
		}
	}
	w.fd, w.own, w.found = f.rootFD, false, nil
}

// step makes fd, n components further down at names, the walk's current
// directory.
func (f *FS) step(w *dirWalk, fd int, names string, n int) {
	if w.own && !w.isFound(w.fd) {
		_ = unix.Close(w.fd)
	}
	w.fd, w.own = fd, true
	if w.path == "" {
		w.path = names
	} else {
		w.path += "/" + names
	}
	w.depth += n
	if w.depth%sparseStep == 0 {
		if w.found == nil {
			w.found = map[int]foundDir{}
		}
		w.found[w.depth] = foundDir{fd, w.marked}
	}
}

func (w *dirWalk) isFound(fd int) bool {
	fnd, ok := w.found[w.depth]
	return ok && fnd.fd == fd
}

// up makes the walk's directory its parent (a ".." component).
func (f *FS) up(w *dirWalk) experimentalsys.Errno {
	if w.depth == 0 {
		return experimentalsys.EPERM
	}
	parent := ""
	if i := strings.LastIndexByte(w.path, '/'); i >= 0 {
		parent = w.path[:i]
	}
	next, e := f.walkFrom(parent, w.hops)
	if e != 0 {
		return e
	}
	f.closeWalk(w)
	*w = next
	return 0
}

// walk opens the directory rest names (components separated by "/"),
// relative to w's current one.
func (f *FS) walk(w *dirWalk, rest string) experimentalsys.Errno {
	slow := false // a run failed in openat2: go component-wise to the next link
	for rest != "" {
		c, tail, _ := strings.Cut(rest, "/")
		switch {
		case c == "" || c == ".":
			rest = tail
			continue
		case c == "..":
			if e := f.up(w); e != 0 {
				return e
			}
			rest = tail
			continue
		}
		if !slow && !openat2Missing.Load() {
			if run, n := fastRun(rest, w.depth); n > 0 {
				fd, err := openat2Dir(w.fd, run)
				if err == nil {
					f.step(w, fd, run, n)
					rest = strings.TrimPrefix(rest[len(run):], "/")
					continue
				}
				if err == unix.ENOSYS || err == unix.EPERM {
					openat2Missing.Store(true)
				}
				slow = true
			}
		}
		fd, err := unix.Openat(w.fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			if f.hasIDs() && f.protectedDir(fd) {
				w.marked = true
			}
			f.step(w, fd, c, 1)
			rest = tail
			continue
		}
		target, isLink, e := f.readLink(w.fd, c)
		if !isLink {
			return errnoOf(err)
		}
		if e != 0 {
			return e
		}
		if w.hops++; w.hops > maxHops {
			return experimentalsys.ELOOP
		}
		if escapingTarget(target, path.Join(w.path, c)) {
			return experimentalsys.EPERM
		}
		rest = target + "/" + tail
		slow = false
	}
	return 0
}

// fastRun returns the leading plain components of rest that openat2 may
// take at once from depth (within fastMax bytes, ending at the next
// sparse depth so the cache gets a descriptor there) and their count.
func fastRun(rest string, depth int) (string, int) {
	limit := sparseStep - depth%sparseStep
	n, end, i := 0, 0, 0
	for n < limit && i < len(rest) {
		j := strings.IndexByte(rest[i:], '/')
		if j < 0 {
			j = len(rest) - i
		}
		c := rest[i : i+j]
		if c == "" || c == "." || c == ".." || i+j > fastMax {
			break
		}
		n, end = n+1, i+j
		i += j + 1
	}
	return rest[:end], n
}

func openat2Dir(dirfd int, p string) (int, error) {
	for {
		fd, err := unix.Openat2(dirfd, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
		})
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}

// readLink reports whether name in dirfd is a symlink and, if so, its
// target.
func (f *FS) readLink(dirfd int, name string) (string, bool, experimentalsys.Errno) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return "", false, 0
	}
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(dirfd, name, buf)
	if err != nil {
		return "", true, errnoOf(err)
	}
	return string(buf[:n]), true, 0
}

// follow resolves the symlink l names to the location of its target,
// counting hops across calls. It releases l.
func (f *FS) follow(l loc, hops *int) (loc, experimentalsys.Errno) {
	target, isLink, e := f.readLink(l.fd, l.name)
	linkPath := l.path()
	f.release(l)
	switch {
	case e != 0:
		return loc{}, e
	case !isLink:
		return loc{}, experimentalsys.ENOENT // it changed meanwhile
	}
	if *hops++; *hops > maxHops {
		return loc{}, experimentalsys.ELOOP
	}
	if escapingTarget(target, linkPath) {
		return loc{}, experimentalsys.EPERM
	}
	joined := target
	if dir := path.Dir(linkPath); dir != "." {
		joined = dir + "/" + target
	}
	// The last component may be ".." or ".": walk everything as a
	// directory, then name the result by its parent and last component.
	dir, last := "", joined
	if i := strings.LastIndexByte(joined, '/'); i >= 0 {
		dir, last = joined[:i], joined[i+1:]
	}
	if last == ".." || last == "." || last == "" {
		w, e := f.walkFrom(joined, *hops)
		if e != 0 {
			return loc{}, e
		}
		*hops = w.hops
		f.release(w.loc(""))
		if w.path == "" {
			return loc{fd: f.rootFD, rel: "."}, 0
		}
		return f.locate(w.path)
	}
	w, e := f.walkFrom(dir, *hops)
	if e != 0 {
		return loc{}, e
	}
	*hops = w.hops
	return w.loc(last), 0
}
