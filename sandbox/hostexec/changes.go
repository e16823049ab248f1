package hostexec

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The change stream is a tar (PAX) of the overlay's upper directory,
// parents before children: a directory, a regular file (with its bytes),
// a symlink, a whiteout (a character device 0:0, overlayfs's mark of a
// removed name) or anything else (reported, never applied). A directory
// whose earlier contents are hidden (overlayfs's opaque directory: it was
// removed and made anew) carries the PAX record paxOpaque.
const paxOpaque = "PTC.opaque"

// Kind is what a Change does.
type Kind int

// Kinds of change.
const (
	KindFile    Kind = iota // create or replace a regular file with Body
	KindDir                 // make sure a directory exists
	KindSymlink             // create or replace a symlink to Target
	KindRemove              // remove the name (a file or a whole tree)
	KindSpecial             // a FIFO, socket or device: not applied
)

// Change is one entry of a change stream. Body is valid only during the
// callback.
type Change struct {
	Path    string // clean, workspace-relative
	Kind    Kind
	Mode    fs.FileMode // permission bits (and setuid/setgid/sticky)
	ModTime time.Time
	Size    int64
	Target  string // KindSymlink
	Opaque  bool   // KindDir: names not in the stream below it are gone
	Body    io.Reader
}

// writeChanges streams the upper directory at root.
func writeChanges(w io.Writer, root string) error {
	tw := tar.NewWriter(w)
	if err := writeDir(tw, root, ""); err != nil {
		return err
	}
	return tw.Close()
}

func writeDir(tw *tar.Writer, root, rel string) error {
	entries, err := os.ReadDir(filepath.Join(root, rel))
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := path.Join(rel, e.Name())
		full := filepath.Join(root, name)
		info, err := os.Lstat(full)
		if err != nil {
			return err
		}
		mode := info.Mode()
		hdr := &tar.Header{Name: name, Mode: tarMode(mode), ModTime: info.ModTime(), Format: tar.FormatPAX}
		switch {
		case mode.IsDir():
			hdr.Typeflag, hdr.Name = tar.TypeDir, name+"/"
			if isOpaque(full) {
				hdr.PAXRecords = map[string]string{paxOpaque: "y"}
			}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			if err := writeDir(tw, root, name); err != nil {
				return err
			}
		case mode.IsRegular():
			hdr.Typeflag, hdr.Size = tar.TypeReg, info.Size()
			if err := writeFile(tw, hdr, full); err != nil {
				return err
			}
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return err
			}
			hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, target
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		case mode&fs.ModeCharDevice != 0 && isWhiteout(info):
			hdr.Typeflag = tar.TypeChar
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		default:
			hdr.Typeflag = tar.TypeFifo
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(tw *tar.Writer, hdr *tar.Header, full string) error {
	f, err := os.Open(full)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	// The file cannot change under us: everything else in the sandbox
	// was killed before the layer is read.
	_, err = io.CopyN(tw, f, hdr.Size)
	return err
}

// tarMode is the permission bits of mode as tar spells them.
func tarMode(mode fs.FileMode) int64 {
	m := int64(mode.Perm())
	for _, b := range []struct {
		bit fs.FileMode
		tar int64
	}{{fs.ModeSetuid, 0o4000}, {fs.ModeSetgid, 0o2000}, {fs.ModeSticky, 0o1000}} {
		if mode&b.bit != 0 {
			m |= b.tar
		}
	}
	return m
}

func isWhiteout(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Rdev == 0
}

func isOpaque(dir string) bool {
	buf := make([]byte, 8)
	n, err := unix.Lgetxattr(dir, "user.overlay.opaque", buf)
	return err == nil && n == 1 && buf[0] == 'y'
}

// ErrBadStream reports a change stream that does not follow the format
// (a name leaving the workspace, a type the helper never writes).
var ErrBadStream = errors.New("malformed change stream")

// ReadChanges calls fn for each change in the stream r. Names are
// checked: anything absolute, empty or climbing out with ".." stops the
// read with ErrBadStream, as does an unknown entry type.
func ReadChanges(r io.Reader, fn func(Change) error) error {
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBadStream, err)
		}
		p, ok := cleanName(hdr.Name)
		if !ok {
			return fmt.Errorf("%w: name %q", ErrBadStream, hdr.Name)
		}
		c := Change{Path: p, Mode: fs.FileMode(hdr.Mode).Perm(), ModTime: hdr.ModTime}
		if hdr.Mode&0o4000 != 0 {
			c.Mode |= fs.ModeSetuid
		}
		if hdr.Mode&0o2000 != 0 {
			c.Mode |= fs.ModeSetgid
		}
		if hdr.Mode&0o1000 != 0 {
			c.Mode |= fs.ModeSticky
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			c.Kind, c.Opaque = KindDir, hdr.PAXRecords[paxOpaque] == "y"
		case tar.TypeReg:
			c.Kind, c.Size, c.Body = KindFile, hdr.Size, tr
		case tar.TypeSymlink:
			c.Kind, c.Target = KindSymlink, hdr.Linkname
		case tar.TypeChar:
			c.Kind = KindRemove
		case tar.TypeFifo:
			c.Kind = KindSpecial
		default:
			return fmt.Errorf("%w: entry type %q for %s", ErrBadStream, hdr.Typeflag, hdr.Name)
		}
		if err := fn(c); err != nil {
			return err
		}
	}
}

// cleanName turns a stream name into a clean relative path, refusing one
// that is absolute, empty or leaves the root.
func cleanName(name string) (string, bool) {
	name = strings.TrimSuffix(name, "/")
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsRune(name, 0) {
		return "", false
	}
	p := path.Clean(name)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || p != name {
		return "", false
	}
	return p, true
}
