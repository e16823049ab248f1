package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const keysScript = `{"replies": [
 {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 30", "description": "esc target"}}]},
 {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 31", "description": "ctrl-c target"}}]},
 {"text": "Answered the question that came back."}
]}`

// The keys issue 25 found lying: alt+enter inserts a new line, esc
// interrupts a running call, a prompt queued during a turn comes back
// into the input after ctrl+c, and a later single ctrl+c on an idle
// screen does not quit.
func TestTheTUIKeysInTmux(t *testing.T) {
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(root, "keys.json")
	write(t, script, keysScript)
	env := []string{"PATH=" + filepath.Dir(ptcBin) + ":" + os.Getenv("PATH"), "HOME=" + home, "PTC_HOME=" + home,
		"XDG_CACHE_HOME=" + cacheDir, "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=$ "}
	p := newPane(t, ws, env)
	p.typed(ptcBin + " --preset standard --model script:" + script)
	p.keys("Enter")
	p.waitText("/help", "ctrl+c cancels, twice exits")

	t.Run("alt+enter inserts a new line", func(t *testing.T) {
		p.typed("first line")
		p.keys("M-Enter")
		p.typed("second line")
		s := p.waitText("second line")
		if _, ok := lineWith(s, "first line", "second line"); ok {
			t.Fatalf("alt+enter did not break the line:\n%s", s)
		}
		if strings.Contains(s, "⋯") {
			t.Fatalf("alt+enter sent the prompt:\n%s", s)
		}
		p.keys("C-c") // clears the input
		p.waitFor("an empty input", func(s string) bool { return !strings.Contains(s, "second line") })
	})
	t.Run("esc interrupts a running call", func(t *testing.T) {
		p.typed("sleep please")
		p.keys("Enter")
		p.waitFor("the call running", func(s string) bool {
			_, ok := lineWith(s, "$ sleep 30", "⋯")
			return ok
		})
		start := time.Now()
		p.keys("Escape")
		p.waitText("turn cancelled")
		p.idle()
		t.Logf("esc to an idle screen: %v", time.Since(start))
		if took := time.Since(start); took > 20*time.Second { // the call sleeps 30 s
			t.Fatalf("esc took %v to stop the call", took)
		}
	})
	t.Run("a queued prompt is back in the input after ctrl+c, and one ctrl+c later does not quit", func(t *testing.T) {
		p.typed("sleep again")
		p.keys("Enter")
		p.waitFor("the call running", func(s string) bool {
			_, ok := lineWith(s, "$ sleep 31", "⋯")
			return ok
		})
		p.typed("the queued question")
		p.keys("Enter")
		p.waitText("queued: it runs as the next turn")
		p.keys("C-c")
		p.idle()
		p.waitFor("the queued text back in the input", func(s string) bool {
			_, ok := lineWith(s, "› the queued question")
			return ok
		})
		if s := p.screen(); strings.Contains(s, "Answered the question") || strings.Contains(statusLine(s), "ctrl+c again exits") {
			t.Fatalf("after the cancel the queued prompt was sent or ctrl+c stays armed:\n%s", s)
		}
		p.keys("Enter") // send it now, by hand
		p.waitText("Answered the question that came back.")
		p.idle()
		p.keys("C-c")
		p.waitFor("ctrl+c armed", func(s string) bool { return strings.Contains(statusLine(s), "ctrl+c again exits") })
		// The arming lapses: a ctrl+c after it does not quit.
		p.waitFor("the arming to lapse", func(s string) bool { return !strings.Contains(statusLine(s), "ctrl+c again exits") })
		p.keys("C-c")
		p.typed("still alive")
		s := p.waitText("still alive")
		if strings.Contains(s, "resume with") {
			t.Fatalf("a single ctrl+c on an idle screen quit:\n%s", s)
		}
	})
}

// statusLine is the screen's last line.
func statusLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return lines[len(lines)-1]
}
