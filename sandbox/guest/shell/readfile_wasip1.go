//go:build wasip1

package shell

import (
	"os"
	"syscall"
)

// rawFile is a file descriptor used without an *os.File: on wasip1 the
// os package adds an fdstat query, a flags update and poller bookkeeping
// to every open, which grep over a tree pays once per file.
type rawFile int

func rawOpen(p string) (rawFile, error) {
	fd, err := syscall.Open(p, syscall.O_RDONLY, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return rawFile(fd), nil
}

func (f rawFile) read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

func (f rawFile) close() { syscall.Close(int(f)) }
