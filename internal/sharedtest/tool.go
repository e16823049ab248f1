package sharedtest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Unavailable ends a test that cannot run here for want of something
// outside the repository — a program, an installed package, test
// material, a kernel feature: it skips the test, or fails it under
// PTC_REQUIRE_TOOLS=1, where CI has installed everything, so a missing
// piece cannot pass CI as a skip. format and args say what is missing.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("PTC_REQUIRE_TOOLS") == "1" {
		t.Fatal(msg + " (required under PTC_REQUIRE_TOOLS=1)")
		return
	}
	t.Skip(msg)
}

// Tool returns the path of an external program a test drives (tmux, tsc,
// bwrap…), skipping the test without it, or failing it under
// PTC_REQUIRE_TOOLS=1, where CI has installed it.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Unavailable(t, "no %s here: %v", name, err)
	}
	return p
}

// Tools is Tool for each of names, in order.
func Tools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		Tool(t, n)
	}
}
