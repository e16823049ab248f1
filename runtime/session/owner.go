package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ownerFile is the lock file in a session directory. The process that
// runs the session holds an exclusive lock on it for as long as it has
// the session open and writes its pid into it; readers take a shared
// lock while they read the store. The kernel drops the locks when the
// process exits, however it exits, so a killed owner never leaves a
// stale lock behind.
const ownerFile = "owner"

// Holder says who has a session open for writing: a process on this
// machine (PID), or for a session kept in JetStream the holder of its
// lease, named by By (a worker and its machine).
type Holder struct {
	Live bool   `json:"live"`
	PID  int    `json:"pid,omitempty"`
	By   string `json:"by,omitempty"`
}

// owner is a held lock on a session's owner file.
type owner struct{ f *os.File }

// ownerWait bounds how long an exclusive lock waits for readers (a
// concurrent `ptc session show`) to finish before giving up.
const ownerWait = 2 * time.Second

// lockOwner takes the exclusive lock of dir's owner file and records
// this process's pid in it. A live owner gives ErrLocked naming its pid;
// a reader holding the shared lock is waited for briefly.
func lockOwner(dir, id string) (*owner, error) {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, storeError(id, dir, "open the session's lock file", err)
	}
	deadline := time.Now().Add(ownerWait)
	for {
		held, err := tryLock(f, true)
		if err != nil {
			f.Close()
			return nil, storeError(id, dir, "lock the session", err)
		}
		if held == lockFree {
			break
		}
		if held == lockWriter || time.Now().After(deadline) {
			pid := readPID(f)
			f.Close()
			return nil, inUse(id, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &owner{f: f}, nil
}

// lockReader takes the shared lock of dir's owner file: it fails with
// ErrLocked (naming the pid) while an owner has the session open.
func lockReader(dir, id string) (*owner, error) {
	f, err := os.Open(filepath.Join(dir, ownerFile))
	if errors.Is(err, os.ErrNotExist) {
		// A session made before lock files existed, or on a read-only
		// home: nothing can be holding it.
		return &owner{}, nil
	}
	if err != nil {
		return nil, storeError(id, dir, "open the session's lock file", err)
	}
	held, err := tryLock(f, false)
	if err != nil {
		f.Close()
		return nil, storeError(id, dir, "lock the session for reading", err)
	}
	if held != lockFree {
		pid := readPID(f)
		f.Close()
		return nil, inUse(id, pid)
	}
	return &owner{f: f}, nil
}

func (o *owner) release() error {
	if o == nil || o.f == nil {
		return nil
	}
	err := o.f.Close()
	o.f = nil
	return err
}

// holderOf reports whether an owner holds dir's session, without taking
// any lock.
func holderOf(dir string) Holder {
	f, err := os.Open(filepath.Join(dir, ownerFile))
	if err != nil {
		return Holder{}
	}
	defer f.Close()
	if probeLock(f) != lockWriter {
		return Holder{}
	}
	return Holder{Live: true, PID: readPID(f)}
}

func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	return pid
}

func inUse(id string, pid int) error {
	who := "another ptc process"
	if pid > 0 {
		who = fmt.Sprintf("another ptc process (pid %d)", pid)
	}
	return fmt.Errorf("session %s is in use by %s: %w; follow it with `ptc session show %s --follow`, or wait for it to finish", id, who, ErrLocked, id)
}

// lockState is what a lock attempt or probe found.
type lockState int

const (
	lockFree   lockState = iota
	lockShared           // someone holds the shared lock
	lockWriter           // an owner holds the exclusive lock
)
