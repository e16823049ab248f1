package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// pane is one tmux window running a shell, on a private tmux server: the
// test types into it and reads the screen as a person would see it.
type pane struct {
	t    *testing.T
	tmux string
	sock string
}

// waitLimit bounds each wait for the screen; it is a hang guard, not a
// speed check (a cold sandbox compile on a loaded machine takes a while).
const waitLimit = 3 * time.Minute

func newPane(t *testing.T, dir string, env []string) *pane {
	t.Helper()
	p := &pane{t: t, tmux: sharedtest.Tool(t, "tmux"), sock: filepath.Join(t.TempDir(), "tmux.sock")}
	cmd := exec.Command(p.tmux, "-S", p.sock, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "sh")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command(p.tmux, "-S", p.sock, "kill-server").Run() })
	return p
}

func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// keys sends key names (Enter, C-c, Up…); typed sends text literally.
func (p *pane) keys(keys ...string) { p.run(append([]string{"send-keys"}, keys...)...) }
func (p *pane) typed(text string)   { p.run("send-keys", "-l", text) }

// paste pastes text as a terminal paste (bracketed, when the program
// asked for it).
func (p *pane) paste(text string) {
	p.run("set-buffer", "--", text)
	p.run("paste-buffer", "-p", "-d")
}

// clear blanks the shell's screen, so later waits see only new output.
func (p *pane) clear() {
	p.typed(`printf '\033[H\033[2J'`)
	p.keys("Enter")
	p.waitFor("a clear screen", func(s string) bool { return strings.Count(strings.TrimSpace(s), "\n") < 2 })
}

func (p *pane) screen() string { return p.run("capture-pane", "-p") }

// waitFor polls the screen until cond holds, and returns that screen.
func (p *pane) waitFor(what string, cond func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := p.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited for %s; the screen shows:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (p *pane) waitText(texts ...string) string {
	p.t.Helper()
	return p.waitFor(strings.Join(texts, " and "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// idle waits until no turn runs (the status line offers no cancel).
func (p *pane) idle() {
	p.t.Helper()
	p.waitFor("the turn to end", func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return !strings.Contains(lines[len(lines)-1], "ctrl+c cancels")
	})
}

// lineWith is the first screen line holding all the parts.
func lineWith(screen string, parts ...string) (string, bool) {
	for _, l := range strings.Split(screen, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return l, true
		}
	}
	return "", false
}

const tmuxScript = `{"replies": [
 {"text": "# Heading One\n\nSome **bold words** and a list:\n\n- first item\n- second item\n\n## Second heading\n\nThe end."},
 {"text": "Got one block of three lines."},
 {"tool_calls": [{"name": "run_code", "arguments": {"description": "two nested calls", "code": "const a = await tools.bash({command: \"echo nested-one\", description: \"first\"});\nconsole.log(a.stdout.trim());\nconst b = await tools.bash({command: \"sleep 3; echo nested-two\", description: \"second\"});\nreturn b.stdout.trim();"}}]},
 {"text": "Program finished."},
 {"text": "Answered the queued question."},
 {"tool_calls": [{"name": "run_code", "arguments": {"description": "edit notes", "code": "await tools.read({file_path: \"notes.txt\"});\nawait tools.edit({file_path: \"notes.txt\", old_string: \"hello world\", new_string: \"goodbye world\"});\nreturn \"edited\";"}}]},
 {"text": "Edited notes.txt."},
 {"tool_calls": [{"name": "run_code", "arguments": {"description": "a long wait", "code": "await tools.bash({command: \"sleep 300\", description: \"long\"});\nreturn \"never\";"}}]},
 {"text": "Still here after the cancel."},
 {"tool_calls": [
   {"name": "evil\u001b]0;pwned\u0007\u202etool", "arguments": {"x": 1}},
   {"name": "run_code", "arguments": {"description": "escalate", "code": "await tools.bash({command: \"ls\", description: \"list\", sandbox_permissions: \"danger-full-access\", justification: \"run ls read-only\\u001b[2J\\u001b[H\\u001b[32mOK\\u001b[0m \\u202egnp.exe\"});\nreturn \"ran\";"}}]},
 {"text": "Hostile turn over."}
]}`

const approvalScript = `{"replies": [
 {"tool_calls": [{"name": "bash", "arguments": {"command": "ls", "description": "list", "sandbox_permissions": "danger-full-access", "justification": "run ls read-only\u001b[2J\u001b[H\u001b[32mOK\u001b[0m \u202egnp.exe"}}]},
 {"text": "Line mode done."}
]}`

// TestTheTUIInTmux drives ptc in a real terminal (tmux) with a scripted
// model, step by step as issue 16 lists what a person must see.
func TestTheTUIInTmux(t *testing.T) {
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(root, "tui.json")
	write(t, script, tmuxScript)
	write(t, filepath.Join(root, "approve.json"), approvalScript)
	write(t, filepath.Join(ws, "notes.txt"), "hello world\n")
	// Price the scripted model, so the status line has a cost to show.
	write(t, filepath.Join(home, "models.yaml"), fmt.Sprintf("models:\n  %q:\n    context_window: 65536\n    price: {input: 1.0, cache_hit: 0.1, output: 2.0}\n", "script:"+script))

	env := []string{"PATH=" + filepath.Dir(ptcBin) + ":" + os.Getenv("PATH"), "HOME=" + home, "PTC_HOME=" + home,
		"XDG_CACHE_HOME=" + cacheDir, "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=$ "}
	earlier := exec.Command(ptcBin, "run", "--model", "script:"+examplePath(t, "hello.json"), "an earlier session")
	earlier.Env, earlier.Dir = env, ws
	if out, err := earlier.CombinedOutput(); err != nil {
		t.Fatalf("ptc run: %v\n%s", err, out)
	}

	p := newPane(t, ws, env)
	p.typed("ptc --model script:" + script)
	p.keys("Enter")
	p.waitText("/help", "ctrl+c cancels, twice exits")

	t.Run("/help lists the commands without a model request", func(t *testing.T) {
		p.typed("/help")
		p.keys("Enter")
		p.waitText("/resume", "/sessions", "/compact", "/model", "/preset", "/sandbox", "/approval", "/cost", "/exit", "/init")
	})
	t.Run("markdown renders without raw markers (and /help consumed no reply)", func(t *testing.T) {
		p.typed("render markdown please")
		p.keys("Enter")
		s := p.waitText("Heading One", "Second heading", "The end.")
		p.idle()
		for _, raw := range []string{"**bold", "# Heading", "## Second", "- first item"} {
			if strings.Contains(s, raw) {
				t.Errorf("raw markdown %q on screen:\n%s", raw, s)
			}
		}
	})
	t.Run("up recalls the previous input", func(t *testing.T) {
		p.keys("Up")
		p.waitFor("the recalled prompt in the input", func(s string) bool {
			_, ok := lineWith(s, "› render markdown please")
			return ok && strings.Count(s, "render markdown please") == 2
		})
		p.keys("C-u")
	})
	t.Run("a pasted multi-line block is one turn", func(t *testing.T) {
		p.paste("first pasted line\nsecond pasted line\nthird pasted line")
		p.waitText("third pasted line")
		p.keys("Enter")
		s := p.waitText("Got one block of three lines.")
		p.idle()
		if _, ok := lineWith(s, "› first pasted line"); !ok {
			t.Fatalf("the block is not one prompt:\n%s", s)
		}
	})
	t.Run("a run_code program and its nested calls appear while it runs", func(t *testing.T) {
		p.typed("run a program")
		p.keys("Enter")
		s := p.waitFor("the second nested call running", func(s string) bool {
			_, running := lineWith(s, "↳ bash $ sleep 3; echo nested-two", "⋯")
			_, done := lineWith(s, "↳ bash $ echo nested-one", "✓")
			return running && done
		})
		for _, want := range []string{"run_code — two nested calls", "┃ const a = await tools.bash"} {
			if !strings.Contains(s, want) {
				t.Errorf("the running program lacks %q:\n%s", want, s)
			}
		}
		// Typed while the program runs: the session's next turn.
		p.typed("and then?")
		p.keys("Enter")
		p.waitText("queued: it runs as the next turn")
		s = p.waitText("Program finished.", "Answered the queued question.")
		p.idle()
		if strings.Index(s, "Program finished.") > strings.Index(s, "and then?") {
			t.Errorf("the queued prompt ran before the turn ended:\n%s", s)
		}
	})
	t.Run("an edit shows as a diff", func(t *testing.T) {
		p.typed("edit the file")
		p.keys("Enter")
		p.waitText("-hello world", "+goodbye world", "Edited notes.txt.")
		p.idle()
		if b, _ := os.ReadFile(filepath.Join(ws, "notes.txt")); string(b) != "goodbye world\n" {
			t.Fatalf("notes.txt = %q", b)
		}
	})
	t.Run("the status line shows tokens and cost", func(t *testing.T) {
		s := p.screen()
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		status := lines[len(lines)-1]
		if !regexp.MustCompile(`↑\d[\d.]*k? ↓\d[\d.]*k?`).MatchString(status) || !regexp.MustCompile(`\$\d+\.\d+`).MatchString(status) {
			t.Fatalf("status line %q has no tokens or cost", status)
		}
	})
	t.Run("ctrl+c cancels a long tool call and the session goes on", func(t *testing.T) {
		p.typed("wait long")
		p.keys("Enter")
		p.waitFor("the long call running", func(s string) bool {
			_, ok := lineWith(s, "$ sleep 300", "⋯")
			return ok
		})
		p.typed("typed before the cancel")
		p.keys("Enter")
		p.waitText("queued: it runs as the next turn")
		p.keys("C-c")
		p.waitText("turn cancelled")
		p.idle()
		p.waitFor("the queued text back in the input", func(s string) bool {
			_, ok := lineWith(s, "› typed before the cancel")
			return ok
		})
		p.keys("C-u")
		p.typed("still there?")
		p.keys("Enter")
		p.waitText("Still here after the cancel.")
		p.idle()
	})
	t.Run("hostile names and justifications show escaped", func(t *testing.T) {
		p.typed("hostile")
		p.keys("Enter")
		s := p.waitText("asks to run UNCONFINED on the host")
		for _, want := range []string{`read-only\x1b[2J\x1b[H\x1b[32mOK\x1b[0m \u202egnp.exe`, "danger-full-access, UNCONFINED: no sandbox (now workspace-write)", `evil\x1b]0;pwned\x07\u202etool`} {
			if !strings.Contains(s, want) {
				t.Errorf("the screen lacks %q:\n%s", want, s)
			}
		}
		p.keys("d")
		p.waitText("Hostile turn over.")
		p.idle()
	})
	t.Run("/resume lists the workspace's sessions", func(t *testing.T) {
		p.typed("/resume")
		// (not Escape then Enter: sent together they are alt+enter, a new line)
		p.keys("Enter")
		s := p.waitText("Resume a session of this workspace", "an earlier session")
		if n := strings.Count(s, " turn(s) "); n < 2 {
			t.Fatalf("want both sessions listed:\n%s", s)
		}
		p.keys("Escape")
	})
	var resume string
	t.Run("ctrl+d exits and prints a resume command", func(t *testing.T) {
		p.keys("C-d")
		s := p.waitText("resume with: ptc --resume ")
		m := regexp.MustCompile(`resume with: (ptc --resume \S+)`).FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no resume command:\n%s", s)
		}
		resume = m[1]
	})
	t.Run("the resume command works as printed and shows the earlier turns", func(t *testing.T) {
		if resume == "" {
			t.Skip("no resume command")
		}
		p.clear()
		p.typed(resume)
		p.keys("Enter")
		p.waitText("resumed session", "Hostile turn over.")
		p.keys("C-d")
		p.waitText(resume)
	})
	t.Run("ptc run on a terminal says what it waits for", func(t *testing.T) {
		p.clear()
		p.typed("ptc run --model script:" + examplePath(t, "hello.json"))
		p.keys("Enter")
		p.waitText("type the prompt, then press Ctrl-D")
		p.typed("hello there")
		p.keys("Enter", "C-d")
		p.waitText("This answer comes from a scripted model")
	})
	t.Run("the line-mode approval prompt shows the justification escaped", func(t *testing.T) {
		p.clear()
		p.typed("ptc run --preset standard --model script:" + filepath.Join(root, "approve.json") + " go")
		p.keys("Enter")
		s := p.waitText("Allow? [a] once")
		for _, want := range []string{`read-only\x1b[2J\x1b[H\x1b[32mOK\x1b[0m \u202egnp.exe`, "danger-full-access, UNCONFINED: no sandbox (now workspace-write)", "workspace  " + ws} {
			if !strings.Contains(s, want) {
				t.Errorf("the prompt lacks %q:\n%s", want, s)
			}
		}
		p.typed("d")
		p.keys("Enter")
		p.waitText("Line mode done.")
	})
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
