package openai

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
)

func TestOrderToolResults(t *testing.T) {
	call := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "t"})
		}
		return m
	}
	result := func(id string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id} }
	user := llm.Message{Role: llm.RoleUser, Content: "u"}
	tests := []struct {
		name string
		in   []llm.Message
		want []llm.Message
	}{
		{"a well-formed history is unchanged",
			[]llm.Message{user, call("a", "b"), result("a"), result("b"), user},
			[]llm.Message{user, call("a", "b"), result("a"), result("b"), user}},
		{"a message between a call and its result moves after the results",
			[]llm.Message{user, call("a"), user, result("a")},
			[]llm.Message{user, call("a"), result("a"), user}},
		{"results stop at the next assistant message",
			[]llm.Message{call("a"), result("a"), call("b"), user, result("b")},
			[]llm.Message{call("a"), result("a"), call("b"), result("b"), user}},
		{"a stray result stays where it was",
			[]llm.Message{call("a"), result("x"), result("a")},
			[]llm.Message{call("a"), result("a"), result("x")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(orderToolResults(tc.in))
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestToWireOptions(t *testing.T) {
	temp := 0.7
	w := toWire(llm.Request{Options: llm.Options{Temperature: &temp, MaxTokens: 100},
		Tools: []llm.ToolSpec{{Name: "noargs"}}}, "default-model")
	if w.Model != "default-model" || w.MaxTokens != 100 || w.Temperature != float32(0.7) {
		t.Fatalf("options mapped to %+v", w)
	}
	if p, _ := json.Marshal(w.Tools[0].Function.Parameters); string(p) != `{"type":"object","properties":{}}` {
		t.Fatalf("a tool without a schema got parameters %s", p)
	}
	if len(w.Messages) != 0 {
		t.Fatalf("empty system text must not become a message: %+v", w.Messages)
	}
}

func TestToWireMaxTokensForReasoningModels(t *testing.T) {
	req := llm.Request{Model: "o3-mini", Options: llm.Options{MaxTokens: 64}}
	if w := toWire(req, ""); w.MaxCompletionTokens != 64 || w.MaxTokens != 0 {
		t.Fatalf("o3 got max_tokens %d max_completion_tokens %d", w.MaxTokens, w.MaxCompletionTokens)
	}
	req.Model = "deepseek-chat"
	if w := toWire(req, ""); w.MaxTokens != 64 || w.MaxCompletionTokens != 0 {
		t.Fatalf("deepseek got max_tokens %d max_completion_tokens %d", w.MaxTokens, w.MaxCompletionTokens)
	}
}

func TestToUsageFallsBackToOpenAICachedTokens(t *testing.T) {
	var c streamChunk
	raw := `{"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":32},"completion_tokens_details":{"reasoning_tokens":2}}}`
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	got := toUsage(c.Usage)
	if got != (llm.Usage{InputTokens: 50, OutputTokens: 5, CacheHitTokens: 32, ReasoningTokens: 2}) {
		t.Fatalf("usage %+v", got)
	}
}

func TestAssemblerWithoutIndexes(t *testing.T) {
	a := newAssembler(func(llm.Chunk) {})
	for _, raw := range []string{
		`{"choices":[{"delta":{"tool_calls":[{"id":"x","type":"function","function":{"name":"read","arguments":"{\"a\""}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":":1}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"y","type":"function","function":{"name":"glob","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
	} {
		var c streamChunk
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatal(err)
		}
		a.add(&c)
	}
	r := a.response()
	want := []llm.ToolCall{{ID: "x", Name: "read", Arguments: `{"a":1}`}, {ID: "y", Name: "glob", Arguments: "{}"}}
	if got, _ := json.Marshal(r.Message.ToolCalls); string(got) != mustJSON(t, want) {
		t.Fatalf("calls %s", got)
	}
}
