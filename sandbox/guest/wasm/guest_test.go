package guestwasm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func TestShellInTheWasmGuest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	g := newGuest(t, dir)
	tests := []struct {
		name, command, stdin, want string
		code                       int
	}{
		{"a pipeline passes output along", "cat a.txt | head -n 2 | wc -l", "", "2\n", 0},
		{"command substitution captures output", `echo "n=$(cat a.txt | wc -l)"`, "", "n=3\n", 0},
		{"redirections write and append files", "echo x > o; echo y >> o; cat < o 2>&1", "", "x\ny\n", 0},
		{"a here-document feeds stdin", "cat <<EOF\nhi $HOME\nEOF", "", "hi /home/u\n", 0},
		{"and-or lists short-circuit", "false && echo no || echo yes", "", "yes\n", 0},
		{"loops and functions work", "f() { echo \"<$1>\"; }; for i in 1 2; do f $i; done", "", "<1>\n<2>\n", 0},
		{"the request stdin reaches the command", "cat", "in\n", "in\n", 0},
		{"an unknown command exits 127", "gcc x.c", "", "", 127},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := g.call(proto.Request{Op: proto.OpShell, Command: tt.command, Cwd: dir, Stdin: tt.stdin, Env: map[string]string{"HOME": "/home/u"}})
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

func TestFileOpsInTheWasmGuest(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	os.WriteFile(p, []byte("one\ntwo\n"), 0o644)
	g := newGuest(t, dir)
	resp := g.file(proto.OpRead, proto.FileRequest{Path: p})
	if resp.Error != nil || len(resp.Lines) != 2 || resp.Lines[1].Text != "two" || resp.Stat.SHA256 == "" {
		t.Errorf("read: %+v", resp)
	}
	resp = g.file(proto.OpStat, proto.FileRequest{Path: filepath.Join(dir, "missing")})
	if resp.Error == nil || resp.Error.Code != proto.ErrNotFound {
		t.Errorf("stat of a missing file: %+v", resp.Error)
	}
}

func TestPersistentShellKeepsState(t *testing.T) {
	dir := t.TempDir()
	g := newGuest(t, dir)
	req := proto.Request{Op: proto.OpShell, Cwd: dir, Persistent: true, Env: map[string]string{"A": "1"}}
	for _, c := range []string{"mkdir sub && cd sub && X=2", "f() { echo f; }"} {
		req.Command = c
		if code, _, errs := g.call(req); code != 0 {
			t.Fatalf("%q: %d %s", c, code, errs)
		}
	}
	req.Command = "pwd; echo $A$X; f"
	if _, out, _ := g.call(req); out != filepath.Join(dir, "sub")+"\n12\nf\n" {
		t.Errorf("state was lost: %q", out)
	}
	req.Command = "exit 3"
	if code, _, _ := g.call(req); code != 3 {
		t.Errorf("exit status %d", code)
	}
	req.Command = "pwd"
	if _, out, _ := g.call(req); out != dir+"\n" {
		t.Errorf("after exit the shell should start afresh, got %q", out)
	}
}

func TestGuestEnvironmentAndRandomness(t *testing.T) {
	dir := t.TempDir()
	g := newGuest(t, dir)
	_, out, _ := g.call(proto.Request{Op: proto.OpShell, Cwd: dir, Command: "env", Env: map[string]string{"ONLY": "me"}})
	// Nothing from the host process; PWD is the shell's own, exported as
	// bash exports it.
	if want := "ONLY=me\nPWD=" + dir + "\n"; out != want {
		t.Errorf("the environment is not exactly Request.Env (and PWD): %q, want %q", out, want)
	}
	_, a, _ := g.call(proto.Request{Op: proto.OpShell, Cwd: dir, Command: "echo $RANDOM$RANDOM"})
	g2 := newGuest(t, dir)
	_, b, _ := g2.call(proto.Request{Op: proto.OpShell, Cwd: dir, Command: "echo $RANDOM$RANDOM"})
	if a == b {
		t.Errorf("$RANDOM repeated across instances: %q", a)
	}
}

func TestFileWritesInTheWasmGuest(t *testing.T) {
	dir := t.TempDir()
	g := newGuest(t, dir)
	p := filepath.Join(dir, "new", "f.txt")
	w := g.file(proto.OpWrite, proto.FileRequest{Path: p, Content: "a\na\n", ExpectAbsent: true})
	if w.Error != nil {
		t.Fatalf("write: %+v", w.Error)
	}
	e := g.file(proto.OpEdit, proto.FileRequest{Path: p, OldString: "a", NewString: "b"})
	if e.Error == nil || e.Error.Code != proto.ErrNotUnique || e.Error.Count != 2 {
		t.Errorf("edit: %+v", e.Error)
	}
}
