package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// writeFile writes text at path, making its directories.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const deployCheck = "---\nname: deploy-check\ndescription: Checks that a deploy is ready to go out.\n---\n# Deploy check\n\nRun scripts/check.sh and report what it says.\n"

func TestAWorkspaceSkillThroughTheCLI(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	writeFile(t, filepath.Join(ws, ".ptc/skills/deploy-check/SKILL.md"), deployCheck)
	writeFile(t, filepath.Join(ws, ".ptc/skills/deploy-check/scripts/check.sh"), "echo deploy-ok\n")
	c := newCLI(t)
	writeFile(t, filepath.Join(c.home, "skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this user wants commit messages.\n---\nWrite short subjects.\n")
	writeFile(t, filepath.Join(c.home, "skills/house-style/examples.md"), "feat: a user skill file\n")
	script := writeScript(t,
		call("skill", map[string]any{"name": "deploy-check"}),
		call("read", map[string]any{"file_path": filepath.Join(ws, ".ptc/skills/deploy-check/scripts/check.sh")}),
		call("read", map[string]any{"file_path": filepath.Join(c.home, "skills/house-style/examples.md")}),
		call("skill", map[string]any{"name": "no-such"}),
		map[string]any{"text": "checked"},
	)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "--output", "json", "is the deploy ready?"))
	events := c.show(f.SessionID).Events
	h := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(events, session.TypeRequestHeader)[0])
	results := sessiontest.OfType(events, session.TypeToolResult)

	t.Run("the first request's system prompt lists the skill's name and description", func(t *testing.T) {
		for _, want := range []string{"- deploy-check: Checks that a deploy is ready to go out. (.ptc/skills)", "- house-style: How this user wants commit messages. (user)"} {
			if !strings.Contains(h.System, want) {
				t.Fatalf("system text lacks %q:\n%s", want, h.System)
			}
		}
		found := false
		for _, tool := range h.Tools {
			found = found || tool.Name == "skill"
		}
		if !found {
			t.Fatal("the skill tool is not on the wire")
		}
	})
	t.Run("skill returns the body and lists the skill's other files", func(t *testing.T) {
		r := sessiontest.Decode[session.ToolResult](t, results[0])
		text := r.Content[0].Text
		if r.IsError || !strings.Contains(text, "# Deploy check\n\nRun scripts/check.sh and report what it says.") ||
			!strings.Contains(text, filepath.Join(ws, ".ptc/skills/deploy-check/scripts/check.sh")) {
			t.Fatalf("result: %+v", r)
		}
	})
	t.Run("read opens a workspace skill's file and a user skill's file", func(t *testing.T) {
		for i, want := range map[int]string{1: "echo deploy-ok", 2: "feat: a user skill file"} {
			r := sessiontest.Decode[session.ToolResult](t, results[i])
			if r.IsError || !strings.Contains(r.Content[0].Text, want) {
				t.Fatalf("result %d: %+v", i, r)
			}
		}
	})
	t.Run("an unknown skill is an error naming the skills there are", func(t *testing.T) {
		r := sessiontest.Decode[session.ToolResult](t, results[3])
		if !r.IsError || !strings.Contains(r.Content[0].Text, "deploy-check, house-style") {
			t.Fatalf("result: %+v", r)
		}
	})
	t.Run("ptc skills lists it with its source", func(t *testing.T) {
		out := c.ok("skills", "--workspace", ws)
		if !strings.Contains(out, "deploy-check  workspace") || !strings.Contains(out, "house-style   user") {
			t.Fatalf("ptc skills:\n%s", out)
		}
		var v struct {
			Skills []struct{ Name, Source, File string }
		}
		if err := json.Unmarshal([]byte(c.ok("skills", "--workspace", ws, "--output", "json")), &v); err != nil || len(v.Skills) != 2 ||
			v.Skills[0].File != filepath.Join(ws, ".ptc/skills/deploy-check/SKILL.md") {
			t.Fatalf("json: %+v %v", v, err)
		}
	})
}

func TestABadSkillIsAWarningNotACrash(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	writeFile(t, filepath.Join(ws, ".ptc/skills/broken/SKILL.md"), "---\nname: broken\ndescription: \"unclosed\n---\nbody\x1b[2J\n")
	c := newCLI(t)
	script := writeScript(t, map[string]any{"text": "fine"})
	_, errs, code := c.run("run", "--preset", "ptc", "--workspace", ws, "--model", "script:"+script, "hi")
	if code != 0 || !strings.Contains(errs, filepath.Join(ws, ".ptc/skills/broken/SKILL.md")) || !strings.Contains(errs, "not valid YAML") {
		t.Fatalf("exit %d stderr %s", code, errs)
	}
	_, errs, code = c.run("skills", "--workspace", ws)
	if code != 0 || !strings.Contains(errs, "broken/SKILL.md") {
		t.Fatalf("ptc skills: exit %d stderr %s", code, errs)
	}
}

func TestProgramsLoadSkillsToo(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy-check/SKILL.md"), deployCheck)
	program := `const s = await tools.skill({name: "deploy-check"}); return s.source + " " + s.body.split("\n")[0];`
	script := writeScript(t, call("run_code", map[string]any{"description": "load a skill", "code": program}), map[string]any{"text": "ok"})
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--workspace", ws, "--model", "script:"+script, "--output", "json", "go"))
	events := c.show(f.SessionID).Events
	h := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(events, session.TypeRequestHeader)[0])
	if !strings.Contains(h.System, "skill(args: ") || !strings.Contains(h.System, "- deploy-check: ") {
		t.Fatalf("the SDK or the catalog lacks the skill:\n%s", h.System)
	}
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(events, session.TypeToolResult)[0])
	if r.IsError || !strings.Contains(r.Content[0].Text, "workspace # Deploy check") {
		t.Fatalf("result: %+v", r)
	}
}

func TestNoSkillsNoSkillTool(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	out := c.ok("tools", "--preset", "standard", "--workspace", workspace(t))
	if strings.Contains(out, "skill") {
		t.Fatalf("ptc tools shows the skill tool without skills:\n%s", out)
	}
}
