package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/hooks"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// hookRuns decodes the hook/run events.
func hookRuns(t *testing.T, events []session.Event) []session.HookRun {
	var out []session.HookRun
	for _, e := range sessiontest.OfType(events, session.TypeHookRun) {
		out = append(out, sessiontest.Decode[session.HookRun](t, e))
	}
	return out
}

func hookResults(t *testing.T, events []session.Event) []session.ToolResult {
	var out []session.ToolResult
	for _, e := range sessiontest.OfType(events, session.TypeToolResult) {
		out = append(out, sessiontest.Decode[session.ToolResult](t, e))
	}
	return out
}

const userHooks = `{"hooks": {
  "PreToolUse": [
    {"matcher": "bash", "command": "if grep -q 'rm -rf'; then echo 'no rm -rf in this repository' >&2; exit 2; fi"},
    {"matcher": "glob", "command": "sleep 30", "timeout_ms": 300}
  ],
  "PostToolUse": [{"matcher": "bash", "command": "echo '{\"additionalContext\": \"remember to run the tests\"}'"}]
}}`

func TestUserHooksThroughTheCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	writeFile(t, filepath.Join(c.home, "settings.json"), userHooks)
	ws := workspace(t)
	script := writeScript(t,
		call("bash", map[string]any{"command": "rm -rf build", "description": "clean"}),
		call("bash", map[string]any{"command": "echo fine", "description": "say fine"}),
		call("glob", map[string]any{"pattern": "*"}),
		map[string]any{"text": "done"},
	)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "--output", "json", "clean up"))
	events := c.show(f.SessionID).Events
	rs, runs := hookResults(t, events), hookRuns(t, events)
	t.Run("a bash call with rm -rf is blocked and the model reads the hook's reason", func(t *testing.T) {
		if !rs[0].IsError || rs[0].Error.Code != "DENIED" || !strings.Contains(rs[0].Content[0].Text, "no rm -rf in this repository") {
			t.Fatalf("result: %+v", rs[0])
		}
	})
	t.Run("other bash calls go through, with the PostToolUse hook's context", func(t *testing.T) {
		text := rs[1].Content[0].Text
		if rs[1].IsError || !strings.Contains(text, "fine") || !strings.Contains(text, "remember to run the tests") {
			t.Fatalf("result: %+v", rs[1])
		}
	})
	t.Run("a hook that sleeps past its timeout blocks the call, naming the hook", func(t *testing.T) {
		text := rs[2].Content[0].Text
		if !rs[2].IsError || !strings.Contains(text, "user PreToolUse[1] timed out after 300 ms") {
			t.Fatalf("result: %+v", rs[2])
		}
	})
	t.Run("every run is an event with its decision", func(t *testing.T) {
		var got []string
		for _, r := range runs {
			got = append(got, r.Event+" "+r.Hook+" "+r.Tool+" "+r.Decision)
		}
		want := "PreToolUse user PreToolUse[0] bash block|PreToolUse user PreToolUse[0] bash allow|PostToolUse user PostToolUse[0] bash context|PreToolUse user PreToolUse[1] glob failed"
		if strings.Join(got, "|") != want {
			t.Fatalf("hook runs:\n%s\nwant\n%s", strings.Join(got, "|"), strings.ReplaceAll(want, "|", "\n"))
		}
		if !runs[3].TimedOut || runs[3].DurationMs > 10_000 {
			t.Fatalf("the timed-out run: %+v", runs[3])
		}
	})
}

func TestUserPromptSubmitHookRefusesAPrompt(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	writeFile(t, filepath.Join(c.home, "settings.json"), `{"hooks": {"UserPromptSubmit": [{"command": "if grep -q password; then echo 'do not paste secrets' >&2; exit 2; fi; echo 'The branch is main.'"}]}}`)
	ws := workspace(t)
	script := writeScript(t, map[string]any{"text": "ok"})
	_, errs, code := c.run("run", "--workspace", ws, "--model", "script:"+script, "my password is hunter2")
	if code == 0 || !strings.Contains(errs, "do not paste secrets") {
		t.Fatalf("exit %d stderr %s", code, errs)
	}
	f := parseFinal(t, c.ok("run", "--workspace", ws, "--model", "script:"+script, "--output", "json", "what branch?"))
	events := c.show(f.SessionID).Events
	var prompt string
	for _, e := range sessiontest.OfType(events, session.TypeUserMessage) {
		if m := sessiontest.Decode[session.UserMessage](t, e); m.Source.Kind == "user" {
			prompt = m.Content[0].Text
		}
	}
	if !strings.HasPrefix(prompt, "what branch?") || !strings.Contains(prompt, "The branch is main.") {
		t.Fatalf("prompt: %q", prompt)
	}
}

func TestAProjectHookRunsOnlyAfterApprovalAndConfined(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ws := workspace(t)
	// It blocks every bash call and tries to write into the workspace.
	writeFile(t, filepath.Join(ws, ".ptc/settings.json"), `{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "touch hook-was-here; echo 'project says no' >&2; exit 2"}]}}`)
	script := writeScript(t, call("bash", map[string]any{"command": "echo hi", "description": "say hi"}), map[string]any{"text": "done"})
	run := func() ([]session.ToolResult, []session.HookRun) {
		f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "--output", "json", "go"))
		events := c.show(f.SessionID).Events
		return hookResults(t, events), hookRuns(t, events)
	}
	rs, runs := run()
	if rs[0].IsError || len(runs) != 1 || runs[0].Decision != "skipped" {
		t.Fatalf("before approval: %+v %+v", rs, runs)
	}
	if _, err := os.Stat(filepath.Join(ws, "hook-was-here")); err == nil {
		t.Fatal("the unapproved project hook ran")
	}
	set, _, err := hooks.Load("", filepath.Join(ws, ".ptc/settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := hooks.OpenTrust(c.home).Approve(ws, set.All()[0]); err != nil {
		t.Fatal(err)
	}
	rs, runs = run()
	if !rs[0].IsError || !strings.Contains(rs[0].Content[0].Text, "project says no") || runs[0].Decision != "block" {
		t.Fatalf("after approval: %+v %+v", rs, runs)
	}
	if _, err := os.Stat(filepath.Join(ws, "hook-was-here")); err == nil {
		t.Fatal("the confined project hook wrote into the workspace")
	}
}
