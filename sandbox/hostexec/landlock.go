package hostexec

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// With the network off a program still reaches path unix sockets: those
// that exist where it can see them, and those another program makes in a
// directory both can write. The workspace is always under an overlay,
// through which no socket of the layer below can be connected, HOME is
// the session's own, and /tmp is private; what is left is the
// workspace's cache directory, which every session of the workspace
// shares. Landlock (Linux 5.13) can forbid making a socket file: the
// helper allows it only beneath the directories of the program's own, so
// no socket can appear in the shared cache. Where Landlock is missing
// (older kernels, a seccomp filter that refuses its calls) this part is
// skipped: the cache is shared by one workspace's sessions only.

// restrictSockets confines the calling thread, and everything it starts
// from now on, to making socket files only beneath the allowed
// directories (those that exist). It reports whether Landlock applied.
func restrictSockets(allowed []string) (bool, error) {
	if landlockABI() < 1 {
		return false, nil
	}
	handled := uint64(unix.LANDLOCK_ACCESS_FS_MAKE_SOCK)
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&handled)), unsafe.Sizeof(handled), 0)
	if errno != 0 {
		return false, nil
	}
	defer unix.Close(int(fd))
	for _, dir := range allowed {
		d, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		attr := unix.LandlockPathBeneathAttr{Allowed_access: handled, Parent_fd: int32(d)}
		_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
		unix.Close(d)
		if errno != 0 {
			return false, errors.New("landlock: adding a rule: " + errno.Error())
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return false, err
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return false, errors.New("landlock: restricting: " + errno.Error())
	}
	return true, nil
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(abi)
}
