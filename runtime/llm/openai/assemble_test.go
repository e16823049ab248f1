package openai

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/models"
)

// fold runs raw chunk payloads through a fresh assembler.
func fold(t *testing.T, raws ...string) (*assembler, *wireError) {
	t.Helper()
	a := newAssembler(func(llm.Chunk) {})
	for _, raw := range raws {
		var c wireChunk
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if werr := a.add(&c); werr != nil {
			return a, werr
		}
	}
	return a, nil
}

func TestToUsageFallsBackToOpenAICachedTokens(t *testing.T) {
	a, _ := fold(t, `{"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":32},"completion_tokens_details":{"reasoning_tokens":2}}}`)
	if a.usage != (llm.Usage{InputTokens: 50, OutputTokens: 5, CacheHitTokens: 32, ReasoningTokens: 2}) {
		t.Fatalf("usage %+v", a.usage)
	}
}

func TestAssemblerToolCalls(t *testing.T) {
	tests := []struct {
		name string
		raws []string
		want []llm.ToolCall
	}{
		{"without indexes a new id starts a call and none continues the last",
			[]string{
				`{"choices":[{"delta":{"tool_calls":[{"id":"x","type":"function","function":{"name":"read","arguments":"{\"a\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":":1}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"y","type":"function","function":{"name":"glob","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			},
			[]llm.ToolCall{{ID: "x", Name: "read", Arguments: `{"a":1}`}, {ID: "y", Name: "glob", Arguments: "{}"}}},
		{"an index repeated with a different id starts a new call",
			[]string{
				`{"choices":[{"delta":{"tool_calls":[{"id":"a","index":0,"function":{"name":"w","arguments":"{\"n\":1}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"b","index":0,"function":{"name":"w","arguments":"{\"n\":2}"}}]}}]}`,
			},
			[]llm.ToolCall{{ID: "a", Name: "w", Arguments: `{"n":1}`}, {ID: "b", Name: "w", Arguments: `{"n":2}`}}},
		{"an index repeated with the same or an empty id continues the call",
			[]string{
				`{"choices":[{"delta":{"tool_calls":[{"id":"a","index":0,"function":{"name":"w","arguments":"{\"n\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"","index":0,"function":{"name":"","arguments":":1"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"a","index":0,"function":{"arguments":"}"}}]}}]}`,
			},
			[]llm.ToolCall{{ID: "a", Name: "w", Arguments: `{"n":1}`}}},
		{"a first call at index 1 is still the first call",
			[]string{`{"choices":[{"delta":{"tool_calls":[{"id":"t","index":1,"function":{"name":"r","arguments":"{}"}}]}}]}`},
			[]llm.ToolCall{{ID: "t", Name: "r", Arguments: "{}"}}},
		{"arguments sent as an object are kept as JSON text",
			[]string{`{"choices":[{"delta":{"tool_calls":[{"id":"o","index":0,"function":{"name":"r","arguments":{"path":"a"}}}]}}]}`},
			[]llm.ToolCall{{ID: "o", Name: "r", Arguments: `{"path":"a"}`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := fold(t, tc.raws...)
			if got, _ := json.Marshal(a.response().Message.ToolCalls); string(got) != mustJSON(t, tc.want) {
				t.Fatalf("calls %s, want %s", got, mustJSON(t, tc.want))
			}
		})
	}
}

func TestAssemblerReasoningAndContent(t *testing.T) {
	tests := []struct {
		name                   string
		raws                   []string
		text, reasoning, field string
	}{
		{"reasoning_content is reasoning",
			[]string{`{"choices":[{"delta":{"reasoning_content":"hm","content":null}}]}`, `{"choices":[{"delta":{"content":"ok"}}]}`},
			"ok", "hm", models.ReasoningContent},
		{"an empty reasoning_content still names the field",
			[]string{`{"choices":[{"delta":{"reasoning_content":"","content":"ok"}}]}`}, "ok", "", models.ReasoningContent},
		{"delta.reasoning is reasoning too",
			[]string{`{"choices":[{"delta":{"reasoning":"hm"}}]}`, `{"choices":[{"delta":{"content":"ok"}}]}`}, "ok", "hm", models.Reasoning},
		{"a server sending both fields is not read twice",
			[]string{`{"choices":[{"delta":{"reasoning":"hm","reasoning_content":"hm"}}]}`}, "", "hm", models.ReasoningContent},
		{"content as an array of parts splits into reasoning and text",
			[]string{
				`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"think"}],"closed":true}]}}]}`,
				`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":"ing"},{"type":"text","text":"39"},{"type":"image_url","image_url":"x"}]}}]}`,
				`{"choices":[{"delta":{"content":[{"type":"text","text":"1"}]}}]}`,
			}, "391", "thinking", ""},
		{"a choice other than the first is ignored",
			[]string{`{"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}]}`}, "mine", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := fold(t, tc.raws...)
			m := a.response().Message
			if m.Content != tc.text || m.Reasoning != tc.reasoning || a.field != tc.field {
				t.Fatalf("text %q reasoning %q field %q", m.Content, m.Reasoning, a.field)
			}
		})
	}
}

func TestAssemblerErrorObjects(t *testing.T) {
	tests := []struct {
		name, raw, message, code string
	}{
		{"a top-level error without choices", `{"error":{"message":"boom","type":"server_error","code":null}}`, "boom", ""},
		{"a top-level error with choices and finish error",
			`{"error":{"code":"server_error","message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`,
			"Provider disconnected", "server_error"},
		{"a numeric code", `{"error":{"code":502,"message":"bad gateway"}}`, "bad gateway", "502"},
		{"an error that is a string", `{"error":"overloaded"}`, "overloaded", ""},
		{"an error inside the choice", `{"choices":[{"index":0,"delta":{},"error":{"message":"in choice"}}]}`, "in choice", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, werr := fold(t, tc.raw)
			if werr == nil || werr.Message != tc.message || werr.Code != tc.code {
				t.Fatalf("error %+v", werr)
			}
		})
	}
}

func FuzzChunkDecoding(f *testing.F) {
	f.Add(`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"a"}]}]}}]}`)
	f.Add(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":{"x":1}}}]}}],"usage":{"prompt_tokens":1}}`)
	f.Add(`{"error":{"message":{"detail":[{"loc":["body",1],"msg":"m"}]}}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var c wireChunk
		if json.Unmarshal([]byte(raw), &c) != nil {
			return
		}
		a := newAssembler(func(llm.Chunk) {})
		a.add(&c)
		a.response()
	})
}
