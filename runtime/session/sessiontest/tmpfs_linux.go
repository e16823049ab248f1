package sessiontest

import (
	"syscall"
	"testing"
)

// MountTmpfs mounts a private (mode 0700) tmpfs of size ("12m") on a new
// directory, unmounted when the test ends, so a test can fill a real disk
// or remount it read-only. It skips where this process may not mount
// (mounting needs root); the faked free-space probe covers the logic
// there.
func MountTmpfs(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}
