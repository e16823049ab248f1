package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

func mkfile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestProjectInstructions(t *testing.T) {
	t.Run("no AGENTS.md gives an empty section", func(t *testing.T) {
		s, notes := harness.ProjectInstructions(t.TempDir())
		if s.Text != "" || len(notes) != 0 {
			t.Fatalf("section %q notes %q", s.Text, notes)
		}
	})
	t.Run("the repository root's file comes before the workspace's", func(t *testing.T) {
		repo := t.TempDir()
		mkfile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
		mkfile(t, filepath.Join(repo, "AGENTS.md"), "Run go test ./... before committing.\n")
		mkfile(t, filepath.Join(repo, "svc", "AGENTS.md"), "This service uses {{tabs}}, not spaces.\n")
		mkfile(t, filepath.Join(repo, "svc", "api", "x.go"), "package api\n")
		s, notes := harness.ProjectInstructions(filepath.Join(repo, "svc", "api"))
		outer, inner := strings.Index(s.Text, "Run go test"), strings.Index(s.Text, "{{tabs}}")
		if outer < 0 || inner < outer || len(notes) != 0 || !s.Verbatim {
			t.Fatalf("notes %q verbatim %v\n%s", notes, s.Verbatim, s.Text)
		}
		if !strings.Contains(s.Text, `<AGENTS.md path="svc/AGENTS.md">`) {
			t.Fatalf("the files are not named:\n%s", s.Text)
		}
	})
	t.Run("outside a repository only the workspace's own file counts", func(t *testing.T) {
		parent := t.TempDir()
		mkfile(t, filepath.Join(parent, "AGENTS.md"), "parent rules\n")
		ws := filepath.Join(parent, "ws")
		mkfile(t, filepath.Join(ws, "AGENTS.md"), "workspace rules\n")
		s, _ := harness.ProjectInstructions(ws)
		if strings.Contains(s.Text, "parent rules") || !strings.Contains(s.Text, "workspace rules") {
			t.Fatalf("section:\n%s", s.Text)
		}
	})
	t.Run("a symlink out of the repository is not followed", func(t *testing.T) {
		secret := filepath.Join(t.TempDir(), "id_rsa")
		mkfile(t, secret, "PRIVATE KEY\n")
		repo := t.TempDir()
		mkfile(t, filepath.Join(repo, ".git", "HEAD"), "x")
		if err := os.Symlink(secret, filepath.Join(repo, "AGENTS.md")); err != nil {
			t.Fatal(err)
		}
		s, notes := harness.ProjectInstructions(repo)
		if strings.Contains(s.Text, "PRIVATE KEY") || len(notes) != 1 {
			t.Fatalf("section %q notes %q", s.Text, notes)
		}
	})
	t.Run("a FIFO does not hang and a huge file is cut", func(t *testing.T) {
		repo := t.TempDir()
		mkfile(t, filepath.Join(repo, ".git", "HEAD"), "x")
		if err := syscall.Mkfifo(filepath.Join(repo, "AGENTS.md"), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		ws := filepath.Join(repo, "ws")
		mkfile(t, filepath.Join(ws, "AGENTS.md"), strings.Repeat("rule line\n", 10000))
		s, notes := harness.ProjectInstructions(ws)
		if len(notes) != 2 || !strings.Contains(notes[0], "not a regular file") || !strings.Contains(notes[1], "cut to its first 32 KiB") {
			t.Fatalf("notes %q", notes)
		}
		if len(s.Text) > 34<<10 {
			t.Fatalf("section is %d bytes", len(s.Text))
		}
	})
}

func TestProjectInstructionsAreOneByteStableSystemSection(t *testing.T) {
	home := newHome(t)
	ws := t.TempDir()
	mkfile(t, filepath.Join(ws, "AGENTS.md"), "Always answer in haiku.\n")
	model := writeScript(t, t.TempDir(), "one", "two")
	s := open(t, home, harness.Options{Settings: session.Settings{Workspace: ws, Model: "script:" + model}})
	defer s.Close()
	run(t, s, "first")
	mkfile(t, filepath.Join(ws, "AGENTS.md"), "Edited mid-session.\n")
	run(t, s, "second")
	var headers []string
	for _, e := range s.Events() {
		if e.Type == session.TypeRequestHeader {
			headers = append(headers, string(e.Data))
		}
	}
	if len(headers) != 1 || !strings.Contains(headers[0], "Always answer in haiku.") {
		t.Fatalf("want one request/header carrying the instructions, got %d:\n%q", len(headers), headers)
	}
}
