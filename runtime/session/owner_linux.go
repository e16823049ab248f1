package session

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Open-file-description locks: held per open file, released when it is
// closed or the process dies, and queryable without taking them.

// tryLock takes the lock (exclusive or shared) without waiting. When it
// is not free it reports who holds it.
func tryLock(f *os.File, exclusive bool) (lockState, error) {
	lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: io.SeekStart}
	if exclusive {
		lk.Type = unix.F_WRLCK
	}
	err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	if err == nil {
		return lockFree, nil
	}
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return probeLock(f), nil
	}
	return lockFree, err
}

// probeLock asks who would block an exclusive lock, without taking one.
func probeLock(f *os.File) lockState {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return lockFree
	}
	switch lk.Type {
	case unix.F_WRLCK:
		return lockWriter
	case unix.F_RDLCK:
		return lockShared
	}
	return lockFree
}
