package rootfs

import (
	"io/fs"
	"os"
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"golang.org/x/sys/unix"
)

// The FS never follows a link out of the root, but the user's editor, a
// build or a later unconfined tool does, so no link the sandbox leaves
// may point out. A lexical check of the target is not enough: with
// `ln -s . a`, the target `a/..` cleans to "." yet resolves to the
// root's parent, and a chain of such links reaches `/`. Nor is resolving
// the target once: `ln -s d/../x out` resolves inside while d is a
// directory, and out escapes once d is replaced by a link to ".". So a
// symlink is made (by the guest, or applied from a host program) only
// when
//
//   - its target is relative and climbs only at its start: no ".." after
//     a name, so what it means cannot change when a name on its way later
//     becomes a link;
//   - its leading ".." stay within the link's own (real) directory;
//   - resolved from there through the links that exist now, it stays
//     inside (a link already in the tree may point out);
//
// and a move keeps the second rule: renaming a link re-checks it at its
// new place, and renaming a directory to a shallower place checks every
// link below it. Under these rules every link the sandbox made resolves
// inside the root, whatever else changes later.

// linkAllowed reports whether a symlink with target may stand at the
// real root-relative path linkPath. The caller holds f.mu and must not
// rely on borrowed cached descriptors afterwards (keepLoc them first).
func (f *FS) linkAllowed(target, linkPath string) bool {
	if !climbsOnlyFirst(target) || escapingTarget(target, linkPath) {
		return false
	}
	return !f.resolvesOutside(path.Dir(linkPath), target)
}

// climbsOnlyFirst reports whether target is relative and has no ".."
// after a component that is a name ("." and empty components are
// neutral).
func climbsOnlyFirst(target string) bool {
	if target == "" || path.IsAbs(target) || strings.HasPrefix(target, "\\") || strings.ContainsRune(target, 0) {
		return false
	}
	climbing := true
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			if !climbing {
				return false
			}
		default:
			climbing = false
		}
	}
	return true
}

// resolvesOutside walks target from the real directory dir through the
// links that exist, as the kernel would, and reports whether it left the
// root. A missing or non-directory component ends the walk inside: what
// follows it is names only (climbsOnlyFirst), which only descend.
func (f *FS) resolvesOutside(dir, target string) bool {
	start := dir
	if start == "." {
		start = ""
	}
	raw := target
	if start != "" {
		raw = start + "/" + target
	}
	w, e := f.walkFrom(raw, 0)
	if e == 0 {
		f.release(w.loc(""))
	}
	return e == experimentalsys.EPERM
}

// movedLinksStay reports whether renaming the entry at from (a real
// root-relative path, in the directory dirFD under name) to to keeps
// every link it carries inside: a link is checked at its new place; a
// directory moved to a shallower place has each link below it checked
// for its leading "..".
func (f *FS) movedLinksStay(dirFD int, name, from, to string) bool {
	var st unix.Stat_t
	if unix.Fstatat(dirFD, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return true // the rename itself will fail
	}
	switch {
	case isLink(st.Mode):
		target, _, e := f.readLink(dirFD, name)
		return e == 0 && f.linkAllowed(target, to)
	case isDir(st.Mode) && depthOf(path.Dir(to)) < depthOf(path.Dir(from)):
		fd, err := unix.Openat(dirFD, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		return linksStayBelow(fd, to, maxMoveScan)
	}
	return true
}

// maxMoveScan bounds the entries a shallower directory move inspects; a
// larger tree is refused the move (EPERM) rather than scanned without end.
const maxMoveScan = 1 << 20

// linksStayBelow checks, lexically, every link under the directory fd
// (which it closes) as if it stood at the real path dir.
func linksStayBelow(fd int, dir string, budget int) bool {
	left := budget
	return linksStayBelowCounted(fd, dir, &left)
}

func linksStayBelowCounted(fd int, dir string, left *int) bool {
	d := os.NewFile(uintptr(fd), dir)
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if *left--; *left < 0 {
			return false
		}
		name := e.Name()
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			buf := make([]byte, 4096)
			n, err := unix.Readlinkat(fd, name, buf)
			if err != nil || escapingTarget(string(buf[:n]), dir+"/"+name) {
				return false
			}
		case e.IsDir():
			sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil || !linksStayBelowCounted(sub, dir+"/"+name, left) {
				return false
			}
		}
	}
	return true
}

// depthOf is the number of components of a clean root-relative path.
func depthOf(p string) int {
	if p == "." || p == "" {
		return 0
	}
	return strings.Count(p, "/") + 1
}
