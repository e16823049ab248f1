package rootfs

import (
	"io/fs"
	"strconv"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// Chmod implements experimentalsys.FS; a final symlink is followed.
func (f *FS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.mutateFollowing(p, func(l loc, fd int) error {
		err := unix.Fchmodat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), uint32(perm&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)), 0)
		if err == unix.ENOENT { // no /proc: open the file itself
			rfd, oerr := unix.Openat(l.fd, l.at(), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
			if oerr != nil {
				return oerr
			}
			defer unix.Close(rfd)
			return unix.Fchmod(rfd, uint32(perm.Perm()))
		}
		return err
	})
}

// Utimens implements experimentalsys.FS; a final symlink is followed.
// UTIME_OMIT leaves a time as is.
func (f *FS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return f.mutateFollowing(p, func(l loc, _ int) error {
		ts := []unix.Timespec{toTimespec(atim), toTimespec(mtim)}
		return unix.UtimesNanoAt(l.fd, l.at(), ts, unix.AT_SYMLINK_NOFOLLOW)
	})
}

// mutateFollowing is mutate for operations that act on what a final
// symlink points to: the location is opened O_PATH without following, a
// link is resolved by the walk, and op gets the opened non-link.
func (f *FS) mutateFollowing(p string, op func(l loc, fd int) error) experimentalsys.Errno {
	p, done, e := f.begin(p)
	if e != 0 {
		return e
	}
	defer done()
	hops := 0
	l, e := f.locate(p)
	for e == 0 {
		if e = f.deny(l, false); e != 0 {
			f.release(l)
			return e
		}
		fd, err := unix.Openat(l.fd, l.at(), unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			f.release(l)
			return errnoOf(err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err == nil && isLink(st.Mode) {
			_ = unix.Close(fd)
			l, e = f.follow(l, &hops)
			continue
		}
		err = op(l, fd)
		_ = unix.Close(fd)
		f.release(l)
		return errnoOf(err)
	}
	return e
}

func isReg(m uint32) bool  { return m&unix.S_IFMT == unix.S_IFREG }
func isDir(m uint32) bool  { return m&unix.S_IFMT == unix.S_IFDIR }
func isLink(m uint32) bool { return m&unix.S_IFMT == unix.S_IFLNK }

// statOf converts a host stat to wazero's.
func statOf(st *unix.Stat_t) sys.Stat_t {
	mode := fs.FileMode(st.Mode & 0o777)
	mode |= statMode(st.Mode)
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return sys.Stat_t{Dev: st.Dev, Ino: st.Ino, Mode: mode, Nlink: st.Nlink, Size: st.Size,
		Atim: unix.TimespecToNsec(st.Atim), Mtim: unix.TimespecToNsec(st.Mtim), Ctim: unix.TimespecToNsec(st.Ctim)}
}

func toUnixFlags(flag experimentalsys.Oflag) int {
	var out int
	switch {
	case flag&experimentalsys.O_RDWR != 0:
		out = unix.O_RDWR
	case flag&experimentalsys.O_WRONLY != 0:
		out = unix.O_WRONLY
	default:
		out = unix.O_RDONLY
	}
	for _, m := range []struct {
		from experimentalsys.Oflag
		to   int
	}{
		{experimentalsys.O_APPEND, unix.O_APPEND},
		{experimentalsys.O_CREAT, unix.O_CREAT},
		{experimentalsys.O_EXCL, unix.O_EXCL},
		{experimentalsys.O_TRUNC, unix.O_TRUNC},
		{experimentalsys.O_SYNC, unix.O_SYNC},
		{experimentalsys.O_DIRECTORY, unix.O_DIRECTORY},
		{experimentalsys.O_DSYNC, unix.O_DSYNC},
	} {
		if flag&m.from != 0 {
			out |= m.to
		}
	}
	return out
}
