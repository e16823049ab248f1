package sharedtest

import (
	"os"
	"os/exec"
	"testing"
)

// Tool returns the path of an external program a test drives (tmux, tsc,
// bwrap…), skipping the test without it, or failing it under
// PTC_REQUIRE_TOOLS=1, where CI has installed it.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("PTC_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (PTC_REQUIRE_TOOLS=1): %v", name, err)
		}
		t.Skipf("no %s here: %v", name, err)
	}
	return p
}
