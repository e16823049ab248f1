package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestUnifiedDiff(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       []string
	}{
		{"identical texts have no hunks", "a\nb\n", "a\nb\n", nil},
		{"a new file is all additions", "", "x\ny\n", []string{"@@ -0,0 +1,2 @@", "+x", "+y"}},
		{"a deleted file is all removals", "x\n", "", []string{"@@ -1 +0,0 @@", "-x"}},
		{"one changed line keeps three lines of context", "1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nFOUR\n5\n6\n7\n",
			[]string{"@@ -1,7 +1,7 @@", " 1", " 2", " 3", "-4", "+FOUR", " 5", " 6", " 7"}},
		{"distant changes are separate hunks", "a\n1\n2\n3\n4\n5\n6\n7\n8\nz\n", "A\n1\n2\n3\n4\n5\n6\n7\n8\nZ\n",
			[]string{"@@ -1,4 +1,4 @@", "-a", "+A", " 1", " 2", " 3", "@@ -7,4 +7,4 @@", " 6", " 7", " 8", "-z", "+Z"}},
		{"an insertion in the middle", "a\nc\n", "a\nb\nc\n", []string{"@@ -1,2 +1,3 @@", " a", "+b", " c"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, l := range unifiedDiff(c.a, c.b) {
				if l.kind == '@' {
					got = append(got, l.text)
				} else {
					got = append(got, string(l.kind)+l.text)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestReadWorkspaceFileRefusesWhatCouldEscapeOrHang(t *testing.T) {
	ws := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	writeFile(t, filepath.Dir(outside), "secret", "KEY\n")
	writeFile(t, ws, "ok.txt", "fine\n")
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(ws, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	writeFile(t, ws, "big", strings.Repeat("x", maxDiffFile+1))
	writeFile(t, ws, "bin", "a\x00b")
	cases := []struct {
		name, path string
		found      bool
		note       string
	}{
		{"a regular file is read", "ok.txt", true, ""},
		{"a missing file is not found, without a note", "nope", false, ""},
		{"a symlink out of the workspace is refused", "link", false, "not readable here"},
		{"a FIFO is refused without blocking", "pipe", false, "not a regular file"},
		{"a huge file is not diffed", "big", false, "too large to diff"},
		{"a binary file is named as such", "bin", true, "binary file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, found, note := readWorkspaceFile(ws, filepath.Join(ws, c.path))
			if found != c.found || note != c.note {
				t.Fatalf("found %v note %q", found, note)
			}
		})
	}
	t.Run("a path outside the workspace is not even opened", func(t *testing.T) {
		tr := newTracker(ws)
		if ch := tr.start("c1", "write", `{"file_path":"../../etc/passwd","content":"x"}`); ch == nil || ch.note != "outside the workspace" {
			t.Fatalf("change %+v", ch)
		}
	})
}

func TestAttachMentions(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "a.go", "package a\n")
	writeFile(t, ws, "big.txt", strings.Repeat("y", maxAttachBytes+1))
	out, files, notes := attachMentions("see @a.go, @big.txt, @../x and @missing or mail@example.com", ws)
	if len(files) != 1 || files[0] != "a.go" || !strings.Contains(out, "<attached-file path=\"a.go\">\npackage a\n</attached-file>") {
		t.Fatalf("files %q prompt %q", files, out)
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "larger than") || !strings.Contains(notes[1], "outside the workspace") {
		t.Fatalf("notes %q", notes)
	}
}

func FuzzSplitAttachments(f *testing.F) {
	f.Add("hi\n\n<attached-file path=\"a\">\nx\n</attached-file>")
	f.Add("\n\n<attached-file path=")
	f.Fuzz(func(t *testing.T, s string) {
		typed, _ := splitAttachments(s)
		if !strings.HasPrefix(s, typed) {
			t.Fatalf("typed %q is not the start of %q", typed, s)
		}
	})
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"/help", "//x", "/usr/bin/x y", "/model  gpt ", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, _, ok := parseCommand(s)
		if ok && (name == "" || strings.ContainsAny(name, "/. \n")) {
			t.Fatalf("parseCommand(%q) = %q", s, name)
		}
	})
}

func TestACorruptHistoryFileIsAnEmptyHistory(t *testing.T) {
	home := t.TempDir()
	h := loadHistory(home, "/ws")
	h.add("one")
	if err := os.WriteFile(h.path, []byte("not json\n\"two\"\n{\"x\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h2 := loadHistory(home, "/ws")
	if s, ok := h2.prev(""); !ok || s != "two" {
		t.Fatalf("prev = %q %v", s, ok)
	}
	if other := loadHistory(home, "/elsewhere"); len(other.entries) != 0 {
		t.Fatalf("another workspace sees %q", other.entries)
	}
}

func TestTinyTerminalsDoNotBreakTheView(t *testing.T) {
	m := newTestModel(t, newFake(t))
	for _, size := range [][2]int{{1, 1}, {10, 3}, {20, 5}} {
		drive(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if m.View() == "" {
			t.Fatalf("%v: empty view", size)
		}
	}
}

// TestTheAnswererAndPumpUnderConcurrentUse runs asks and events from
// many goroutines at once against one event loop (go test -race).
func TestTheAnswererAndPumpUnderConcurrentUse(t *testing.T) {
	msgs := make(chan tea.Msg, 64)
	send := func(m tea.Msg) { msgs <- m }
	a := NewAnswerer(nil)
	a.attach(send)
	p := newPump(send)
	defer p.stop()
	quit := make(chan struct{})
	defer close(quit)
	go func() { // the event loop: approves every ask
		for {
			select {
			case m := <-msgs:
				if ask, ok := m.(askMsg); ok {
					ask.ask.reply <- askReply{answer: tools.AnswerAllowOnce}
				}
			case <-quit:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			got, err := a.Ask(context.Background(), tools.Question{Kind: tools.KindApproval, Tool: "bash"})
			if err != nil || got.Answer != tools.AnswerAllowOnce {
				t.Errorf("ask %d: %q %v", i, got, err)
			}
		}()
		go func() {
			defer wg.Done()
			for j := range 50 {
				p.push(item{ev: session.Event{Seq: int64(j)}})
			}
		}()
	}
	wg.Wait()
	t.Run("an ask ends when its context does", func(t *testing.T) {
		a2 := NewAnswerer(nil)
		a2.attach(func(tea.Msg) {})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		if _, err := a2.Ask(ctx, tools.Question{Kind: tools.KindApproval}); err == nil {
			t.Fatal("no error after the context ended")
		}
	})
	t.Run("without a TUI the fallback answers, and nothing means no answerer", func(t *testing.T) {
		if _, err := NewAnswerer(nil).Ask(context.Background(), tools.Question{}); err != tools.ErrNoAnswerer {
			t.Fatalf("err %v", err)
		}
	})
	a.detach()
}
