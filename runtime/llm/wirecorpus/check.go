package wirecorpus

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

// Message is an assistant answer as ptc recorded it (or, in Observed.
// Streamed, as one attempt streamed it).
type Message struct {
	Content   string
	Reasoning string
	ToolCalls []llm.ToolCall
	Finish    string
	Usage     llm.Usage
}

// Observed is what one run of a case produced.
type Observed struct {
	// Exit is the exit status: 0 when every turn completed, else non-zero.
	Exit int
	// Output is everything the run said (stdout and stderr, or the final
	// error), searched for ErrorContains.
	Output string
	// Messages are the recorded answers (assistant/message), in order.
	Messages []Message
	// Streamed is what each attempt streamed (text and reasoning), in
	// order, failed attempts included. A case whose exit is null is
	// checked against it: its stream stops mid-answer, so ptc rightly
	// records no answer, but every chunk of it must have been read.
	Streamed []Message
	// Requests are the requests the server received.
	Requests []llmtest.Request
}

// Check returns every way obs differs from the case's expectations; none
// means the case passes.
func (c Case) Check(obs Observed) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	e := c.Expect
	if e.Exit != nil && (*e.Exit == 0) != (obs.Exit == 0) {
		bad("exit %d, want %d (output: %s)", obs.Exit, *e.Exit, clipOut(obs.Output))
	}
	for _, s := range e.ErrorContains {
		if !strings.Contains(obs.Output, s) {
			bad("the output does not contain %q: %s", s, clipOut(obs.Output))
		}
	}
	if e.RequestCount != 0 && len(obs.Requests) != e.RequestCount {
		bad("%d requests, want %d", len(obs.Requests), e.RequestCount)
	}
	got := obs.Messages
	if e.Exit == nil {
		got = obs.Streamed
	}
	for i, want := range e.Messages {
		if i >= len(got) {
			bad("message %d missing: %d recorded", i+1, len(got))
			continue
		}
		for _, p := range want.diff(got[i]) {
			bad("message %d: %s", i+1, p)
		}
	}
	for _, want := range e.Requests {
		if want.N < 1 || want.N > len(obs.Requests) {
			bad("request %d was never sent (%d requests)", want.N, len(obs.Requests))
			continue
		}
		for _, p := range want.diff(obs.Requests[want.N-1].Body) {
			bad("request %d: %s", want.N, p)
		}
	}
	return out
}

func (w MessageExpect) diff(m Message) []string {
	var out []string
	if w.Content != nil && *w.Content != m.Content {
		out = append(out, fmt.Sprintf("content %q, want %q", clipOut(m.Content), clipOut(*w.Content)))
	}
	if w.Reasoning != nil && *w.Reasoning != m.Reasoning {
		out = append(out, fmt.Sprintf("reasoning %q, want %q", clipOut(m.Reasoning), clipOut(*w.Reasoning)))
	}
	if w.ToolCalls != nil {
		calls := make([]ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			calls[i] = ToolCall(c)
		}
		if g, x := asJSON(calls), asJSON(*w.ToolCalls); g != x {
			out = append(out, fmt.Sprintf("tool calls %s, want %s", g, x))
		}
	}
	if w.Finish != nil && *w.Finish != m.Finish {
		out = append(out, fmt.Sprintf("finish %q, want %q", m.Finish, *w.Finish))
	}
	if w.Usage != nil {
		u := Usage{Input: m.Usage.InputTokens, Output: m.Usage.OutputTokens, CacheHit: m.Usage.CacheHitTokens, Reasoning: m.Usage.ReasoningTokens}
		if u != *w.Usage {
			out = append(out, fmt.Sprintf("usage %+v, want %+v", u, *w.Usage))
		}
	}
	return out
}

// wireMsg is a message of a request body, with the raw reasoning fields
// so that presence can be told from emptiness.
type wireMsg struct {
	Role             string           `json:"role"`
	ReasoningContent *json.RawMessage `json:"reasoning_content"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

func (w RequestExpect) diff(body []byte) []string {
	var req struct {
		Messages      []wireMsg        `json:"messages"`
		StreamOptions *json.RawMessage `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return []string{fmt.Sprintf("body is not JSON: %v", err)}
	}
	var out []string
	if w.StreamOptions != nil && *w.StreamOptions != (req.StreamOptions != nil) {
		out = append(out, fmt.Sprintf("stream_options present %v, want %v", req.StreamOptions != nil, *w.StreamOptions))
	}
	var assistants []int
	for i, m := range req.Messages {
		if m.Role == "assistant" {
			assistants = append(assistants, i)
		}
		if w.ReasoningOnAllToolTurns && m.Role == "assistant" && len(m.ToolCalls) > 0 && m.ReasoningContent == nil {
			out = append(out, fmt.Sprintf("message %d has tool calls but no reasoning_content", i))
		}
		if w.NoReasoningContent && m.ReasoningContent != nil {
			out = append(out, fmt.Sprintf("message %d carries reasoning_content, which this server does not use", i))
		}
	}
	if w.ToolCalls == nil && w.ToolIDsAfter == nil && w.ReasoningContent == nil {
		return out
	}
	k := max(w.Assistant, 1)
	if k > len(assistants) {
		return append(out, fmt.Sprintf("assistant message %d missing (%d sent)", k, len(assistants)))
	}
	pos := assistants[k-1]
	a := req.Messages[pos]
	if w.ToolCalls != nil {
		calls := make([]ToolCall, len(a.ToolCalls))
		for i, c := range a.ToolCalls {
			calls[i] = ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
		}
		if g, x := asJSON(calls), asJSON(*w.ToolCalls); g != x {
			out = append(out, fmt.Sprintf("assistant %d sent tool calls %s, want %s", k, g, x))
		}
	}
	if w.ToolIDsAfter != nil {
		ids := []string{}
		for _, m := range req.Messages[pos+1:] {
			if m.Role != "tool" {
				break
			}
			ids = append(ids, m.ToolCallID)
		}
		if g, x := asJSON(ids), asJSON(*w.ToolIDsAfter); g != x {
			out = append(out, fmt.Sprintf("tool results after assistant %d answer %s, want %s", k, g, x))
		}
	}
	if w.ReasoningContent != nil {
		var got string
		if a.ReasoningContent == nil || json.Unmarshal(*a.ReasoningContent, &got) != nil {
			out = append(out, fmt.Sprintf("assistant %d has no string reasoning_content, want %q", k, clipOut(*w.ReasoningContent)))
		} else if got != *w.ReasoningContent {
			out = append(out, fmt.Sprintf("assistant %d reasoning_content %q, want %q", k, clipOut(got), clipOut(*w.ReasoningContent)))
		}
	}
	return out
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// clip shortens s for a failure message, cutting between characters.
// clipOut shortens an observed or expected text for a failure message.
func clipOut(s string) string { return clip.String(s, 300) }
