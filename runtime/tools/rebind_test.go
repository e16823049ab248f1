package tools

import (
	"context"
	"encoding/json"
	"testing"
)

func TestARunnerOverANewRegistryKeepsTheSessionGrants(t *testing.T) {
	needs := NeedsApproval(func(json.RawMessage) bool { return true })
	a := &answerer{answers: []string{AnswerAllowSession, AnswerDeny}}
	run := NewRunner(mustRegistry(t, PresentNative, readTool(needs)), RunnerConfig{Approvals: attended(PolicyAsk, a)})
	if res := run.Dispatch(context.Background(), Call{ID: "c1", Name: "read", Raw: `{"file_path":"a"}`}); res.IsError {
		t.Fatal(res.Content)
	}
	next := run.WithRegistry(mustRegistry(t, PresentNative, readTool(needs)))
	if res := next.Dispatch(context.Background(), Call{ID: "c2", Name: "read", Raw: `{"file_path":"b"}`}); res.IsError {
		t.Fatalf("the allow-for-the-session grant should carry over: %s", res.Content)
	}
	if len(a.asked) != 1 {
		t.Fatalf("asked %d times, want once", len(a.asked))
	}
}
