package session

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// Store faults a person can act on. Every error from a session directory
// wraps one of these (or ErrCorrupt, ErrLocked, ErrNotFound) with the
// session, the path and what to do.
var (
	// ErrPermission: this user may not read or write the session's files.
	ErrPermission = errors.New("permission denied")
	// ErrReadOnlyFS: the file system holding the home is mounted read-only.
	ErrReadOnlyFS = errors.New("read-only file system")
	// ErrDiskFull: no space (or quota) left for the session's files.
	ErrDiskFull = errors.New("no space left on the disk")
)

// storeError names a failed file operation on a session's directory in
// words a person can act on, keeping the cause for errors.Is.
func storeError(id, path, what string, err error) error {
	if err == nil {
		return nil
	}
	who := "session " + id
	if id == "" {
		who = "the session store"
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("%s: cannot %s: %w (%s): the file system is mounted read-only; use a writable --home or $PTC_HOME (nothing was changed)", who, what, ErrReadOnlyFS, path)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("%s: cannot %s: %w (%s): free some space and run the command again; what was written before is kept", who, what, ErrDiskFull, path)
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return fmt.Errorf("%s: cannot %s: %w (%s): check that this user owns the directory (ls -ld %s), or use another --home", who, what, ErrPermission, path, path)
	}
	return fmt.Errorf("%s: cannot %s (%s): %w", who, what, path, err)
}

// isFault reports whether err is one of the environment faults above, as
// opposed to damage in the files themselves.
func isFault(err error) bool {
	return errors.Is(err, ErrPermission) || errors.Is(err, ErrReadOnlyFS) || errors.Is(err, ErrDiskFull) ||
		errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) ||
		errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM)
}
