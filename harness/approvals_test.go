package harness_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

// deploy is a plain tool every call of which needs the user's approval.
func deploy() tools.Tool {
	spec := tools.Spec{Name: "deploy", Description: "Deploy (test tool).", InputSchema: json.RawMessage(`{"type":"object"}`)}
	return tools.New(spec, func(context.Context, tools.Call, map[string]any) (string, error) { return "deployed", nil },
		tools.NeedsApproval(func(json.RawMessage) bool { return true }))
}

// escalate is a bash call asking to run command unconfined.
func escalate(command string) map[string]any {
	return map[string]any{"name": "bash", "arguments": map[string]any{"command": command, "description": "d",
		"sandbox_permissions": "danger-full-access", "justification": "needs the host"}}
}

func calls(cs ...map[string]any) map[string]any { return map[string]any{"tool_calls": cs} }

var deployCall = map[string]any{"name": "deploy", "arguments": map[string]any{}}

// decisions are the approval/decided records of a log, in order.
func decisions(t *testing.T, events []session.Event) []session.ApprovalDecided {
	t.Helper()
	var out []session.ApprovalDecided
	for _, e := range sessiontest.OfType(events, session.TypeApprovalDecided) {
		out = append(out, sessiontest.Decode[session.ApprovalDecided](t, e))
	}
	return out
}

func TestAnEscalationAndAPlainToolGoThroughOneApprovalService(t *testing.T) {
	home, ws := newHome(t), t.TempDir()
	settings := func(model, approval string) session.Settings {
		return session.Settings{Preset: "standard", Model: "script:" + model, Workspace: ws, Approval: approval, Sandbox: "workspace-write"}
	}
	t.Run("denied under approval never: the same code and the same audit fields", func(t *testing.T) {
		model := script(t, map[string]any{"replies": []any{calls(escalate("echo one"), deployCall), text("done")}})
		s := open(t, home, harness.Options{Settings: settings(model, "never"), Toolset: harness.Toolset, ExtraTools: []tools.Tool{deploy()}})
		defer s.Close()
		run(t, s, "go")
		results := sessiontest.OfType(s.Events(), session.TypeToolResult)
		for _, e := range results {
			r := sessiontest.Decode[session.ToolResult](t, e)
			if r.Error == nil || r.Error.Code != tools.CodeDenied {
				t.Fatalf("%s: %+v, want DENIED", r.Name, r.Error)
			}
		}
		d := decisions(t, s.Events())
		if len(d) != 2 || len(sessiontest.OfType(s.Events(), session.TypeApprovalAsked)) != 0 {
			t.Fatalf("decisions %+v", d)
		}
		want := session.ApprovalDecided{Decision: tools.AnswerDeny, By: tools.ByPolicy, Reason: "approval policy is never"}
		for _, x := range d {
			x.CallID, x.Name = "", ""
			if x != want {
				t.Errorf("decided %+v, want %+v", x, want)
			}
		}
	})
	t.Run("a session grant covers what was shown, is logged, and comes back on resume", func(t *testing.T) {
		model := script(t, map[string]any{"replies": []any{
			calls(escalate("echo one"), deployCall),
			calls(escalate("echo one"), deployCall),
			calls(escalate("echo HOST > x")),
			text("done"),
		}})
		ans := toolstest.Answer(tools.AnswerAllowSession, tools.AnswerAllowSession, tools.AnswerDeny)
		s := open(t, home, harness.Options{Settings: settings(model, "ask"), Toolset: harness.Toolset, ExtraTools: []tools.Tool{deploy()}, Answerer: ans})
		run(t, s, "go")
		if n := len(ans.Asked()); n != 3 {
			t.Fatalf("asked %d times, want 3 (each grant once, then the other command)", n)
		}
		d := decisions(t, s.Events())
		one := &session.Grant{Tool: "bash", Mode: "danger-full-access", Command: "echo one"}
		dep := &session.Grant{Tool: "deploy"}
		type row struct {
			name, decision, by string
			grant              *session.Grant
		}
		var got []row
		for _, x := range d {
			got = append(got, row{x.Name, x.Decision, x.By, x.Grant})
		}
		wantRows := []row{
			{"bash", tools.AnswerAllowSession, tools.ByUser, one}, {"deploy", tools.AnswerAllowSession, tools.ByUser, dep},
			{"bash", tools.AnswerAllowSession, tools.BySessionGrant, one}, {"deploy", tools.AnswerAllowSession, tools.BySessionGrant, dep},
			{"bash", tools.AnswerDeny, tools.ByUser, nil},
		}
		if !reflect.DeepEqual(got, wantRows) {
			t.Fatalf("decisions\n got %+v\nwant %+v", got, wantRows)
		}
		if q := ans.Asked()[2]; q.Grant == nil || q.Grant.Command != "echo HOST > x" {
			t.Fatalf("the other command's request: %+v", q)
		}
		id := s.ID()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}

		again := script(t, map[string]any{"replies": []any{calls(escalate("echo one"), deployCall), text("done")}})
		later := toolstest.Answer(tools.AnswerDeny)
		r := open(t, home, harness.Options{Resume: id, Settings: settings(again, "ask"), Override: []session.Field{session.FieldModel},
			Toolset: harness.Toolset, ExtraTools: []tools.Tool{deploy()}, Answerer: later})
		defer r.Close()
		run(t, r, "again")
		if len(later.Asked()) != 0 {
			t.Fatalf("the resumed session asked again: %+v", later.Asked())
		}
		d = decisions(t, r.Events())
		for _, x := range d[len(d)-2:] {
			if x.By != tools.BySessionGrant || x.Grant == nil {
				t.Fatalf("after resume: %+v", x)
			}
		}
		if pending, err := tools.PendingFrom(r.Events()); err != nil || len(pending) != 0 {
			t.Fatalf("every request was closed: %+v %v", pending, err)
		}
	})
}
