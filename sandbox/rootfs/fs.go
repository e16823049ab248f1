package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// DefaultMaxOpen is the per-FS cap on open files when Options.MaxOpen is 0.
const DefaultMaxOpen = 256

// Options configure one FS. They are copied by New and never change after.
type Options struct {
	// ReadOnly refuses every mutation with EROFS.
	ReadOnly bool
	// Protected lists root-relative paths that refuse mutation ("p" or
	// "p/**"). nil means DefaultProtected; an empty non-nil slice
	// protects nothing.
	Protected []string
	// MaxOpen caps files open at once; beyond it opens fail with EAGAIN
	// (wazero's errno set has no EMFILE). 0 means DefaultMaxOpen.
	MaxOpen int
	// Quota, when set, bounds the bytes written through this FS.
	Quota *Quota
}

// FS is a wazero filesystem confined to one directory. Use one FS per
// guest instance: the open-file cap is counted per FS.
type FS struct {
	experimentalsys.UnimplementedFS
	root *os.Root
	opts Options
	prot protector
	open atomic.Int64
}

// New opens dir as the root of a new FS. Close releases the root handle;
// files opened through the FS hold their own descriptors.
func New(dir string, opts Options) (*FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if opts.Protected == nil {
		opts.Protected = DefaultProtected
	}
	opts.Protected = append([]string(nil), opts.Protected...)
	if opts.MaxOpen <= 0 {
		opts.MaxOpen = DefaultMaxOpen
	}
	return &FS{root: root, opts: opts, prot: newProtector(opts.Protected)}, nil
}

// Close releases the root directory handle.
func (f *FS) Close() error { return f.root.Close() }

// Dir is the host directory the FS is confined to.
func (f *FS) Dir() string { return f.root.Name() }

// OpenFiles reports how many files are open through f right now.
func (f *FS) OpenFiles() int { return int(f.open.Load()) }

// errno maps an error from os.Root to a wazero errno; os.Root's "path
// escapes from parent" becomes EPERM.
func errno(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	if strings.Contains(err.Error(), "escapes from parent") {
		return experimentalsys.EPERM
	}
	var pe *os.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.ENXIO) {
		return experimentalsys.EACCES
	}
	return experimentalsys.UnwrapOSError(err)
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
	if writable {
		if e := f.checkWrite(p, flag&experimentalsys.O_NOFOLLOW == 0); e != 0 {
			return nil, e
		}
	}
	if f.open.Add(1) > int64(f.opts.MaxOpen) {
		f.open.Add(-1)
		return nil, experimentalsys.EAGAIN
	}
	hf, err := f.root.OpenFile(p, toOSFlag(flag)|syscall.O_NONBLOCK, perm)
	if err != nil {
		f.open.Add(-1)
		return nil, errno(err)
	}
	info, err := hf.Stat()
	if err != nil || !(info.Mode().IsRegular() || info.IsDir()) {
		_ = hf.Close()
		f.open.Add(-1)
		return nil, experimentalsys.EACCES
	}
	if info.IsDir() && writable && flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR) != 0 {
		_ = hf.Close()
		f.open.Add(-1)
		return nil, experimentalsys.EISDIR
	}
	return &file{fs: f, f: hf, isDir: info.IsDir(), append: flag&experimentalsys.O_APPEND != 0,
		hostAppend: flag&experimentalsys.O_APPEND != 0}, 0
}

func toOSFlag(flag experimentalsys.Oflag) int {
	var out int
	switch {
	case flag&experimentalsys.O_RDWR != 0:
		out = os.O_RDWR
	case flag&experimentalsys.O_WRONLY != 0:
		out = os.O_WRONLY
	default:
		out = os.O_RDONLY
	}
	for _, m := range []struct {
		from experimentalsys.Oflag
		to   int
	}{
		{experimentalsys.O_APPEND, os.O_APPEND},
		{experimentalsys.O_CREAT, os.O_CREATE},
		{experimentalsys.O_EXCL, os.O_EXCL},
		{experimentalsys.O_TRUNC, os.O_TRUNC},
		{experimentalsys.O_SYNC, os.O_SYNC},
		{experimentalsys.O_DIRECTORY, syscall.O_DIRECTORY},
		{experimentalsys.O_NOFOLLOW, syscall.O_NOFOLLOW},
		{experimentalsys.O_DSYNC, syscall.O_DSYNC},
	} {
		if flag&m.from != 0 {
			out |= m.to
		}
	}
	return out
}

// Lstat implements experimentalsys.FS.
func (f *FS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return sys.Stat_t{}, e
	}
	info, err := f.root.Lstat(p)
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return sys.NewStat_t(info), 0
}

// Stat implements experimentalsys.FS.
func (f *FS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return sys.Stat_t{}, e
	}
	info, err := f.root.Stat(p)
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return sys.NewStat_t(info), 0
}

// Readlink implements experimentalsys.FS.
func (f *FS) Readlink(p string) (string, experimentalsys.Errno) {
	p, e := clean(p)
	if e != 0 {
		return "", e
	}
	s, err := f.root.Readlink(p)
	return s, errno(err)
}

// mutate cleans p, applies the write policy and runs op.
func (f *FS) mutate(p string, followLast bool, op func(string) error) experimentalsys.Errno {
	p, e := clean(p)
	if e != 0 {
		return e
	}
	if e := f.checkWrite(p, followLast); e != 0 {
		return e
	}
	return errno(op(p))
}

// Mkdir implements experimentalsys.FS.
func (f *FS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.mutate(p, false, func(p string) error { return f.root.Mkdir(p, perm) })
}

// Chmod implements experimentalsys.FS.
func (f *FS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.mutate(p, true, func(p string) error { return f.root.Chmod(p, perm) })
}

// Rmdir implements experimentalsys.FS.
func (f *FS) Rmdir(p string) experimentalsys.Errno {
	return f.mutate(p, false, func(p string) error {
		info, err := f.root.Lstat(p)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return &os.PathError{Op: "rmdir", Path: p, Err: syscall.ENOTDIR}
		}
		return f.root.Remove(p)
	})
}

// Unlink implements experimentalsys.FS.
func (f *FS) Unlink(p string) experimentalsys.Errno {
	return f.mutate(p, false, func(p string) error {
		info, err := f.root.Lstat(p)
		if err != nil {
			return err
		}
		if info.IsDir() {
			return &os.PathError{Op: "unlink", Path: p, Err: syscall.EISDIR}
		}
		return f.root.Remove(p)
	})
}

// Rename implements experimentalsys.FS; both ends must be writable.
func (f *FS) Rename(from, to string) experimentalsys.Errno {
	to, e := clean(to)
	if e != 0 {
		return e
	}
	if e := f.checkWrite(to, false); e != 0 {
		return e
	}
	return f.mutate(from, false, func(from string) error { return f.root.Rename(from, to) })
}

// Link implements experimentalsys.FS. Linking a protected file elsewhere
// would let it be written through the new name, so the source is checked
// like a write too.
func (f *FS) Link(oldPath, newPath string) experimentalsys.Errno {
	newPath, e := clean(newPath)
	if e != 0 {
		return e
	}
	if e := f.checkWrite(newPath, false); e != 0 {
		return e
	}
	return f.mutate(oldPath, false, func(oldPath string) error {
		// A hard link to a symlink copies its target: refuse escaping ones.
		if info, err := f.root.Lstat(oldPath); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			if t, err := f.root.Readlink(oldPath); err != nil || escapingTarget(t, newPath) {
				return os.ErrPermission
			}
		}
		return f.root.Link(oldPath, newPath)
	})
}

// Symlink implements experimentalsys.FS. A target that is absolute or
// leaves the root is refused with EPERM even though os.Root would not
// follow it: host tools run later by the user would.
func (f *FS) Symlink(target, linkName string) experimentalsys.Errno {
	return f.mutate(linkName, false, func(p string) error {
		if escapingTarget(target, p) {
			return os.ErrPermission
		}
		if !f.prot.empty() {
			if real, e := f.resolve(p+"/../"+target, true); e != 0 || f.prot.covers(real) {
				return os.ErrPermission
			}
		}
		return f.root.Symlink(target, p)
	})
}

// Utimens implements experimentalsys.FS. UTIME_OMIT leaves a time as is.
func (f *FS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return f.mutate(p, true, func(p string) error {
		return f.root.Chtimes(p, toTime(atim), toTime(mtim))
	})
}

func toTime(ns int64) time.Time {
	if ns == experimentalsys.UTIME_OMIT {
		return time.Time{}
	}
	return time.Unix(0, ns)
}
