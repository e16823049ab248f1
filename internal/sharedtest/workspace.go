package sharedtest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// StableWorkspace returns an empty directory whose path is the same on
// every run of the test from this checkout: ptc keeps a workspace's build
// caches by its path, so a test that runs a real toolchain (go test
// compiling the standard library) is slow once per checkout and name, not
// on every run. The directory is emptied before and after the test.
func StableWorkspace(t testing.TB, name string) string {
	t.Helper()
	base, err := os.UserCacheDir()
	if err != nil {
		return t.TempDir()
	}
	sum := sha256.Sum256([]byte(ModuleRoot(t)))
	dir := filepath.Join(base, "ptc-test-workspaces", hex.EncodeToString(sum[:6]), name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
