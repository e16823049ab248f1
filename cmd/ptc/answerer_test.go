package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestTerminalAnswerer(t *testing.T) {
	approval := tools.Question{Kind: tools.KindApproval, Tool: "bash", Args: `{"command":"rm -rf build"}`, Text: "Allow bash?"}
	question := tools.Question{Kind: tools.KindQuestion, Text: "Which database?", Options: []string{"Postgres", "SQLite"}}
	plan := tools.Question{Kind: tools.KindPlan, Tool: "exit_plan_mode", Text: "# Rename\n\n1. Rename alpha\n2. Run the tests\n",
		Options: []string{tools.AnswerApprovePlan, tools.AnswerKeepPlanning}}
	cases := []struct {
		name, input string
		q           tools.Question
		want        string
		err         error
		shows       string
	}{
		{"a allows once", "a\n", approval, tools.AnswerAllowOnce, nil, `"command": "rm -rf build"`},
		{"s allows for the session", "s\n", approval, tools.AnswerAllowSession, nil, "ptc wants to run bash"},
		{"d denies", "d\n", approval, tools.AnswerDeny, nil, "[d] deny"},
		{"nonsense is asked again", "what\nA\n", approval, tools.AnswerAllowOnce, nil, "Please type a, s or d."},
		{"endless nonsense denies", "x\ny?\nz\n", approval, tools.AnswerDeny, nil, ""},
		{"end of input means nobody can answer", "", approval, "", tools.ErrNoAnswerer, ""},
		{"a number picks an option", "2\n", question, "SQLite", nil, "  1) Postgres"},
		{"free text is kept", "\nuse both\n", question, "use both", nil, "Which database?"},
		{"a approves a plan", "a\n", plan, tools.AnswerApprovePlan, nil, "  1. Rename alpha"},
		{"k keeps planning", "k\n", plan, tools.AnswerKeepPlanning, nil, "approve it to leave plan mode"},
		{"typed text is feedback", "also cover errors\n", plan, "also cover errors", nil, "[k] keep planning"},
		{"an empty answer is asked again", "\nA\n", plan, tools.AnswerApprovePlan, nil, "Please type a, k or what to change."},
		{"no answer at all never approves", "\n\n\n", plan, tools.AnswerKeepPlanning, nil, ""},
		{"a \"1\" is feedback, not the first option", "1\n", plan, "1", nil, ""},
		{"end of input leaves the plan unanswered", "", plan, "", tools.ErrNoAnswerer, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			got, err := newLineAnswerer(strings.NewReader(c.input), &out).Ask(context.Background(), c.q)
			if got != c.want || !errors.Is(err, c.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, c.want, c.err)
			}
			if !strings.Contains(out.String(), c.shows) {
				t.Fatalf("output %q lacks %q", out.String(), c.shows)
			}
		})
	}
	t.Run("headless answers nothing", func(t *testing.T) {
		if _, err := (headlessAnswerer{}).Ask(context.Background(), approval); !errors.Is(err, tools.ErrNoAnswerer) {
			t.Fatal(err)
		}
	})
}

func TestThePlanPromptShowsHostileTextEscaped(t *testing.T) {
	q := tools.Question{Kind: tools.KindPlan, Tool: "exit_plan_mode", Text: "# Plan\x1b[2J\x1b[H\n\n1. Step \u202eone\x07\n"}
	var out bytes.Buffer
	got, err := newLineAnswerer(strings.NewReader("k\n"), &out).Ask(context.Background(), q)
	if err != nil || got != tools.AnswerKeepPlanning {
		t.Fatalf("got %q, %v", got, err)
	}
	shown := out.String()
	for _, raw := range []string{"\x1b", "\u202e", "\a"} {
		if strings.Contains(shown, raw) {
			t.Fatalf("the prompt holds %q raw:\n%s", raw, shown)
		}
	}
	for _, want := range []string{`# Plan\x1b[2J\x1b[H`, `1. Step \u202eone\x07`} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, shown)
		}
	}
}

func TestTheApprovalPromptShowsHostileTextEscaped(t *testing.T) {
	q := tools.Question{Kind: tools.KindApproval, Tool: "bash\u202e\x1b[2J",
		Args: `{"command":"rm -rf ~","sandbox_permissions":"danger-full-access","justification":"run ` + "`ls`" + ` read-only\u001b[2J\u001b[H\u001b[32mOK\u001b[0m"}`,
		Text: "Allow this bash call?\x1b[2J"}
	var out bytes.Buffer
	a := newLineAnswerer(strings.NewReader("d\n"), &out)
	showSettings(a, func() session.Settings {
		return session.Settings{Workspace: "/home/dev/project", Sandbox: "workspace-write"}
	})
	got, err := a.Ask(context.Background(), q)
	if err != nil || got != tools.AnswerDeny {
		t.Fatalf("got %q, %v", got, err)
	}
	shown := out.String()
	for _, raw := range []string{"\x1b", "\u202e"} {
		if strings.Contains(shown, raw) {
			t.Fatalf("the prompt holds %q raw:\n%s", raw, shown)
		}
	}
	for _, want := range []string{`bash\u202e\x1b[2J`, `read-only\x1b[2J\x1b[H\x1b[32mOK\x1b[0m`, "danger-full-access  (now workspace-write)",
		"on the host, unconfined", "workspace  /home/dev/project", "command    rm -rf ~"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, shown)
		}
	}
}
