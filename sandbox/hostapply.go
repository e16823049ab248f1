package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// applier applies a host program's changes to the workspace through the
// instance's rootfs.FS: the same policy (protected paths, symlink
// targets, read-only mode) and the same quota as the guest's own writes.
// A change the policy refuses is recorded, not fatal: the rest still
// lands, and the note says what did not.
type applier struct {
	fs      experimentalsys.FS
	full    func() bool // a write failed for want of room
	room    string      // what ran out of room, for the note
	seen    map[string]bool
	opaque  []string
	refused []string
	failed  []string
	quota   bool
	applied int
}

// maxListed bounds the paths a note names.
const maxListed = 5

func (a *applier) apply(c hostexec.Change) error {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	a.seen[c.Path] = true
	var e experimentalsys.Errno
	switch c.Kind {
	case hostexec.KindDir:
		e = a.dir(c)
	case hostexec.KindFile:
		e = a.file(c)
	case hostexec.KindSymlink:
		e = a.replace(c.Path, func() experimentalsys.Errno { return a.fs.Symlink(c.Target, c.Path) })
	case hostexec.KindRemove:
		e = a.remove(c.Path)
	default:
		a.failed = append(a.failed, c.Path+" (a FIFO, socket or device)")
		return nil
	}
	a.record(c.Path, e)
	return nil
}

func (a *applier) record(p string, e experimentalsys.Errno) {
	switch {
	case e == 0:
		a.applied++
	case e == experimentalsys.EACCES || e == experimentalsys.EPERM || e == experimentalsys.EROFS:
		a.refused = append(a.refused, p)
	case e == experimentalsys.EIO && a.full():
		a.quota = true
		a.failed = append(a.failed, p)
	default:
		a.failed = append(a.failed, p+" ("+e.Error()+")")
	}
}

func (a *applier) dir(c hostexec.Change) experimentalsys.Errno {
	if c.Opaque {
		a.opaque = append(a.opaque, c.Path)
	}
	// A directory in the layer is often only a copy of one that holds a
	// change (overlayfs copies the parents up): when it exists with the
	// same mode there is nothing to do, even in a protected place.
	st, e := a.fs.Lstat(c.Path)
	switch {
	case e == experimentalsys.ENOENT:
		return a.fs.Mkdir(c.Path, c.Mode.Perm())
	case e != 0:
		return e
	case st.Mode.IsDir() && st.Mode.Perm() == c.Mode.Perm():
		return 0
	case st.Mode.IsDir():
		return a.fs.Chmod(c.Path, c.Mode.Perm())
	}
	if e := a.remove(c.Path); e != 0 {
		return e
	}
	return a.fs.Mkdir(c.Path, c.Mode.Perm())
}

// file writes the new content beside the old file and renames it into
// place, so a reader never sees half a file and a failure leaves the old
// one.
func (a *applier) file(c hostexec.Change) experimentalsys.Errno {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(c.Path), ".ptc-apply-"+hex.EncodeToString(rnd[:]))
	f, e := a.fs.OpenFile(tmp, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_EXCL, 0o600)
	if e != 0 {
		return e
	}
	buf := make([]byte, 64<<10)
	for e == 0 {
		n, err := c.Body.Read(buf)
		for off := 0; off < n && e == 0; {
			var w int
			w, e = f.Write(buf[off:n])
			off += w
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			e = experimentalsys.EIO
		}
	}
	if ce := f.Close(); e == 0 {
		e = ce
	}
	if e == 0 {
		e = a.fs.Chmod(tmp, c.Mode.Perm()) // no setuid or setgid bits from a sandbox
	}
	if e == 0 && !c.ModTime.IsZero() {
		ns := c.ModTime.UnixNano()
		e = a.fs.Utimens(tmp, ns, ns)
	}
	if e == 0 {
		e = a.replace(c.Path, func() experimentalsys.Errno { return a.fs.Rename(tmp, c.Path) })
	}
	if e != 0 {
		_ = a.fs.Unlink(tmp)
	}
	return e
}

// replace runs put; when a directory (or, for a symlink, anything) is in
// the way it is removed first.
func (a *applier) replace(p string, put func() experimentalsys.Errno) experimentalsys.Errno {
	e := put()
	switch e {
	case experimentalsys.EEXIST, experimentalsys.EISDIR, experimentalsys.ENOTEMPTY:
		if e := a.remove(p); e != 0 {
			return e
		}
		return put()
	}
	return e
}

// remove deletes p, a whole tree if it is a directory; a missing p is
// fine.
func (a *applier) remove(p string) experimentalsys.Errno {
	st, e := a.fs.Lstat(p)
	switch {
	case e == experimentalsys.ENOENT:
		return 0
	case e != 0:
		return e
	case !st.Mode.IsDir():
		return a.fs.Unlink(p)
	}
	names, e := a.list(p)
	if e != 0 {
		return e
	}
	for _, n := range names {
		if e := a.remove(path.Join(p, n)); e != 0 {
			return e
		}
	}
	return a.fs.Rmdir(p)
}

// list reads a directory's names and closes it before returning, so a
// deep tree never holds more than one directory open.
func (a *applier) list(dir string) ([]string, experimentalsys.Errno) {
	d, e := a.fs.OpenFile(dir, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if e != 0 {
		return nil, e
	}
	defer d.Close()
	ents, e := d.Readdir(-1)
	names := make([]string, 0, len(ents))
	for _, de := range ents {
		names = append(names, de.Name)
	}
	return names, e
}

// finish removes what an opaque directory hid: names below it that exist
// in the workspace but were not in the stream.
func (a *applier) finish() {
	for _, dir := range a.opaque {
		names, e := a.list(dir)
		if e != 0 {
			continue
		}
		for _, n := range names {
			p := path.Join(dir, n)
			if !a.seen[p] {
				a.record(p, a.remove(p))
			}
		}
	}
}

// note says what did not land, for the program's stderr ("" when all
// did).
func (a *applier) note(program string) string {
	var parts []string
	if len(a.refused) > 0 {
		parts = append(parts, fmt.Sprintf("%d change(s) by %s were refused, because the sandbox keeps these paths read-only (.git, .ptc, .mcp.json and the like) or they would leave the workspace: %s",
			len(a.refused), program, listed(a.refused)))
	}
	if a.quota {
		parts = append(parts, fmt.Sprintf("%s: %d change(s) by %s were not applied: %s",
			a.room, len(a.failed), program, listed(a.failed)))
	} else if len(a.failed) > 0 {
		parts = append(parts, fmt.Sprintf("%d change(s) by %s could not be applied: %s", len(a.failed), program, listed(a.failed)))
	}
	return strings.Join(parts, "; ")
}

func listed(ps []string) string {
	if len(ps) <= maxListed {
		return strings.Join(ps, ", ")
	}
	return strings.Join(ps[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(ps)-maxListed)
}

// quotaRoom and tmpRoom say what ran out when an applier's writes fail
// for want of room.
func quotaRoom(fs *rootfs.FS) string {
	return fmt.Sprintf("the session's workspace write quota (%s) is used up", byteSize(fs.QuotaLimit()))
}

func tmpRoom(fs *memfs.FS) string {
	return fmt.Sprintf("the private /tmp (%s) is full", byteSize(fs.Limit()))
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
