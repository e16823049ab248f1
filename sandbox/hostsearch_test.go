package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func TestSearchSeesTheMountsACommandSees(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, spill, ro, other := filepath.Join(base, "ws"), filepath.Join(base, "spill"), filepath.Join(base, "ro"), filepath.Join(base, "other")
	for dir, file := range map[string]string{ws: "a.txt", spill: "result-1.txt", ro: "lib.txt", other: "secret.txt"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := NewHost(Config{ReadOnlyDirs: []string{ro}})
	defer h.Close(context.Background())
	scope := Scope{Workspace: ws, Mode: ReadOnly, Session: "s", Spill: spill}
	search := func(op, path string) proto.FileResponse {
		t.Helper()
		r, err := h.Search(context.Background(), scope, op, proto.FileRequest{Path: path, Pattern: map[string]string{proto.OpGrep: "needle", proto.OpGlob: "*.txt"}[op]})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for name, dir := range map[string]string{"the workspace": ws, "the session's spill": spill, "a read-only dir": ro} {
		t.Run("grep and glob search "+name, func(t *testing.T) {
			if r := search(proto.OpGrep, dir); r.Error != nil || r.Total != 1 {
				t.Errorf("grep %+v", r)
			}
			if r := search(proto.OpGlob, dir); r.Error != nil || r.Total != 1 {
				t.Errorf("glob %+v", r)
			}
		})
	}
	t.Run("another directory of the host is not found", func(t *testing.T) {
		// (under /tmp, as test directories are, it is the empty private /tmp)
		if r := search(proto.OpGrep, other); r.Error == nil || r.Error.Code != proto.ErrNotFound {
			t.Errorf("%+v", r.Error)
		}
		if r := search(proto.OpGrep, "/etc"); r.Error == nil || !strings.Contains(r.Error.Message, "outside the sandbox") {
			t.Errorf("%+v", r.Error)
		}
	})
	t.Run("another session's spill is not mounted", func(t *testing.T) {
		s2 := Scope{Workspace: ws, Mode: ReadOnly, Session: "t"}
		r, err := h.Search(context.Background(), s2, proto.OpGrep, proto.FileRequest{Path: spill, Pattern: "needle"})
		if err != nil || r.Error == nil {
			t.Errorf("%v %+v", err, r)
		}
	})
	t.Run("an unknown operation is refused", func(t *testing.T) {
		if _, err := h.Search(context.Background(), scope, proto.OpRead, proto.FileRequest{Path: ws}); err == nil {
			t.Error("no error")
		}
	})
}

func TestSearchWaitsForASlotOnlyWhileItsContextLasts(t *testing.T) {
	h := NewHost(Config{MaxRunning: 1})
	defer h.Close(context.Background())
	h.running <- struct{}{} // the only slot is taken
	defer func() { <-h.running }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := h.Search(ctx, Scope{Workspace: t.TempDir(), Mode: ReadOnly}, proto.OpGlob, proto.FileRequest{Path: "/", Pattern: "*"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v", err)
	}
}
