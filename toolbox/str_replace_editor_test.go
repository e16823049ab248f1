package toolbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestEditorInsertKeepsTheRestOfTheFileByteForByte(t *testing.T) {
	long := strings.Repeat("x", 3000)
	for _, tc := range []struct {
		name, before string
		at           int
		after        string
		fails        bool
	}{
		{"a file without a final newline keeps lacking one", "a\nb", 1, "a\nnew\nb", false},
		{"text after an unterminated last line starts a line of its own", "a\nb", 2, "a\nb\nnew\n", false},
		{"an empty file gets the line", "", 0, "new\n", false},
		{"a line too long to read whole is refused, not cut", long + "\nb\n", 1, long + "\nb\n", true},
		{"CRLF endings are refused, not converted", "a\r\nb\r\n", 1, "a\r\nb\r\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, _ := filepath.EvalSymlinks(t.TempDir())
			f := filepath.Join(ws, "f.txt")
			if err := os.WriteFile(f, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			s := newSet(testHost(), SandboxConfig{Workspace: ws})
			ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
			_, err := call(t, s.editor(), ctx, EditorIn{Command: "insert", Path: "f.txt", InsertLine: &tc.at, NewStr: "new"})
			if (err != nil) != tc.fails {
				t.Fatalf("insert error %v, want failure %v", err, tc.fails)
			}
			got, _ := os.ReadFile(f)
			if string(got) != tc.after {
				t.Fatalf("file is %q, want %q", clip.String(string(got), 80), clip.String(tc.after, 80))
			}
		})
	}
}

func TestEditorUndoRestoresTheExactPreviousContent(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	f := filepath.Join(ws, "f.txt")
	if err := os.WriteFile(f, []byte("one\ntwo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSet(testHost(), SandboxConfig{Workspace: ws})
	ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
	if _, err := call(t, s.editor(), ctx, EditorIn{Command: "str_replace", Path: "f.txt", OldStr: "one", NewStr: "1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, s.editor(), ctx, EditorIn{Command: "undo_edit", Path: "f.txt"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(f); string(got) != "one\ntwo" {
		t.Fatalf("after undo the file is %q", got)
	}
}

func TestEditorUndoRefusesWhatItCouldNotCaptureExactly(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	f := filepath.Join(ws, "f.txt")
	if err := os.WriteFile(f, []byte("one\r\ntwo\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSet(testHost(), SandboxConfig{Workspace: ws})
	ctx := tools.WithEnv(context.Background(), &tools.Env{SessionID: "s"})
	if _, err := call(t, s.editor(), ctx, EditorIn{Command: "str_replace", Path: "f.txt", OldStr: "one", NewStr: "1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, s.editor(), ctx, EditorIn{Command: "undo_edit", Path: "f.txt"}); err == nil || !strings.Contains(err.Error(), "cannot be undone") {
		t.Fatalf("undo over CRLF: %v", err)
	}
	if got, _ := os.ReadFile(f); string(got) != "1\r\ntwo\r\n" {
		t.Fatalf("the refused undo changed the file to %q", got)
	}
}
