// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). The read
// builtin must leave what follows its line for the next reader, so it
// read one byte per call: in the guest each is a host call (894 k of them
// for a 10 k-line `while read` over a file). On a seekable input it now
// reads a block, as bash does; on a pipe the pipe's own buffer serves it.
//
// Bash seeks back over the unused part of the block after every read, so
// the next read takes the same block again: two host calls and a 4 KiB
// copy per line. Here the block stays in one slot, shared by every runner
// of the process, until something else may read or write the file: a
// command run through the exec handler (a guest builtin or a host
// program, which read their standard input themselves), a redirection
// (it may open or duplicate the same file, and a write through it must
// land at bash's offset), an open through the open handler, mapfile,
// select, read -t, the end of Run, or a read of another input. Only then
// is the file sought back to where the shell's reading stopped, so each
// of them sees the offset bash would leave.

package interp

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// readAheadSize is how much read takes from a seekable input at once.
const readAheadSize = 4096

// readAhead is the slot: the block of one seekable input that read took
// and has not used yet. Its lock is held for a whole read, so a flush
// from another runner (a pipeline stage, a background job) waits for it.
type readAhead struct {
	mu  sync.Mutex
	rs  io.ReadSeeker // nil when the slot is empty
	buf []byte
	off int
}

// pendingAhead is the process's one slot.
var pendingAhead readAhead

// take makes rs the slot's input, giving the previous one its bytes
// back first, and leaves the slot locked: the caller unlocks it.
func (a *readAhead) take(rs io.ReadSeeker) *readAhead {
	a.mu.Lock()
	if a.rs != rs {
		a.giveBackLocked()
		a.rs = rs
		if a.buf == nil {
			a.buf = make([]byte, 0, readAheadSize)
		}
	}
	return a
}

// flushReadAhead seeks the slot's input back over the bytes read ahead
// but not used, and empties the slot. It is called before anything other
// than read may touch a file; when the slot is empty it costs a lock.
func flushReadAhead() {
	pendingAhead.mu.Lock()
	pendingAhead.giveBackLocked()
	pendingAhead.mu.Unlock()
}

func (a *readAhead) giveBackLocked() {
	if a.rs == nil {
		return
	}
	left := len(a.buf) - a.off
	a.buf, a.off = a.buf[:0], 0
	rs := a.rs
	a.rs = nil
	if left > 0 {
		rs.Seek(int64(-left), io.SeekCurrent) // a closed file: nobody can read it
	}
}

// fill reads the next block when the current one is used up; it reports
// false, with the input's error, when there is nothing more.
func (a *readAhead) fill() (bool, error) {
	if a.off < len(a.buf) {
		return true, nil
	}
	for {
		n, err := a.rs.Read(a.buf[:cap(a.buf)])
		a.buf, a.off = a.buf[:n], 0
		if n > 0 {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

func (a *readAhead) Read(p []byte) (int, error) {
	if ok, err := a.fill(); !ok {
		return 0, err
	}
	n := copy(p, a.buf[a.off:])
	a.off += n
	return n, nil
}

// ReadByte serves readChars a byte at a time from the block.
func (a *readAhead) ReadByte() (byte, error) {
	if ok, err := a.fill(); !ok {
		return 0, err
	}
	a.off++
	return a.buf[a.off-1], nil
}

// readLine appends to dst what comes before the next delim and consumes
// the delimiter; at the end of input it returns what there was and the
// input's error (io.EOF).
func (a *readAhead) readLine(delim byte, dst []byte) ([]byte, error) {
	for {
		if ok, err := a.fill(); !ok {
			return dst, err
		}
		rest := a.buf[a.off:]
		if i := bytes.IndexByte(rest, delim); i >= 0 {
			a.off += i + 1
			return append(dst, rest[:i]...), nil
		}
		dst = append(dst, rest...)
		a.off = len(a.buf)
	}
}

// seekableInput returns in as a ReadSeeker when it is a seekable file,
// remembering per file whether it is (a pipe's Seek fails; asking costs a
// host call).
func (r *Runner) seekableInput(in io.Reader) (io.ReadSeeker, bool) {
	if m, ok := in.(memReader); ok {
		in = m.Reader
	}
	rs, ok := in.(io.ReadSeeker)
	if !ok {
		return nil, false
	}
	if f, isFile := in.(*os.File); isFile {
		seekable, known := r.ptc.seekable[f]
		if !known {
			_, err := f.Seek(0, io.SeekCurrent)
			seekable = err == nil
			if r.ptc.seekable == nil || len(r.ptc.seekable) > 64 {
				r.ptc.seekable = map[*os.File]bool{} // a long-lived shell opens many
			}
			r.ptc.seekable[f] = seekable
		}
		if !seekable {
			return nil, false
		}
	}
	return rs, true
}
