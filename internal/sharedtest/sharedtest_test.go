package sharedtest

import (
	"os"
	"path/filepath"
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
