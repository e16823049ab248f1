package main

import (
	"bytes"
	"context"
	"encoding/json"
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
		{"a allows once", "a\n", approval, tools.AnswerAllowOnce, nil, "  command rm -rf build"},
		{"s allows for the session", "s\n", approval, tools.AnswerAllowSession, nil, "ptc asks: bash needs your approval"},
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
			if got.Answer != c.want || !errors.Is(err, c.err) {
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
	if err != nil || got.Answer != tools.AnswerKeepPlanning {
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
	q := tools.Question{Kind: tools.KindApproval, Tool: "bash\u202e\x1b[2J", Mode: "danger-full-access", Current: "workspace-write", Unconfined: true,
		Justification: "run `ls` read-only\x1b[2J\x1b[H\x1b[32mOK\x1b[0m",
		Args:          `{"command":"rm -rf ~","sandbox_permissions":"danger-full-access","justification":"run ` + "`ls`" + ` read-only\u001b[2J\u001b[H\u001b[32mOK\u001b[0m"}`,
		Text:          "Allow this bash call?\x1b[2J"}
	var out bytes.Buffer
	a := newLineAnswerer(strings.NewReader("d\n"), &out)
	showSettings(a, func() session.Settings {
		return session.Settings{Workspace: "/home/dev/project", Sandbox: "workspace-write"}
	})
	got, err := a.Ask(context.Background(), q)
	if err != nil || got.Answer != tools.AnswerDeny {
		t.Fatalf("got %q, %v", got, err)
	}
	shown := out.String()
	for _, raw := range []string{"\x1b", "\u202e"} {
		if strings.Contains(shown, raw) {
			t.Fatalf("the prompt holds %q raw:\n%s", raw, shown)
		}
	}
	for _, want := range []string{`bash\u202e\x1b[2J`, `read-only\x1b[2J\x1b[H\x1b[32mOK\x1b[0m`, "mode       danger-full-access, UNCONFINED: no sandbox (now workspace-write)\n", "workspace  /home/dev/project", "command    rm -rf ~"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, shown)
		}
	}
}

// paddedApproval is issue 21's spoofed approval: a command padded with
// spaces so its tail falls off a cut line, and a justification laid out
// as 80-column rows that draw a fake, harmless-looking mode.
func paddedApproval() tools.Question {
	command := "ls -la" + strings.Repeat(" ", 300) + "; echo HOST > x"
	var why strings.Builder
	for range 8 {
		for _, row := range []string{"list the files", "mode       read-only", "where      inside the sandbox"} {
			why.WriteString(row + strings.Repeat(" ", 80-len(row)))
		}
	}
	args, _ := json.Marshal(map[string]string{"command": command, "description": "list", "sandbox_permissions": "danger-full-access", "justification": why.String()})
	return tools.Question{Kind: tools.KindApproval, ID: "r1", CallID: "c1", Tool: "bash", Mode: "danger-full-access", Current: "workspace-write",
		Unconfined: true, Justification: why.String(), Workspace: "/home/dev/project", Args: string(args),
		Grant:   &session.Grant{Tool: "bash", Mode: "danger-full-access", Command: command},
		Options: []string{tools.AnswerAllowOnce, tools.AnswerAllowSession, tools.AnswerDeny}}
}

func TestAPaddedApprovalFitsA24By80ScreenWithItsRealModeAndWholeCommand(t *testing.T) {
	var out bytes.Buffer
	got, err := newLineAnswerer(strings.NewReader("d\n"), &out).Ask(context.Background(), paddedApproval())
	if err != nil || got.Answer != tools.AnswerDeny {
		t.Fatalf("got %+v, %v", got, err)
	}
	rows := strings.Split(strings.TrimPrefix(out.String(), "\n"), "\n")
	for _, r := range rows {
		if w := len([]rune(r)); w > 80 {
			t.Errorf("a row is %d columns wide: %q", w, r)
		}
	}
	if len(rows) > 24 {
		t.Fatalf("the approval takes %d rows of a 24-row screen:\n%s", len(rows), out.String())
	}
	screen := strings.Join(rows, "\n")
	if !strings.Contains(screen, "command    ls -la⟨300 spaces⟩; echo HOST > x\n") {
		t.Errorf("the whole command is not shown:\n%s", screen)
	}
	mode := "  mode       danger-full-access, UNCONFINED: no sandbox (now workspace-write)"
	if strings.Count(screen, mode) != 2 || rows[1] != mode || rows[len(rows)-2] != mode {
		t.Errorf("the real mode line must be first and right above the prompt:\n%s", screen)
	}
	if strings.Contains(screen, "mode       read-only") || !strings.Contains(screen, "(the model's words, not checked)") {
		t.Errorf("the justification is not clipped and marked as the model's:\n%s", screen)
	}
}

func TestAPatternGrantIsReadAndMustMatchTheCommand(t *testing.T) {
	q := paddedApproval()
	q.Grant.Command = "go test ./..."
	var out bytes.Buffer
	got, err := newLineAnswerer(strings.NewReader("p\n*\nmake *\ngo test *\n"), &out).Ask(context.Background(), q)
	if err != nil || got.Answer != tools.AnswerAllowSession || got.Pattern != "go test *" {
		t.Fatalf("got %+v, %v\n%s", got, err, out.String())
	}
	for _, want := range []string{"Not a pattern", "does not match the command shown", "Allowed for this session: go test *"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompt lacks %q:\n%s", want, out.String())
		}
	}
}
