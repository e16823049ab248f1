package wirecorpus

import (
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

func TestCheckReportsEveryDifference(t *testing.T) {
	zero, text, finish := 0, "hello", "stop"
	calls := []ToolCall{{ID: "a", Name: "w", Arguments: "{}"}}
	after := []string{"a"}
	reasoning := ""
	no := false
	c := Case{Expect: Expect{Exit: &zero, ErrorContains: []string{"boom"}, RequestCount: 2,
		Messages: []MessageExpect{{Content: &text, Finish: &finish, ToolCalls: &calls, Usage: &Usage{Input: 1}}},
		Requests: []RequestExpect{{N: 2, ToolCalls: &calls, ToolIDsAfter: &after, ReasoningContent: &reasoning,
			ReasoningOnAllToolTurns: true, StreamOptions: &no}}}}
	body := `{"stream_options":{"include_usage":true},"messages":[{"role":"user"},` +
		`{"role":"assistant","tool_calls":[{"id":"b","function":{"name":"w","arguments":"{}"}}]},{"role":"user"}]}`
	obs := Observed{Exit: 1, Output: "fine",
		Messages: []Message{{Content: "hell", Finish: "max-tokens", Usage: llm.Usage{InputTokens: 2}}},
		Requests: []llmtest.Request{{Body: []byte(`{}`)}, {Body: []byte(body)}}}
	got := strings.Join(c.Check(obs), "\n")
	for _, want := range []string{"exit 1, want 0", `does not contain "boom"`, `content "hell"`, `finish "max-tokens"`,
		"tool calls []", "usage", `sent tool calls [{"id":"b"`, "tool results after assistant 1 answer []",
		"no string reasoning_content", "has tool calls but no reasoning_content", "stream_options present true"} {
		if !strings.Contains(got, want) {
			t.Errorf("the problems do not mention %q:\n%s", want, got)
		}
	}
	obs = Observed{Messages: []Message{{Content: "hello", Finish: "stop", ToolCalls: []llm.ToolCall{{ID: "a", Name: "w", Arguments: "{}"}},
		Usage: llm.Usage{InputTokens: 1}}}, Output: "boom"}
	if p := (Case{Expect: Expect{Exit: &zero, ErrorContains: []string{"boom"}, Messages: c.Expect.Messages}}).Check(obs); len(p) != 0 {
		t.Fatalf("a matching run reports %q", p)
	}
}

func TestAnExitlessCaseIsCheckedAgainstWhatWasStreamed(t *testing.T) {
	text := "partial"
	c := Case{Expect: Expect{Messages: []MessageExpect{{Content: &text}}}}
	if p := c.Check(Observed{Exit: 1, Streamed: []Message{{Content: "partial"}}}); len(p) != 0 {
		t.Fatalf("%q", p)
	}
	if p := c.Check(Observed{Exit: 1, Streamed: []Message{{Content: "part"}}}); len(p) != 1 {
		t.Fatalf("%q", p)
	}
}
