//go:build !linux

package session

import (
	"errors"
	"os"
	"syscall"
)

// flock locks, where open-file-description locks are missing. A probe has
// to take the shared lock for a moment, which an owner waiting in
// lockOwner tolerates.

func tryLock(f *os.File, exclusive bool) (lockState, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if err == nil {
		return lockFree, nil
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return probeLock(f), nil
	}
	return lockFree, err
}

func probeLock(f *os.File) lockState {
	g, err := os.Open(f.Name())
	if err != nil {
		return lockFree
	}
	defer g.Close()
	if syscall.Flock(int(g.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil {
		return lockWriter
	}
	if syscall.Flock(int(g.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return lockShared
	}
	return lockFree
}
