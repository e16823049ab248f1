package rootfs

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// DefaultMaxOpen is the per-FS cap on open files when Options.MaxOpen is 0.
const DefaultMaxOpen = 256

// Options configure one FS. They are copied by New and never change after.
type Options struct {
	// ReadOnly refuses every mutation with EROFS.
	ReadOnly bool
	// Protected lists what refuses mutation (see protector for the three
	// pattern kinds: a bare name anywhere, "p", "p/**"). nil means
	// DefaultProtected; an empty non-nil slice protects nothing.
	Protected []string
	// GitWrite makes the top-level .git writable except GitWriteKept
	// (the git-write sandbox mode).
	GitWrite bool
	// MaxOpen caps files open at once; beyond it opens fail with EAGAIN
	// (wazero's errno set has no EMFILE). 0 means DefaultMaxOpen.
	MaxOpen int
	// Quota, when set, bounds the net bytes the files of this FS may grow.
	Quota *Quota
	// Before, when set, is called with the cleaned root-relative path of
	// every mutation (a writing open, mkdir, rmdir, unlink, both ends of a
	// rename or link, symlink, chmod, utimens) before it happens and
	// before any lock of the FS is taken, so it may read the path's
	// current state (checkpoints keep before-images with it). It is
	// called for mutations the policy then refuses too.
	Before func(rel string)
}

// devIno identifies a directory.
type devIno struct{ dev, ino uint64 }

// FS is a wazero filesystem confined to one directory. Use one FS per
// guest instance: the open-file cap is counted per FS.
type FS struct {
	experimentalsys.UnimplementedFS
	dir      string
	rootFD   int
	opts     Options
	prot     protector
	ids      map[devIno]bool // protected directories, by identity
	open     atomic.Int64
	quotaHit atomic.Bool

	mu    sync.Mutex // held by every path operation; guards cache
	cache dirCache
}

// New opens dir as the root of a new FS. Close releases the root handle;
// files opened through the FS hold their own descriptors.
func New(dir string, opts Options) (*FS, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	if opts.Protected == nil {
		opts.Protected = DefaultProtected
	}
	opts.Protected = append([]string(nil), opts.Protected...)
	if opts.MaxOpen <= 0 {
		opts.MaxOpen = DefaultMaxOpen
	}
	f := &FS{dir: dir, rootFD: fd, opts: opts, prot: newProtector(opts.Protected, opts.GitWrite), ids: map[devIno]bool{}}
	f.mu.Lock()
	f.findProtectedDirs()
	f.mu.Unlock()
	return f, nil
}

// findProtectedDirs records the identity of every top-level directory a
// protected name matches, and of the directory a top-level gitdir file
// (".git" holding "gitdir: <path>") points to when that lies inside the
// root; the latter also becomes a protected tree by path.
func (f *FS) findProtectedDirs() {
	for name := range f.prot.names {
		var st unix.Stat_t
		if unix.Fstatat(f.rootFD, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			f.ids[devIno{st.Dev, st.Ino}] = true
		}
	}
	if !f.prot.names[".git"] {
		return
	}
	target := gitdirTarget(f.rootFD)
	if target == "" {
		return
	}
	if filepath.IsAbs(target) {
		real, err := filepath.EvalSymlinks(f.dir)
		rel, rerr := filepath.Rel(real, target)
		if err != nil || rerr != nil {
			return
		}
		target = filepath.ToSlash(rel)
	}
	p, e := clean(target)
	if e != 0 || p == "." {
		return
	}
	l, e := f.locate(p)
	if e != 0 {
		return
	}
	defer f.release(l)
	var st unix.Stat_t
	if unix.Fstatat(l.fd, l.name, &st, 0) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		f.ids[devIno{st.Dev, st.Ino}] = true
		f.prot.trees = append(f.prot.trees, l.path())
	}
}

// gitdirTarget reads a top-level ".git" regular file and returns the path
// after "gitdir: " ("" when there is none).
func gitdirTarget(rootFD int) string {
	fd, err := unix.Openat(rootFD, ".git", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return ""
	}
	buf := make([]byte, 4096)
	n, _ := unix.Read(fd, buf)
	if n <= 0 {
		return ""
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("gitdir:"))
	if !ok {
		return ""
	}
	return string(bytes.TrimSpace(rest))
}

func (f *FS) hasIDs() bool { return len(f.ids) > 0 }

func (f *FS) protectedDir(fd int) bool {
	var st unix.Stat_t
	return unix.Fstat(fd, &st) == nil && f.ids[devIno{st.Dev, st.Ino}]
}

// Close releases the root directory handle and the cached directories.
func (f *FS) Close() error {
	f.Invalidate()
	return unix.Close(f.rootFD)
}

// Invalidate forgets the cached directories (see dirCache). Call it when
// something other than this FS may have renamed or removed directories:
// between commands, and after a host program ran.
func (f *FS) Invalidate() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cache.drop(0)
}

// Dir is the host directory the FS is confined to.
func (f *FS) Dir() string { return f.dir }

// OpenFiles reports how many files are open through f right now.
func (f *FS) OpenFiles() int { return int(f.open.Load()) }

// QuotaRemaining is what the quota still allows (a huge number without
// one).
func (f *FS) QuotaRemaining() int64 { return f.opts.Quota.Remaining() }

// QuotaLimit is the quota's size (0 without one).
func (f *FS) QuotaLimit() int64 { return f.opts.Quota.Limit() }

// QuotaHit reports whether a write through f was refused by the quota,
// so the caller can say why the command's writes failed.
func (f *FS) QuotaHit() bool { return f.quotaHit.Load() }

// TakeQuotaHit is QuotaHit, clearing the flag (one report per call on an
// FS that serves several, as a persistent shell's does).
func (f *FS) TakeQuotaHit() bool { return f.quotaHit.Swap(false) }

// errnoOf maps a host error to a wazero errno. ENXIO (opening a FIFO
// with no reader, or a socket) becomes EACCES: such files are refused.
func errnoOf(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	if err == unix.ENXIO {
		return experimentalsys.EACCES
	}
	return experimentalsys.UnwrapOSError(err)
}

// deny refuses a mutation of the location: EROFS in read-only mode,
// EACCES when it is protected (by path or by a protected directory passed
// on the way).
func (f *FS) deny(l loc, moving bool) experimentalsys.Errno {
	if f.opts.ReadOnly {
		return experimentalsys.EROFS
	}
	if l.marked || f.prot.protects(l.path(), moving) {
		return experimentalsys.EACCES
	}
	return 0
}

// at names the last component for *at calls ("." for the root itself).
func (l loc) at() string {
	if l.name == "" {
		return "."
	}
	return l.name
}

const writeFlags = experimentalsys.O_WRONLY | experimentalsys.O_RDWR |
	experimentalsys.O_CREAT | experimentalsys.O_TRUNC | experimentalsys.O_APPEND

// OpenFile implements experimentalsys.FS. The host open is non-blocking
// and anything but a regular file or directory is refused with EACCES.
func (f *FS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return nil, e
	}
	writable := flag&writeFlags != 0
	if writable && f.opts.ReadOnly {
		return nil, experimentalsys.EROFS
	}
	if writable {
		f.before(p)
	}
	if f.open.Add(1) > int64(f.opts.MaxOpen) {
		f.open.Add(-1)
		return nil, experimentalsys.EAGAIN
	}
	f.mu.Lock()
	fd, old, e := f.openFollowing(p, flag, perm)
	f.mu.Unlock()
	if e != 0 {
		f.open.Add(-1)
		return nil, e
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || !(isReg(st.Mode) || isDir(st.Mode)) {
		_ = unix.Close(fd)
		f.open.Add(-1)
		return nil, experimentalsys.EACCES
	}
	if isDir(st.Mode) && flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR) != 0 {
		_ = unix.Close(fd)
		f.open.Add(-1)
		return nil, experimentalsys.EISDIR
	}
	f.opts.Quota.refund(old)
	appendMode := flag&experimentalsys.O_APPEND != 0
	return &file{fs: f, f: os.NewFile(uintptr(fd), p), isDir: isDir(st.Mode), size: st.Size,
		append: appendMode, hostAppend: appendMode}, 0
}

// openFollowing opens p, following a final symlink unless O_NOFOLLOW was
// asked for. The open itself never follows (O_NOFOLLOW on the host): a
// link is read and resolved by the walk, and the policy is checked on
// every location reached. old is the size a truncating open freed.
func (f *FS) openFollowing(p string, flag experimentalsys.Oflag, perm fs.FileMode) (fd int, old int64, e experimentalsys.Errno) {
	writable := flag&writeFlags != 0
	hops := 0
	l, e := f.locate(p)
	for e == 0 {
		if writable {
			if e = f.deny(l, false); e != 0 {
				f.release(l)
				return -1, 0, e
			}
		}
		if flag&experimentalsys.O_TRUNC != 0 {
			old = f.sizeFreed(l)
		}
		var err error
		fd, err = unix.Openat(l.fd, l.at(), toUnixFlags(flag)|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.ELOOP && flag&experimentalsys.O_NOFOLLOW == 0 && l.name != "" {
			l, e = f.follow(l, &hops)
			continue
		}
		f.release(l)
		if err != nil {
			return -1, 0, errnoOf(err)
		}
		return fd, old, 0
	}
	return -1, 0, e
}

// sizeFreed is what removing or truncating the file at l gives back to
// the quota: its size when it is a regular file with no other link.
func (f *FS) sizeFreed(l loc) int64 {
	if f.opts.Quota == nil {
		return 0
	}
	var st unix.Stat_t
	if unix.Fstatat(l.fd, l.at(), &st, unix.AT_SYMLINK_NOFOLLOW) != nil || !isReg(st.Mode) || st.Nlink != 1 {
		return 0
	}
	return st.Size
}

// stat stats p, following a final symlink when follow is set.
func (f *FS) stat(p string, follow bool) (sys.Stat_t, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return sys.Stat_t{}, e
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	hops := 0
	l, e := f.locate(p)
	for e == 0 {
		var st unix.Stat_t
		err := unix.Fstatat(l.fd, l.at(), &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == nil && follow && isLink(st.Mode) {
			l, e = f.follow(l, &hops)
			continue
		}
		f.release(l)
		if err != nil {
			return sys.Stat_t{}, errnoOf(err)
		}
		return statOf(&st), 0
	}
	return sys.Stat_t{}, e
}

// Lstat implements experimentalsys.FS.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) { return f.stat(p, false) }

// Stat implements experimentalsys.FS.
func (f *FS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) { return f.stat(p, true) }

// Readlink implements experimentalsys.FS.
func (f *FS) Readlink(p string) (string, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return "", e
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	l, e := f.locate(p)
	if e != 0 {
		return "", e
	}
	defer f.release(l)
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(l.fd, l.at(), buf)
	if err != nil {
		return "", errnoOf(err)
	}
	return string(buf[:n]), 0
}

// keepLoc gives l a descriptor of its own, so that a second locate
// (which may replace the cached directory l borrows) leaves it usable.
// done closes what keepLoc opened; l's owner still releases l.
func (f *FS) keepLoc(l loc) (kept loc, done func(), err error) {
	if l.own {
		return l, func() {}, nil
	}
	fd, err := unix.FcntlInt(uintptr(l.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return l, func() {}, err
	}
	l.fd = fd
	return l, func() { _ = unix.Close(fd) }, nil
}

// begin starts a mutation of p: refused at once in read-only mode, else
// p cleaned and f.mu held until done is called.
func (f *FS) begin(p string) (string, func(), experimentalsys.Errno) {
	if f.opts.ReadOnly {
		return "", nil, experimentalsys.EROFS
	}
	c, e := clean(p)
	if e != 0 {
		return "", nil, e
	}
	f.before(c)
	f.mu.Lock()
	return c, f.mu.Unlock, 0
}

// before tells Options.Before that rel is about to change.
func (f *FS) before(rel string) {
	if f.opts.Before != nil {
		f.opts.Before(rel)
	}
}

// mutate cleans p, resolves its parent, applies the write policy and runs
// op on (parent descriptor, last name). The last component is never
// followed: op must use a non-following *at call.
func (f *FS) mutate(p string, moving bool, op func(l loc) error) experimentalsys.Errno {
	p, done, e := f.begin(p)
	if e != 0 {
		return e
	}
	defer done()
	l, e := f.locate(p)
	if e != 0 {
		return e
	}
	defer f.release(l)
	if e := f.deny(l, moving); e != 0 {
		return e
	}
	return errnoOf(op(l))
}

// Mkdir implements experimentalsys.FS.
func (f *FS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.mutate(p, false, func(l loc) error { return unix.Mkdirat(l.fd, l.at(), uint32(perm.Perm())) })
}

// Rmdir implements experimentalsys.FS.
func (f *FS) Rmdir(p string) experimentalsys.Errno {
	return f.mutate(p, true, func(l loc) error {
		if err := unix.Unlinkat(l.fd, l.at(), unix.AT_REMOVEDIR); err != nil {
			return err
		}
		f.cache.invalidate(l.path())
		return nil
	})
}

// Unlink implements experimentalsys.FS.
func (f *FS) Unlink(p string) experimentalsys.Errno {
	return f.mutate(p, true, func(l loc) error {
		var st unix.Stat_t
		if err := unix.Fstatat(l.fd, l.at(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return err
		}
		if isDir(st.Mode) {
			return unix.EISDIR
		}
		freed := f.sizeFreed(l)
		if err := unix.Unlinkat(l.fd, l.at(), 0); err != nil {
			return err
		}
		f.opts.Quota.refund(freed)
		return nil
	})
}

// Rename implements experimentalsys.FS; both ends must be writable.
func (f *FS) Rename(from, to string) experimentalsys.Errno {
	return f.mutatePair(from, to, true, func(lf, lt loc) error {
		lt, done, err := f.keepLoc(lt)
		if err != nil {
			return err
		}
		defer done()
		if !f.movedLinksStay(lf.fd, lf.at(), lf.path(), lt.path()) {
			return os.ErrPermission
		}
		freed := f.sizeFreed(lt)
		if err := unix.Renameat(lf.fd, lf.at(), lt.fd, lt.at()); err != nil {
			return err
		}
		f.cache.invalidate(lf.path())
		f.cache.invalidate(lt.path())
		f.opts.Quota.refund(freed)
		return nil
	})
}

// Link implements experimentalsys.FS. Linking a protected file elsewhere
// would let it be written through the new name, so the source is checked
// like a write too.
func (f *FS) Link(oldPath, newPath string) experimentalsys.Errno {
	return f.mutatePair(oldPath, newPath, false, func(lo, ln loc) error {
		ln, done, err := f.keepLoc(ln)
		if err != nil {
			return err
		}
		defer done()
		// A hard link to a symlink is that symlink at a new place.
		if t, isLink, e := f.readLink(lo.fd, lo.at()); e != 0 || isLink && !f.linkAllowed(t, ln.path()) {
			return os.ErrPermission
		}
		return unix.Linkat(lo.fd, lo.at(), ln.fd, ln.at(), 0)
	})
}

// mutatePair is mutate for operations on two paths (rename, link): both
// are resolved and checked, then op acts on the two locations.
func (f *FS) mutatePair(first, second string, moving bool, op func(a, b loc) error) experimentalsys.Errno {
	second, e := clean(second)
	if e != 0 {
		return e
	}
	if !f.opts.ReadOnly {
		f.before(second)
	}
	return f.mutate(first, moving, func(a loc) error {
		a, done, err := f.keepLoc(a)
		if err != nil {
			return err
		}
		defer done()
		b, e := f.locate(second)
		if e != 0 {
			return e
		}
		defer f.release(b)
		if e := f.deny(b, moving); e != 0 {
			return e
		}
		return op(a, b)
	})
}

// Symlink implements experimentalsys.FS. A target that is absolute or
// leaves the root — lexically, or resolved through the links there are
// (links.go) — is refused with EPERM even though the FS would not follow
// it: host tools run later by the user would. So is a target that names a
// protected path.
func (f *FS) Symlink(target, linkName string) experimentalsys.Errno {
	return f.mutate(linkName, false, func(l loc) error {
		l, done, err := f.keepLoc(l)
		if err != nil {
			return err
		}
		defer done()
		if !f.linkAllowed(target, l.path()) {
			return os.ErrPermission
		}
		if !f.prot.empty() && f.prot.protects(path.Join(l.rel, target), false) {
			return os.ErrPermission
		}
		return unix.Symlinkat(target, l.fd, l.at())
	})
}
