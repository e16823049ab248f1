package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRunWritesAndReadsInsideTheWorkspace(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	got := probeRun(t, h, ws, WorkspaceWrite, "write a.txt hello\nread a.txt\nread "+ws+"/a.txt\nwrite /tmp/x t\nread /tmp/x")
	want := []string{"OK", "DATA hello", "DATA hello", "OK", "DATA t"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestStaleTmpDirectoriesOfEarlierVersionsAreRemoved(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, legacyTmpPrefix+"old")
	fresh := filepath.Join(dir, legacyTmpPrefix+"fresh")
	other := filepath.Join(dir, "someone-else")
	for _, d := range []string{old, fresh, other} {
		must(t, os.MkdirAll(filepath.Join(d, "f"), 0o755))
	}
	long := time.Now().Add(-48 * time.Hour)
	must(t, os.Chtimes(old, long, long))
	must(t, os.Chtimes(other, long, long))
	removeStaleTmp(dir, time.Now())
	for d, want := range map[string]bool{old: false, fresh: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
