package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

type sink struct{ runs []session.HookRun }

func (s *sink) Emit(typ string, data any) error {
	if r, ok := data.(session.HookRun); ok {
		s.runs = append(s.runs, r)
	}
	return nil
}

func settings(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadReadsBothShapesAndNamesBadFields(t *testing.T) {
	p := settings(t, `{"permissions": {}, "hooks": {
	  "PreToolUse": [{"matcher": "Bash|edit", "command": "a", "timeout_ms": 1500},
	                 {"matcher": "*", "hooks": [{"type": "command", "command": "b", "timeout": 2}, {"type": "command", "command": "c"}]}],
	  "Stop": [{"command": "d"}]}}`)
	s, _, err := Load(p, "")
	if err != nil {
		t.Fatal(err)
	}
	all := s.All()
	if len(all) != 4 || all[0].Timeout.Milliseconds() != 1500 || all[1].Timeout.Seconds() != 2 || all[2].Timeout != DefaultTimeout || all[2].Name() != "user PreToolUse[2]" {
		t.Fatalf("%+v", all)
	}
	if got := len(s.For(PreToolUse, "bash")); got != 3 {
		t.Fatalf("bash matches %d hooks (the matcher is case-insensitive)", got)
	}
	if got := len(s.For(PreToolUse, "bashful")); got != 2 {
		t.Fatalf("bashful matches %d hooks (the matcher is anchored)", got)
	}
	for _, bad := range []string{
		`{"hooks": {"PreToolCall": []}}`, `{"hooks": {"PreToolUse": [{"matcher": "(", "command": "x"}]}}`,
		`{"hooks": {"PreToolUse": [{"command": ""}]}}`, `{"hooks": {"Stop": [{"command": "x", "timeout_ms": -1}]}}`,
		`{"hooks": {"Stop": [{"comand": "x"}]}}`, `{"hooks": [1]}`,
	} {
		if _, _, err := Load(settings(t, bad), ""); err == nil || !strings.Contains(err.Error(), "settings.json") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, warns, err := Load("", settings(t, `{"hooks": {"Nope": []}}`)); err != nil || len(warns) != 1 {
		t.Fatalf("a bad project file: %v %v", warns, err)
	}
}

func engine(t *testing.T, text string) (*Engine, *sink, context.Context) {
	t.Helper()
	s, _, err := Load(settings(t, text), "")
	if err != nil {
		t.Fatal(err)
	}
	sk := &sink{}
	ctx := tools.WithEnv(context.Background(), &tools.Env{Sink: sk})
	return New(s, Config{Workspace: t.TempDir(), SessionID: "s1"}), sk, ctx
}

func pre(e *Engine, ctx context.Context, args string) tools.Verdict {
	return e.ToolHooks()[0].Pre(ctx, tools.Call{ID: "c1", Name: "bash", Args: json.RawMessage(args)})
}

func TestPreToolUseAnswers(t *testing.T) {
	cases := []struct {
		name, command string
		action        tools.Action
		reason, args  string
	}{
		{"exit 0 allows", "exit 0", tools.Allow, "", ""},
		{"stdin carries the call", `in=$(cat); echo "$in" | grep -q '"tool_name":"bash"' && echo "$in" | grep -q '"hook_event_name":"PreToolUse"' || exit 2`, tools.Allow, "", ""},
		{"exit 2 blocks with stderr, sanitised", `printf 'no\033[2J way' >&2; exit 2`, tools.Deny, `no\x1b[2J way`, ""},
		{"exit 1 fails closed", "echo boom >&2; exit 1", tools.Deny, "failed with exit status 1: boom", ""},
		{"a missing program fails closed", "/no/such/program", tools.Deny, "exit status 127", ""},
		{"JSON block", `echo '{"decision": "block", "reason": "not now"}'`, tools.Deny, "not now", ""},
		{"Claude Code's permissionDecision", `echo '{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "check"}}'`, tools.Ask, "check", ""},
		{"updatedInput rewrites", `echo '{"updatedInput": {"command": "ls"}}'`, tools.Allow, "", `{"command": "ls"}`},
		{"broken JSON fails closed", `echo '{"decision": '`, tools.Deny, "not", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "bash", "command": c.command}}}})
			e, sk, ctx := engine(t, string(b))
			v := pre(e, ctx, `{"command": "rm -rf /"}`)
			if v.Action != c.action || !strings.Contains(v.Reason, c.reason) || string(v.Args) != c.args {
				t.Fatalf("verdict %+v", v)
			}
			if len(sk.runs) != 1 || sk.runs[0].CallID != "c1" || sk.runs[0].Hook != "user PreToolUse[0]" {
				t.Fatalf("events %+v", sk.runs)
			}
		})
	}
}

func TestAProjectHookWithoutAnyoneToApproveIsSkippedOnce(t *testing.T) {
	p := settings(t, `{"hooks": {"PreToolUse": [{"command": "exit 2"}]}}`)
	s, _, err := Load("", p)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	e := New(s, Config{Workspace: t.TempDir(), Trust: OpenTrust(t.TempDir()), Project: func(context.Context, Spec) Run { ran++; return Run{} }})
	sk := &sink{}
	ctx := tools.WithEnv(context.Background(), &tools.Env{Sink: sk, Approvals: tools.NewApprovals(tools.PolicyAsk)})
	for range 2 {
		if v := pre(e, ctx, `{}`); v.Action != tools.Allow {
			t.Fatalf("%+v", v)
		}
	}
	if ran != 0 || len(sk.runs) != 2 || sk.runs[0].Decision != session.HookSkipped {
		t.Fatalf("ran %d, events %+v", ran, sk.runs)
	}
}

type allow struct{ asked []tools.Question }

func (a *allow) Ask(_ context.Context, q tools.Question) (tools.Reply, error) {
	a.asked = append(a.asked, q)
	return tools.Reply{Answer: tools.AnswerAllowSession}, nil
}

func TestAnApprovedProjectHookIsRememberedPerWorkspaceAndDefinition(t *testing.T) {
	p := settings(t, `{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "echo \u001b[2J; exit 2"}]}}`)
	s, _, err := Load("", p)
	if err != nil {
		t.Fatal(err)
	}
	home, ws := t.TempDir(), t.TempDir()
	ran := 0
	project := func(context.Context, Spec) Run { ran++; return Run{ExitCode: 2, Stderr: "project says no"} }
	approvals := tools.NewApprovals(tools.PolicyAsk)
	ans := &allow{}
	defer approvals.Attend(ans)()
	ctx := tools.WithEnv(context.Background(), &tools.Env{Sink: &sink{}, Approvals: approvals})
	e := New(s, Config{Workspace: ws, Trust: OpenTrust(home), Project: project})
	if v := pre(e, ctx, `{}`); v.Action != tools.Deny || v.Reason != "project says no" || ran != 1 {
		t.Fatalf("%+v ran %d", v, ran)
	}
	if len(ans.asked) != 1 || !strings.Contains(ans.asked[0].Args, `\x1b[2J`) || !strings.Contains(ans.asked[0].Text, "confined") {
		t.Fatalf("the question: %+v", ans.asked)
	}
	// A new session (a new engine, no memo) runs it without asking.
	e2 := New(s, Config{Workspace: ws, Trust: OpenTrust(home), Project: project})
	pre(e2, ctx, `{}`)
	if len(ans.asked) != 1 || ran != 2 {
		t.Fatalf("asked %d, ran %d", len(ans.asked), ran)
	}
	// Another workspace, or a changed definition, asks again.
	e3 := New(s, Config{Workspace: t.TempDir(), Trust: OpenTrust(home), Project: project})
	pre(e3, ctx, `{}`)
	changed, _, _ := Load("", settings(t, `{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "exit 0"}]}}`))
	e4 := New(changed, Config{Workspace: ws, Trust: OpenTrust(home), Project: project})
	pre(e4, ctx, `{}`)
	if len(ans.asked) != 3 {
		t.Fatalf("asked %d times", len(ans.asked))
	}
}
