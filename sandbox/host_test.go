package sandbox

import (
	"testing"
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
