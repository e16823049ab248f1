package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// userPrompts are the texts of the user's own messages in events.
func userPrompts(t *testing.T, events []session.Event) []string {
	var out []string
	for _, e := range sessiontest.OfType(events, session.TypeUserMessage) {
		m := sessiontest.Decode[session.UserMessage](t, e)
		if m.Source.Kind == "user" {
			out = append(out, m.Content[0].Text)
		}
	}
	return out
}

func TestACustomCommandExpandsHeadless(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	writeFile(t, filepath.Join(ws, ".ptc/commands/hello.md"), "Say hello to $ARGUMENTS\n")
	c := newCLI(t)
	writeFile(t, filepath.Join(c.home, "commands/fix.md"), "---\ndescription: Fix an issue\n---\nFix issue $1 in $2.\n")
	script := writeScript(t, map[string]any{"text": "hello"})
	for _, tc := range []struct{ input, sent string }{
		{"/hello world", "Say hello to world"},
		{"/fix 12 main.go", "Fix issue 12 in main.go."},
		{"/etc/hosts holds what?", "/etc/hosts holds what?"},
		{"/nothing here", "/nothing here"},
	} {
		t.Run(tc.input+" sends "+tc.sent, func(t *testing.T) {
			f := parseFinal(t, c.ok("run", "--workspace", ws, "--model", "script:"+script, "--output", "json", tc.input))
			if got := userPrompts(t, c.show(f.SessionID).Events); len(got) != 1 || got[0] != tc.sent {
				t.Fatalf("sent %q, want %q", got, tc.sent)
			}
		})
	}
	t.Run("a broken command file is a warning when a command is called", func(t *testing.T) {
		writeFile(t, filepath.Join(ws, ".ptc/commands/bad.md"), "---\ndescription: [x\n---\nbody")
		_, errs, code := c.run("run", "--workspace", ws, "--model", "script:"+script, "/hello you")
		if code != 0 || !strings.Contains(errs, filepath.Join(ws, ".ptc/commands/bad.md")) {
			t.Fatalf("exit %d stderr %s", code, errs)
		}
	})
}
