// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). The read
// builtin must leave what follows its line for the next reader, so it
// read one byte per call: in the guest each is a host call (894 k of them
// for a 10 k-line `while read` over a file). On a seekable input it now
// reads a block and seeks back over what it did not use, as bash does;
// on a pipe it still reads a byte at a time, as bash does there too.

package interp

import (
	"io"
	"os"
)

// readAheadSize is how much read takes from a seekable input at once.
const readAheadSize = 4096

// readAhead serves read's bytes from a block of a seekable input.
type readAhead struct {
	rs  io.ReadSeeker
	buf []byte
	off int
}

func (a *readAhead) Read(p []byte) (int, error) {
	if a.off == len(a.buf) {
		n, err := a.rs.Read(a.buf[:cap(a.buf)])
		a.buf, a.off = a.buf[:n], 0
		if n == 0 {
			return 0, err
		}
	}
	n := copy(p, a.buf[a.off:])
	a.off += n
	return n, nil
}

// ReadByte serves readChars a byte at a time from the block.
func (a *readAhead) ReadByte() (byte, error) {
	var b [1]byte
	for {
		n, err := a.Read(b[:])
		if n == 1 {
			return b[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// giveBack seeks the input back over the bytes read ahead but not used.
func (a *readAhead) giveBack() error {
	left := len(a.buf) - a.off
	a.buf, a.off = a.buf[:0], 0
	if left == 0 {
		return nil
	}
	_, err := a.rs.Seek(int64(-left), io.SeekCurrent)
	return err
}

// readAheadOf returns a readAhead over in when in is seekable, remembering
// per file whether it is (a pipe's Seek fails; asking costs a host call).
func (r *Runner) readAheadOf(in io.Reader) (*readAhead, bool) {
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
	if r.ptc.readBuf == nil {
		r.ptc.readBuf = make([]byte, 0, readAheadSize)
	}
	return &readAhead{rs: rs, buf: r.ptc.readBuf[:0]}, true
}
