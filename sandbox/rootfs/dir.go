package rootfs

import (
	"encoding/binary"
	"io/fs"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// dirReader reads a directory descriptor with getdents64. The kernel's
// records carry each entry's inode and type, which wazero needs for every
// dirent; os.File.ReadDir hides the inode, and asking for it cost one
// lstat per entry (most of a directory listing's time).
type dirReader struct {
	buf      []byte
	pos, end int
	eof      bool
}

// reset forgets buffered records; Seek calls it when it rewinds.
func (d *dirReader) reset() { d.pos, d.end, d.eof = 0, 0, false }

// Readdir implements experimentalsys.File with the semantics of
// os.File.ReadDir: n <= 0 reads everything left, "." and ".." are left
// out (wazero adds its own).
func (h *file) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	if !h.isDir {
		return nil, experimentalsys.EBADF
	}
	d := &h.dir
	var out []experimentalsys.Dirent
	for n <= 0 || len(out) < n {
		if d.pos >= d.end {
			if d.eof {
				break
			}
			if e := h.fill(); e != 0 {
				return nil, e
			}
			continue
		}
		rec := d.buf[d.pos:d.end]
		if len(rec) < 19 {
			return nil, experimentalsys.EIO
		}
		reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
		if reclen < 19 || reclen > len(rec) {
			return nil, experimentalsys.EIO
		}
		d.pos += reclen
		ino := binary.NativeEndian.Uint64(rec[0:8])
		typ := rec[18]
		name := rec[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." || ino == 0 {
			continue
		}
		de := experimentalsys.Dirent{Ino: sys.Inode(ino), Name: string(name)}
		mode, ok := direntMode(typ)
		if !ok {
			var st unix.Stat_t
			if e := h.control(func(fd int) error {
				return unix.Fstatat(fd, de.Name, &st, unix.AT_SYMLINK_NOFOLLOW)
			}); e != 0 {
				continue // vanished meanwhile
			}
			mode = statMode(st.Mode)
		}
		de.Type = mode
		out = append(out, de)
	}
	return out, 0
}

// fill reads the next batch of records.
func (h *file) fill() experimentalsys.Errno {
	d := &h.dir
	if d.buf == nil {
		d.buf = make([]byte, 8<<10)
	}
	var n int
	e := h.control(func(fd int) error {
		var err error
		n, err = unix.Getdents(fd, d.buf)
		return err
	})
	if e != 0 {
		return e
	}
	d.pos, d.end = 0, n
	d.eof = n == 0
	return 0
}

// control runs f on the descriptor and maps its error.
func (h *file) control(f func(fd int) error) experimentalsys.Errno {
	rc, err := h.f.SyscallConn()
	if err != nil {
		return experimentalsys.UnwrapOSError(err)
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if ferr = f(int(fd)); ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return experimentalsys.UnwrapOSError(err)
	}
	if ferr != nil {
		return experimentalsys.UnwrapOSError(ferr)
	}
	return 0
}

func direntMode(t uint8) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

func statMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
