package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

func TestReadOnlySessionsRefuseWritingCalls(t *testing.T) {
	const why = "plan mode is on"
	var ran atomic.Int32
	writeTool := funcTool("write", func(context.Context, Call) (any, error) { ran.Add(1); return "written", nil },
		Writes(AlwaysWrites), NeedsApproval(func(json.RawMessage) bool { return true }))
	shell := funcTool("bash", func(context.Context, Call) (any, error) { ran.Add(1); return "ran", nil },
		Writes(func(args json.RawMessage) bool { return strings.Contains(string(args), "sandbox_permissions") }))
	cases := []struct {
		name     string
		readOnly string
		tool     string
		args     string
		nested   bool
		refused  bool
	}{
		{name: "a write is refused while read-only", readOnly: why, tool: "write", args: `{}`, refused: true},
		{name: "a write from a program is refused too", readOnly: why, tool: "write", args: `{}`, nested: true, refused: true},
		{name: "a shell call asking for a wider sandbox is refused", readOnly: why, tool: "bash", args: `{"sandbox_permissions":"workspace-write"}`, refused: true},
		{name: "a plain shell call runs", readOnly: why, tool: "bash", args: `{"command":"ls"}`},
		{name: "a tool that never writes runs", readOnly: why, tool: "read", args: `{"file_path":"a"}`},
		{name: "a write runs once the session is writable", tool: "write", args: `{}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran.Store(0)
			s, hookRan := &sink{}, false
			hook := Hook{Name: "spy", Pre: func(context.Context, Call) Verdict { hookRan = true; return Verdict{} }}
			reg := mustRegistry(t, PresentBoth, writeTool, shell, readTool())
			r := NewRunner(reg, RunnerConfig{Approvals: NewApprovals(PolicyNever), Hooks: []Hook{hook},
				Env: &Env{Sink: s, ReadOnly: func() string { return c.readOnly }}})
			res := r.Dispatch(context.Background(), Call{ID: "c1", Name: c.tool, Raw: c.args, Nested: c.nested})
			if !c.refused {
				if code(res) == CodeDenied && strings.Contains(res.Content, why) {
					t.Fatalf("refused: %q", res.Content)
				}
				return
			}
			if code(res) != CodeDenied || !strings.Contains(res.Content, why) || !strings.Contains(res.Content, c.tool) {
				t.Fatalf("want a DENIED result naming %s and %q, got %q", c.tool, why, res.Content)
			}
			if ran.Load() != 0 || hookRan {
				t.Fatalf("the body ran %d times, hook ran %v: a refused call must stop before both", ran.Load(), hookRan)
			}
			types := s.types()
			if len(types) != 1 || types[0] != session.TypeApprovalDecided {
				t.Fatalf("events %v: the refusal must be logged as one approval decision", types)
			}
			if d := s.data[0].(session.ApprovalDecided); d.By != ByReadOnly || d.Decision != AnswerDeny || d.Reason != why {
				t.Fatalf("%+v", d)
			}
		})
	}
}

func TestReadOnlyIsReadAtEachCall(t *testing.T) {
	var on atomic.Bool
	on.Store(true)
	w := funcTool("write", func(context.Context, Call) (any, error) { return "ok", nil }, Writes(AlwaysWrites))
	r := NewRunner(mustRegistry(t, PresentNative, w), RunnerConfig{})
	ctx := WithEnv(context.Background(), &Env{ReadOnly: func() string {
		if on.Load() {
			return "plan mode is on"
		}
		return ""
	}})
	if res := r.Dispatch(ctx, Call{Name: "write", Raw: `{}`}); code(res) != CodeDenied {
		t.Fatalf("while on: %q", res.Content)
	}
	on.Store(false)
	if res := r.Dispatch(ctx, Call{Name: "write", Raw: `{}`}); res.IsError {
		t.Fatalf("after switching off: %q", res.Content)
	}
}
