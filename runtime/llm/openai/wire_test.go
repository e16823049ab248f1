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

// wireJSON encodes req as the adapter would send it.
func wireJSON(t *testing.T, req llm.Request, model string, o wireOptions) map[string]any {
	t.Helper()
	b, err := json.Marshal(toWire(req, model, o))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestToWireOptions(t *testing.T) {
	zero, warm := 0.0, 0.7
	tests := []struct {
		name string
		temp *float64
		want any
	}{
		{"temperature 0 reaches the wire", &zero, 0.0},
		{"another temperature is sent as is", &warm, 0.7},
		{"no temperature leaves the server's default", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := wireJSON(t, llm.Request{Options: llm.Options{Temperature: tc.temp}}, "m", wireOptions{})
			got, present := w["temperature"]
			if tc.want == nil && present || tc.want != nil && got != tc.want {
				t.Fatalf("temperature %v (present %v), want %v", got, present, tc.want)
			}
		})
	}
	w := toWire(llm.Request{Options: llm.Options{MaxTokens: 100}, Tools: []llm.ToolSpec{{Name: "noargs"}}}, "default-model", wireOptions{})
	if w.Model != "default-model" || w.MaxTokens != 100 || !w.Stream || w.StreamOptions == nil || !w.StreamOptions.IncludeUsage {
		t.Fatalf("options mapped to %+v", w)
	}
	if p := string(w.Tools[0].Function.Parameters); p != `{"type":"object","properties":{}}` {
		t.Fatalf("a tool without a schema got parameters %s", p)
	}
	if len(w.Messages) != 0 {
		t.Fatalf("empty system text must not become a message: %+v", w.Messages)
	}
	if w := wireJSON(t, llm.Request{}, "m", wireOptions{noStreamUsage: true}); w["stream_options"] != nil || w["stream"] != true {
		t.Fatalf("stream_options must go once the server rejected it: %v", w)
	}
}

func TestToWireReasoningGoesBackOnToolCallTurnsOnly(t *testing.T) {
	req := llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: ""},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "bash", Arguments: "{}"}}},
		{Role: llm.RoleTool, ToolCallID: "a", Content: "ok"},
		{Role: llm.RoleAssistant, Reasoning: "thought", ToolCalls: []llm.ToolCall{{ID: "b", Name: "bash", Arguments: "{}"}}},
		{Role: llm.RoleTool, ToolCallID: "b", Content: "ok"},
		{Role: llm.RoleAssistant, Reasoning: "final thought", Content: "done"},
	}}
	tests := []struct {
		name, field, absent string
		want                []any // the field's value on messages 1, 3, 5 (nil: absent)
	}{
		{"reasoning_content is sent on every tool-call turn, empty too", "reasoning_content", "reasoning", []any{"", "thought", nil}},
		{"a server that streams reasoning gets it back there", "reasoning", "reasoning_content", []any{"", "thought", nil}},
		{"a server that uses no reasoning field gets none", "", "reasoning_content", []any{nil, nil, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msgs := wireJSON(t, req, "m", wireOptions{reasoningField: tc.field})["messages"].([]any)
			for i, pos := range []int{1, 3, 5} {
				m := msgs[pos].(map[string]any)
				key := tc.field
				if key == "" {
					key = "reasoning_content"
				}
				if got, ok := m[key]; tc.want[i] == nil && ok || tc.want[i] != nil && got != tc.want[i] {
					t.Fatalf("message %d: %s = %v (present %v), want %v", pos, key, got, ok, tc.want[i])
				}
				if _, ok := m[tc.absent]; ok && tc.absent != key {
					t.Fatalf("message %d carries %s too: %v", pos, tc.absent, m)
				}
			}
		})
	}
	msgs := wireJSON(t, req, "m", wireOptions{})["messages"].([]any)
	if c, ok := msgs[0].(map[string]any)["content"]; !ok || c != "" {
		t.Fatalf("a user message keeps its (empty) content: %v", msgs[0])
	}
	if _, ok := msgs[1].(map[string]any)["content"]; ok {
		t.Fatalf("a tool-call turn without text sends no content: %v", msgs[1])
	}
}

func TestToWireMaxTokensForReasoningModels(t *testing.T) {
	req := llm.Request{Options: llm.Options{MaxTokens: 64}}
	if w := toWire(req, "o3-mini", wireOptions{}); w.MaxCompletionTokens != 64 || w.MaxTokens != 0 {
		t.Fatalf("o3 got max_tokens %d max_completion_tokens %d", w.MaxTokens, w.MaxCompletionTokens)
	}
	if w := toWire(req, "deepseek-v4-flash", wireOptions{}); w.MaxTokens != 64 || w.MaxCompletionTokens != 0 {
		t.Fatalf("deepseek got max_tokens %d max_completion_tokens %d", w.MaxTokens, w.MaxCompletionTokens)
	}
}
