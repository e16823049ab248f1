package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestAHookRewritesTheArgumentsAndTheyAreValidatedAgain(t *testing.T) {
	rewrite := func(args string) Hook {
		return Hook{Name: "fmt", Pre: func(context.Context, Call) Verdict { return Verdict{Args: json.RawMessage(args)} }}
	}
	t.Run("valid: the tool sees the new arguments", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{Hooks: []Hook{rewrite(`{"file_path": "b.go"}`)}})
		res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path": "a.go"}`})
		if res.IsError || !strings.Contains(res.Content, "contents of b.go") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("invalid: INVALID_ARGS naming the hook, the tool never runs", func(t *testing.T) {
		run := NewRunner(mustRegistry(t, PresentNative, readTool()), RunnerConfig{Hooks: []Hook{rewrite(`{"file_path": 7}`)}})
		res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path": "a.go"}`})
		if code(res) != CodeInvalidArgs || !strings.Contains(res.Content, "hook fmt rewrote") {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("a rewrite into a write is refused in a read-only session", func(t *testing.T) {
		w := New(readSpec, func(_ context.Context, _ Call, in readIn) (readOut, error) { return readOut{Text: "wrote"}, nil },
			Writes(func(a json.RawMessage) bool { return strings.Contains(string(a), "w.go") }))
		run := NewRunner(mustRegistry(t, PresentNative, w), RunnerConfig{Hooks: []Hook{rewrite(`{"file_path": "w.go"}`)},
			Env: &Env{ReadOnly: func() string { return "plan mode is on" }}})
		res := run.Dispatch(context.Background(), Call{Name: "read", Raw: `{"file_path": "a.go"}`})
		if code(res) != CodeDenied {
			t.Fatalf("%+v", res)
		}
	})
}
