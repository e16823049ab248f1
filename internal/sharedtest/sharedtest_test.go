package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModuleRootHoldsGoMod(t *testing.T) {
	if _, err := os.Stat(filepath.Join(ModuleRoot(t), "go.mod")); err != nil {
		t.Fatal(err)
	}
}

func TestDirSkipsWhatIsAbsent(t *testing.T) {
	if os.Getenv("PTC_REQUIRE_TOOLS") == "1" {
		t.Skip("under PTC_REQUIRE_TOOLS=1 an absent path fails instead")
	}
	ran := false
	t.Run("absent", func(t *testing.T) {
		defer func() { ran = true }()
		Dir(t, "no-such-material-here")
		t.Fatal("Dir returned for an absent path")
	})
	if !ran {
		t.Fatal("the subtest did not run")
	}
}

// ending records how a helper ended a test instead of ending it.
type ending struct {
	testing.TB
	skipped, failed string
}

func (e *ending) Helper()                      {}
func (e *ending) Skip(args ...any)             { e.skipped = fmt.Sprint(args...) }
func (e *ending) Fatal(args ...any)            { e.failed = fmt.Sprint(args...) }
func (e *ending) Fatalf(f string, args ...any) { e.failed = fmt.Sprintf(f, args...) }

func TestUnavailableSkipsOrFailsUnderPTCRequireTools(t *testing.T) {
	for _, tc := range []struct {
		name, env     string
		skip, failure bool
	}{
		{"without PTC_REQUIRE_TOOLS it skips", "", true, false},
		{"under PTC_REQUIRE_TOOLS=1 it fails", "1", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PTC_REQUIRE_TOOLS", tc.env)
			e := &ending{TB: t}
			Unavailable(e, "no %s here", "frobnicator")
			if (e.skipped != "") != tc.skip || (e.failed != "") != tc.failure {
				t.Fatalf("skipped %q, failed %q", e.skipped, e.failed)
			}
			if !strings.Contains(e.skipped+e.failed, "no frobnicator here") {
				t.Fatalf("the message was lost: %q %q", e.skipped, e.failed)
			}
		})
	}
}
