package rootfs

import (
	"io/fs"
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// DefaultProtected are the paths that stay read-only in workspace-write
// mode: writing them gives code execution outside the sandbox the next
// time the user runs git.
var DefaultProtected = []string{".git/config", ".git/hooks/**"}

// maxHops bounds symlink resolution while checking protected paths.
const maxHops = 40

// clean turns a path wazero hands to the FS (relative to the mount, at
// times with a leading slash) into a clean root-relative path. A path
// that lexically leaves the root is refused.
func clean(p string) (string, experimentalsys.Errno) {
	p = path.Clean(strings.TrimLeft(p, "/"))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", experimentalsys.EPERM
	}
	return p, 0
}

// protector decides whether a root-relative path is protected. A pattern
// "p" protects p itself; "p/**" protects p and everything under it.
type protector struct {
	exact []string
	trees []string
}

func newProtector(patterns []string) protector {
	var pr protector
	for _, p := range patterns {
		if t, ok := strings.CutSuffix(p, "/**"); ok {
			pr.trees = append(pr.trees, path.Clean(t))
		} else {
			pr.exact = append(pr.exact, path.Clean(p))
		}
	}
	return pr
}

func (pr protector) empty() bool { return len(pr.exact) == 0 && len(pr.trees) == 0 }

// covers reports whether p is protected, or is an ancestor of a protected
// path (renaming or removing an ancestor would move protection away).
func (pr protector) covers(p string) bool {
	for _, e := range pr.exact {
		if p == e || isUnder(e, p) {
			return true
		}
	}
	for _, t := range pr.trees {
		if p == t || isUnder(p, t) || isUnder(t, p) {
			return true
		}
	}
	return false
}

// isUnder reports whether p lies strictly below dir ("." is every path's
// ancestor, but the root itself is never protected).
func isUnder(p, dir string) bool {
	if dir == "." {
		return false
	}
	return strings.HasPrefix(p, dir+"/")
}

// escapingTarget reports whether a symlink at linkPath with the given
// target is absolute or resolves (lexically, from the link's directory)
// outside the root.
func escapingTarget(target, linkPath string) bool {
	if target == "" || path.IsAbs(target) || strings.HasPrefix(target, "\\") {
		return true
	}
	joined := path.Join(path.Dir(linkPath), target)
	return joined == ".." || strings.HasPrefix(joined, "../")
}

// resolve follows symlinks in p lexically through the root (each link read
// with Readlink, never by the host kernel) and returns the real
// root-relative path. The last component is followed only when followLast
// is set. It is used for the protected-path check, not for confinement:
// confinement is os.Root's job.
func (f *FS) resolve(p string, followLast bool) (string, experimentalsys.Errno) {
	hops := 0
	done := "."
	rest := strings.Split(p, "/")
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		if name == "." || name == "" {
			continue
		}
		next := path.Join(done, name)
		if next == ".." || strings.HasPrefix(next, "../") {
			return "", experimentalsys.EPERM
		}
		if len(rest) == 0 && !followLast {
			return next, 0
		}
		info, err := f.root.Lstat(next)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			// Missing components cannot hide a link; keep them lexical.
			done = next
			continue
		}
		if hops++; hops > maxHops {
			return "", experimentalsys.ELOOP
		}
		target, err := f.root.Readlink(next)
		if err != nil || path.IsAbs(target) {
			return "", experimentalsys.EPERM
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return done, 0
}

// checkWrite refuses a mutation of p: EROFS in read-only mode, EACCES when
// p (lexically or through symlinks) is protected.
func (f *FS) checkWrite(p string, followLast bool) experimentalsys.Errno {
	if f.opts.ReadOnly {
		return experimentalsys.EROFS
	}
	if f.prot.empty() {
		return 0
	}
	if f.prot.covers(p) {
		return experimentalsys.EACCES
	}
	real, errno := f.resolve(p, followLast)
	if errno != 0 {
		return errno
	}
	if f.prot.covers(real) {
		return experimentalsys.EACCES
	}
	return 0
}
