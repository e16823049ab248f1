package main

import (
	"os"
	"path/filepath"
	"testing"
)

const rewindScript = `{"replies": [
 {"tool_calls": [{"name": "read", "arguments": {"file_path": "notes.txt"}}]},
 {"tool_calls": [{"name": "edit", "arguments": {"file_path": "notes.txt", "old_string": "hello world", "new_string": "goodbye world"}}]},
 {"text": "Edited."}
]}`

// /diff shows a turn's edit in the TUI, /rewind lists the turn with its
// file, /rewind 1 puts the file back, and !cmd runs a command without
// the model (the script has no reply left for one).
func TestRewindAndDiffInTheTUI(t *testing.T) {
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(root, "rw.json")
	write(t, script, rewindScript)
	notes := filepath.Join(ws, "notes.txt")
	write(t, notes, "hello world\n")
	env := []string{"PATH=" + filepath.Dir(ptcBin) + ":" + os.Getenv("PATH"), "HOME=" + home, "PTC_HOME=" + home,
		"XDG_CACHE_HOME=" + cacheDir, "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=$ "}
	p := newPane(t, ws, env)
	p.typed(ptcBin + " --preset standard --model script:" + script)
	p.keys("Enter")
	p.waitText("/help", "ctrl+c cancels, twice exits")
	p.typed("edit the notes")
	p.keys("Enter")
	p.waitText("Edited.")
	p.idle()
	p.typed("/diff")
	p.keys("Enter")
	p.waitText("-hello world", "+goodbye world")
	p.typed("/rewind")
	p.keys("Enter")
	p.waitText("turn 1: edit the notes", "  notes.txt")
	p.typed("/rewind 1")
	p.keys("Enter")
	p.waitText("rewound files and conversation to before turn 1: 1 path(s) put back")
	if b, _ := os.ReadFile(notes); string(b) != "hello world\n" {
		t.Fatalf("after /rewind 1 notes.txt is %q", b)
	}
	// !cmd runs in the sandbox and shows its output, with no model call.
	p.typed("!echo bang-$((6*7)); cat notes.txt; exit 3")
	p.keys("Enter")
	p.waitText("bang-42", "hello world", "exit 3")
}
