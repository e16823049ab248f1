package presets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
)

var known = []string{"read", "write", "edit", "glob", "grep", "bash", "todo_write", "ask_user_question", "run_code", "shell", "str_replace_editor",
	"exit_plan_mode", "create_goal", "get_goal", "update_goal", "subagent", "agent_output", "agent_list", "agent_stop", "workflow", "ralph",
	"job_list", "job_output", "job_kill", "skill", "session_search", "session_read", "web_search", "web_fetch"}

func TestEmbeddedPresets(t *testing.T) {
	set, err := Load("", known)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.IDs(); !reflect.DeepEqual(got, []string{"minimal", "ptc", "standard"}) {
		t.Fatalf("ids %v", got)
	}
	coding := []string{"read", "write", "edit", "glob", "grep", "bash", "job_list", "job_output", "job_kill", "todo_write", "ask_user_question",
		"exit_plan_mode", "create_goal", "get_goal", "update_goal", "subagent", "agent_output", "agent_list", "agent_stop", "workflow", "ralph", "skill", "session_search", "session_read", "web_search"}
	cases := []struct {
		id           string
		presentation tools.Presentation
		tools        []string
		snapshots    bool
	}{
		{"ptc", tools.PresentPTC, append(append([]string{}, coding...), "run_code"), true},
		{"standard", tools.PresentNative, coding, true},
		{"minimal", tools.PresentNative, []string{"shell", "str_replace_editor"}, false},
	}
	for _, c := range cases {
		t.Run(c.id+" has its documented shape", func(t *testing.T) {
			p, err := set.Get(c.id)
			if err != nil {
				t.Fatal(err)
			}
			if p.Presentation != c.presentation || !reflect.DeepEqual(p.Tools, c.tools) || p.Snapshots != c.snapshots || p.Sandbox != "workspace-write" || p.MaxSteps <= 0 {
				t.Fatalf("%+v", p)
			}
			vars := map[string]string{}
			for _, v := range Variables {
				vars[v] = "<" + v + ">"
			}
			text, err := prompt.Render(p.PromptSections(), vars)
			if err != nil || !strings.Contains(text, "<cwd>") {
				t.Fatalf("render: %v\n%s", err, text)
			}
		})
	}
	if p, _ := set.Get(""); p.ID != DefaultID {
		t.Fatalf("default preset is %s", p.ID)
	}
	if !mustGet(t, set, "minimal").Terminals || mustGet(t, set, "ptc").Terminals {
		t.Fatal("terminals are on in the minimal preset only")
	}
	if strings.Count(mustGet(t, set, "minimal").Persona, "\n") > 1 {
		t.Error("minimal persona is more than one line")
	}
	if _, err := set.Get("nope"); err == nil || !strings.Contains(err.Error(), "available presets: minimal, ptc, standard") {
		t.Fatalf("err = %v", err)
	}
}

func mustGet(t *testing.T, s *Set, id string) *Preset {
	t.Helper()
	p, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const valid = `id: mine
description: My preset.
persona: You are helpful in {{ cwd }}.
tools: [read, bash]
presentation: native
`

func TestParseErrorsNameTheFileAndField(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"an unknown tool", strings.Replace(valid, "bash", "bsh", 1), "f.yaml: tools[1]: unknown tool \"bsh\""},
		{"a duplicate tool", strings.Replace(valid, "bash", "read", 1), "f.yaml: tools[1]: \"read\" is listed twice"},
		{"an unknown field", valid + "colour: red\n", "f.yaml: line 6: unknown field colour"},
		{"a bad variable in the persona", strings.Replace(valid, "{{ cwd }}", "{{ home }}", 1), "f.yaml: persona: unknown variable {{home}}"},
		{"an unclosed variable", strings.Replace(valid, "{{ cwd }}", "{{ cwd", 1), "f.yaml: persona: unclosed"},
		{"a bad variable in a section", valid + "sections:\n  - {name: a, order: 1, text: \"{{oops}}\"}\n", "f.yaml: sections[0].text: unknown variable {{oops}}"},
		{"a duplicate section", valid + "sections:\n  - {name: a, text: x}\n  - {name: a, text: y}\n", "f.yaml: sections[1].name: \"a\" is used twice"},
		{"a section named persona", valid + "sections:\n  - {name: persona, text: x}\n", "sections[0].name: \"persona\" is used twice"},
		{"a missing id", strings.Replace(valid, "id: mine\n", "", 1), "f.yaml: id: missing"},
		{"a bad id", strings.Replace(valid, "mine", "My Preset", 1), "f.yaml: id: \"My Preset\" must be lowercase"},
		{"a bad presentation", strings.Replace(valid, "native", "code", 1), "f.yaml: presentation: unknown presentation \"code\""},
		{"ptc without run_code", strings.Replace(valid, "native", "ptc", 1), "f.yaml: tools: presentation ptc shows only run_code"},
		{"a bad sandbox", valid + "sandbox: open\n", "f.yaml: sandbox: unknown mode \"open\""},
		{"a negative step budget", valid + "max_steps: -1\n", "f.yaml: max_steps: -1 is negative"},
		{"a wrong type", valid + "max_steps: many\n", "f.yaml: line 6: cannot unmarshal"},
		{"an empty file", "", "f.yaml: the file is empty"},
		{"plan mode without a way out", valid + "plan: true\n", "f.yaml: plan: plan mode needs exit_plan_mode"},
	}
	for _, c := range cases {
		t.Run(c.name+" is reported", func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(c.yaml), known)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	t.Run("a valid file gets defaults", func(t *testing.T) {
		p, err := Parse("f.yaml", []byte(valid), known)
		if err != nil || !p.Snapshots || !p.Compact || p.Sandbox != "workspace-write" || p.Source != "f.yaml" {
			t.Fatalf("%+v %v", p, err)
		}
	})
	t.Run("compact: false turns automatic compaction off", func(t *testing.T) {
		p, err := Parse("f.yaml", []byte(valid+"compact: false\n"), known)
		if err != nil || p.Compact {
			t.Fatalf("%+v %v", p, err)
		}
	})
	t.Run("plan: true starts sessions in plan mode when exit_plan_mode is listed", func(t *testing.T) {
		p, err := Parse("f.yaml", []byte(strings.Replace(valid, "bash", "bash, exit_plan_mode", 1)+"plan: true\n"), known)
		if err != nil || !p.Plan {
			t.Fatalf("%+v %v", p, err)
		}
	})
	t.Run("nil known tools skips the tool check", func(t *testing.T) {
		if _, err := Parse("f.yaml", []byte(strings.Replace(valid, "bash", "anything", 1)), nil); err != nil {
			t.Fatal(err)
		}
	})
}

func TestUserPresetsOverrideByID(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "presets")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("standard.yaml", strings.Replace(valid, "id: mine", "id: standard", 1))
	write("mine.yml", valid)
	set, err := Load(home, known)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.IDs(); !reflect.DeepEqual(got, []string{"mine", "minimal", "ptc", "standard"}) {
		t.Fatalf("ids %v", got)
	}
	if p := mustGet(t, set, "standard"); p.Description != "My preset." || p.Source != filepath.Join(dir, "standard.yaml") {
		t.Fatalf("%+v", p)
	}

	write("zz-broken.yaml", valid+"bogus: 1\n")
	if _, err := Load(home, known); err == nil || !strings.Contains(err.Error(), "zz-broken.yaml") {
		t.Fatalf("err = %v", err)
	}
	os.Remove(filepath.Join(dir, "zz-broken.yaml"))
	write("again.yaml", valid)
	if _, err := Load(home, known); err == nil || !strings.Contains(err.Error(), "also defined in") {
		t.Fatalf("err = %v", err)
	}
}

func TestHostProgramsAndNetworkParse(t *testing.T) {
	base := "id: x\ndescription: d\npersona: p\ntools: [bash]\npresentation: native\n"
	tests := []struct {
		name, extra string
		want        []string
		network     bool
		bad         string
	}{
		{"absent means the default list", "", nil, false, ""},
		{"an empty list allows none", "host_programs: []\n", []string{}, false, ""},
		{"names are kept", "host_programs: [go, git]\nnetwork: true\n", []string{"go", "git"}, true, ""},
		{"a path is refused", "host_programs: [/usr/bin/go]\n", nil, false, "host_programs[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(base+tt.extra), nil)
			if tt.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Fatalf("err %v, want one naming %s", err, tt.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (p.HostPrograms == nil) != (tt.want == nil) || strings.Join(p.HostPrograms, ",") != strings.Join(tt.want, ",") || p.Network != tt.network {
				t.Fatalf("got %#v network %v", p.HostPrograms, p.Network)
			}
		})
	}
}
