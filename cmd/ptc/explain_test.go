package main

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionNamesTheModuleVersionAndRevision(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/ptc-dev/ptc", Version: "v0.3.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	cases := []struct {
		name string
		info *debug.BuildInfo
		want []string
	}{
		{"a stamped build names version, revision, time and local changes", stamped,
			[]string{"ptc v0.3.0", "revision 0123456789ab (2026-12-01T10:00:00Z), with uncommitted changes", "Go 1.26.0"}},
		{"a build without VCS stamping says so", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			[]string{"ptc (devel)", "revision unknown: built without VCS stamping"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := versionText(c.info, true)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Fatalf("%q lacks %q", got, w)
				}
			}
		})
	}
	t.Run("ptc version and ptc --version print the same", func(t *testing.T) {
		c := newCLI(t)
		a, b := c.ok("version"), c.ok("--version")
		if a != b || !strings.HasPrefix(a, "ptc ") || !strings.Contains(a, "revision") {
			t.Fatalf("version %q, --version %q", a, b)
		}
	})
}

func TestHelpExplainsKeysHomeAndTheInteractiveSession(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"--help"}, {"run", "--help"}} {
		out := c.ok(args...)
		for _, want := range []string{"DEEPSEEK_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "PTC_HOME", "interactive session", "script:"} {
			if !strings.Contains(out, want) {
				t.Errorf("ptc %v lacks %q", args, want)
			}
		}
	}
}

func TestAMissingArgumentPrintsTheUsage(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"session", "show"}, {"sh"}, {"session", "rm"}, {"--no-such-flag"}} {
		_, errs, code := c.run(args...)
		if code != 2 || !strings.Contains(errs, "Usage:") || !strings.Contains(errs, "--help` for its flags") || strings.Count(errs, "\n") > 3 {
			t.Errorf("ptc %v: exit %d, stderr %q; want exit 2, the one-line usage and where the flags are", args, code, errs)
		}
	}
	if _, errs, _ := c.run("session", "show"); !strings.Contains(errs, "ptc session show needs an argument") {
		t.Errorf("stderr %q does not say what is missing", errs)
	}
}

const hostileScript = `{"replies": [
 {"text": "Looking.\u001b[2J\u001b[H", "tool_calls": [
   {"name": "evil\u001b]0;pwned\u0007\u202etool", "arguments": {"x": 1}},
   {"name": "bash", "arguments": {"command": "printf '1\\n2\\n3\\n4\\n5\\n'", "description": "five lines"}},
   {"name": "bash", "arguments": {"command": "ls", "description": "list", "sandbox_permissions": "danger-full-access",
     "justification": "run ls read-only\u001b[2J\u001b[H\u001b[32mOK\u001b[0m \u202egnp.exe"}}
 ]},
 {"text": "Done."}
]}`

func TestRunTextOutputShowsCommandsResultHeadsAndHostileTextEscaped(t *testing.T) {
	c := newCLI(t)
	script := filepath.Join(t.TempDir(), "hostile.json")
	write(t, script, hostileScript)
	out, errs, code := c.run("run", "--preset", "standard", "--approval", "never", "--model", "script:"+script, "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, raw := range []string{"\x1b", "\u202e", "\a"} {
		if strings.Contains(out+errs, raw) {
			t.Fatalf("the output holds %q raw:\n%s", raw, out)
		}
	}
	for _, want := range []string{
		`Looking.\x1b[2J\x1b[H`,
		`→ evil\x1b]0;pwned\x07\u202etool`,
		"→ bash $ printf",
		"  ← 1\n    2\n    3\n    … 2 more line(s)",
		"asks for danger-full-access: run ls read-only\\x1b[2J\\x1b[H\\x1b[32mOK\\x1b[0m \\u202egnp.exe",
		"DENIED: running bash in danger-full-access needs the user's approval and the approval policy is never",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text output lacks %q:\n%s", want, out)
		}
	}
}
