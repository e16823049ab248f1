package shell

import (
	"errors"
	"io"
	"os"
	"slices"
)

// wholeLimit is how much of a named input the text builtins read in one go;
// a larger file is streamed instead so `head -1 huge.log` stays cheap.
const wholeLimit = 1 << 20

// readUpTo appends the contents of the file at p to buf, reading until end
// of file or until more than limit bytes are in, in which case big is
// true and the caller should stream the file instead. Passing a reused
// buf keeps grep over many files from allocating a buffer per file. The
// open and reads go through rawOpen, which on wasip1 skips the os
// package's per-file bookkeeping (about half the cost of a small file).
func readUpTo(buf []byte, p string, limit int) (data []byte, big bool, err error) {
	f, err := rawOpen(p)
	if err != nil {
		return buf, false, err
	}
	defer f.close()
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(4096, cap(buf)))
		}
		n, err := f.read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case errors.Is(err, io.EOF) || err == nil && n == 0:
			return buf, false, nil
		case err != nil:
			var pe *os.PathError
			if !errors.As(err, &pe) {
				err = &os.PathError{Op: "read", Path: p, Err: err}
			}
			return buf, false, err
		case len(buf) > limit:
			return buf, true, nil
		}
	}
}
