// Package sharedtest finds test material kept outside the repository, in
// ../shared next to the module root (corpora and suites too large or too
// foreign to vendor). A test that needs it skips when it is absent and
// fails under PTC_REQUIRE_TOOLS=1, as CI sets it.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns ../shared/<rel…> beside the module root, skipping the test
// (or failing it under PTC_REQUIRE_TOOLS=1) when that path is absent.
func Dir(t testing.TB, rel ...string) string {
	t.Helper()
	dir := filepath.Join(append([]string{ModuleRoot(t), "..", "shared"}, rel...)...)
	if _, err := os.Stat(dir); err != nil {
		Unavailable(t, "the shared test material is not at %s", dir)
	}
	return dir
}

// ModuleRoot is the nearest directory above the working directory (a
// test's package directory) that holds go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}
