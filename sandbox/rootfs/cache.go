package rootfs

import (
	"sort"

	"golang.org/x/sys/unix"
)

// The directory cache keeps descriptors along the real path of the last
// directory a walk reached: all of the last denseLevels directories and
// every sparseStep-th one above them. Tree walks (find, grep -r, ls -R,
// rm -r) work in one directory or move one level at a time, so the next
// path nearly always shares a cached directory at most sparseStep levels
// above its parent, and resolving it costs a few system calls whatever
// its depth. A 5 000-level chain holds about 110 descriptors. Paths stay
// strings throughout (no per-component slices), so the work per call is
// a few passes over the path's bytes.
//
// An entry stays valid while nothing renames or removes a directory on
// the cached path. The FS drops what its own Rename and Rmdir invalidate;
// others (another command on the same workspace, the user) can make the
// cache point at a directory that has moved, just as a tool holding
// directory descriptors (find, fts) keeps working in a moved directory.
// Confinement does not depend on it: every cached directory was reached
// inside the root. Host calls Invalidate between commands and after each
// host program.
const (
	sparseStep  = 64
	denseLevels = 32
)

type dirCache struct {
	chain string // real root-relative path of the cached directory ("" = root)
	ends  []int  // ends[i]: byte length of the prefix naming depth i+1
	fds   []int  // fds[i]: descriptor of depth i+1, or -1
	marks []bool // marks[i]: a protected directory lies on depth i+1's path
}

// foundDir is a descriptor a walk opened at a sparse depth.
type foundDir struct {
	fd     int
	marked bool
}

// sharedDepth is the number of leading components dir shares with the
// cached chain. A longer shared prefix implies every shorter one, so a
// binary search over the component ends finds it with a few memory
// comparisons.
func (c *dirCache) sharedDepth(dir string) int {
	d := sort.Search(len(c.ends), func(i int) bool {
		e := c.ends[i]
		return e > len(dir) || dir[:e] != c.chain[:e]
	}) // depths 1..d share their bytes
	for d > 0 {
		if e := c.ends[d-1]; e == len(dir) || dir[e] == '/' {
			return d
		}
		d--
	}
	return 0
}

// lookup returns the deepest cached directory that is a prefix of dir:
// its depth, the byte length of its path, its descriptor and mark; fd is
// -1 when there is none (start at the root).
func (c *dirCache) lookup(dir string) (depth, end, fd int, marked bool) {
	for d := c.sharedDepth(dir); d > 0; d-- {
		if c.fds[d-1] >= 0 {
			return d, c.ends[d-1], c.fds[d-1], c.marks[d-1]
		}
	}
	return 0, 0, -1, false
}

// keep makes p (depth components) the cached path, taking ownership of
// every found descriptor and, when own is set, of fd (the directory p
// itself); it reports whether it took fd.
func (c *dirCache) keep(p string, depth, fd int, own, marked bool, found map[int]foundDir) (took bool) {
	k := c.sharedDepth(p)
	c.drop(k + 1)
	c.chain = p
	for d := k + 1; d <= depth; d++ {
		c.ends = append(c.ends, componentEnd(p, c.endOf(d-1)))
		c.fds, c.marks = append(c.fds, -1), append(c.marks, false)
		if fnd, ok := found[d]; ok {
			c.fds[d-1], c.marks[d-1] = fnd.fd, fnd.marked
			delete(found, d)
		}
	}
	for _, fnd := range found { // at depths the new path does not reach
		_ = unix.Close(fnd.fd)
	}
	if depth > 0 {
		switch {
		case c.fds[depth-1] == fd:
			took = own
		case own && c.fds[depth-1] < 0:
			c.fds[depth-1], c.marks[depth-1], took = fd, marked, true
		}
	}
	for d := 1; d <= depth-denseLevels; d++ {
		if c.fds[d-1] >= 0 && d%sparseStep != 0 {
			_ = unix.Close(c.fds[d-1])
			c.fds[d-1] = -1
		}
	}
	return took
}

// endOf is the byte length of the prefix naming depth d (0 for the root).
func (c *dirCache) endOf(d int) int {
	if d == 0 {
		return 0
	}
	return c.ends[d-1]
}

// componentEnd returns where the component starting after start ends.
func componentEnd(p string, start int) int {
	if start > 0 {
		start++ // skip the separator
	}
	for i := start; i < len(p); i++ {
		if p[i] == '/' {
			return i
		}
	}
	return len(p)
}

// drop forgets the cached path from depth on (depth 0 or 1: all of it).
func (c *dirCache) drop(depth int) {
	n := max(depth-1, 0)
	if n >= len(c.fds) {
		return
	}
	for i := n; i < len(c.fds); i++ {
		if c.fds[i] >= 0 {
			_ = unix.Close(c.fds[i])
		}
	}
	c.ends, c.fds, c.marks = c.ends[:n], c.fds[:n], c.marks[:n]
	c.chain = c.chain[:c.endOf(n)]
}

// invalidate drops the real path p, which was renamed or removed, if the
// cache holds it or something below it.
func (c *dirCache) invalidate(p string) {
	if p == "." || p == "" {
		return
	}
	if d := c.sharedDepth(p); d > 0 && c.ends[d-1] == len(p) {
		c.drop(d)
	}
}
