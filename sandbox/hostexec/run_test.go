package hostexec

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// runner returns a Runner with a HOME of its own, skipping the test when
// bwrap cannot run here (failing instead under PTC_REQUIRE_TOOLS=1).
func runner(t *testing.T) *Runner {
	t.Helper()
	r := NewRunner(Config{Root: t.TempDir()})
	if err := r.Available(); err != nil {
		sharedtest.Unavailable(t, "bwrap cannot run here: %v", err)
	}
	return r
}

type run struct {
	res     Result
	stdout  string
	stderr  string
	changes []Change
}

func runSh(t *testing.T, r *Runner, ws, script string, writable bool) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	var got []Change
	res, err := r.Run(ctx, Spec{Path: "/bin/sh", Args: []string{"sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"},
		Dir: ws, Workspace: ws, Writable: writable, LayerSize: 64 << 20, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Apply: func(r io.Reader) error {
			return ReadChanges(r, func(c Change) error {
				if c.Body != nil {
					b, _ := io.ReadAll(c.Body)
					c.Target = string(b) // keep the bytes for the test
					c.Body = nil
				}
				got = append(got, c)
				return nil
			})
		}})
	if err != nil {
		t.Fatalf("run %q: %v (stderr %s)", script, err, errb.String())
	}
	return run{res, out.String(), errb.String(), got}
}

func TestAProgramsWritesComeBackAsChanges(t *testing.T) {
	r := runner(t)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a"), []byte("A"), 0o644)
	os.MkdirAll(filepath.Join(ws, "old"), 0o755)
	os.WriteFile(filepath.Join(ws, "old", "x"), []byte("X"), 0o644)
	got := runSh(t, r, ws, "echo out; echo err >&2; echo new > b; rm a; rm -r old; mkdir old; echo y > old/y; ln -s b l; exit 3", true)
	if got.res.ExitCode != 3 || got.stdout != "out\n" || got.stderr != "err\n" {
		t.Fatalf("got %+v", got)
	}
	var kinds []string
	for _, c := range got.changes {
		kinds = append(kinds, c.Path+":"+[]string{"file", "dir", "symlink", "remove", "special"}[c.Kind])
	}
	if want := "a:remove b:file l:symlink old:dir old/y:file"; strings.Join(kinds, " ") != want {
		t.Fatalf("changes %q, want %q", kinds, want)
	}
	for _, c := range got.changes {
		if c.Path == "old" && !c.Opaque {
			t.Fatal("a directory removed and made anew must be opaque")
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a")); string(b) != "A" {
		t.Fatal("the program wrote the workspace directly")
	}
}
