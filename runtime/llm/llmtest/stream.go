package llmtest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm/internal/pieces"
)

// streamer writes one Turn as server-sent events.
type streamer struct {
	w      http.ResponseWriter
	r      *http.Request
	closed <-chan struct{}
	drip   time.Duration
	id     string
	model  string
	sent   int
}

func (s *streamer) run(turn Turn, requestBytes int) {
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	s.w.WriteHeader(http.StatusOK)

	ok := s.delta(map[string]any{"role": "assistant", "content": ""})
	for _, piece := range pieces.Split(turn.Reasoning, 2) {
		ok = ok && s.delta(map[string]any{"reasoning_content": piece})
	}
	for _, piece := range pieces.Split(turn.Text, 3) {
		ok = ok && s.delta(map[string]any{"content": piece})
	}
	for i, c := range turn.ToolCalls {
		ok = ok && s.toolCall(i, c)
	}
	if !ok {
		return
	}
	switch {
	case turn.Hang:
		s.hang()
		return
	case turn.Cut:
		s.cut()
		return
	case turn.StreamError != "":
		s.data(map[string]any{"error": map[string]any{"message": turn.StreamError, "type": "server_error"}})
		return
	}
	s.finish(turn, requestBytes)
}

func (s *streamer) toolCall(i int, c ToolCall) bool {
	first := map[string]any{"index": i, "id": c.ID, "type": "function",
		"function": map[string]any{"name": c.Name, "arguments": ""}}
	if !s.delta(map[string]any{"tool_calls": []any{first}}) {
		return false
	}
	for _, piece := range pieces.Split(c.Arguments, 3) {
		frag := map[string]any{"index": i, "function": map[string]any{"arguments": piece}}
		if !s.delta(map[string]any{"tool_calls": []any{frag}}) {
			return false
		}
	}
	return true
}

func (s *streamer) finish(turn Turn, requestBytes int) {
	reason := turn.Finish
	if reason == "" {
		reason = "stop"
		if len(turn.ToolCalls) > 0 {
			reason = "tool_calls"
		}
	}
	if !s.chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": reason}}, nil) {
		return
	}
	u := turn.Usage
	if u == nil {
		u = estimate(turn, requestBytes)
	}
	usage := map[string]any{
		"prompt_tokens":            u.Prompt,
		"completion_tokens":        u.Completion,
		"total_tokens":             u.Prompt + u.Completion,
		"prompt_cache_hit_tokens":  u.CacheHit,
		"prompt_cache_miss_tokens": u.Prompt - u.CacheHit,
		"prompt_tokens_details":    map[string]any{"cached_tokens": u.CacheHit},
		"completion_tokens_details": map[string]any{
			"reasoning_tokens": u.Reasoning,
		},
	}
	if s.chunk([]any{}, usage) {
		s.raw("[DONE]")
	}
}

// estimate derives plausible usage from sizes, about four bytes a token.
func estimate(turn Turn, requestBytes int) *Usage {
	out := len(turn.Text) + len(turn.Reasoning)
	for _, c := range turn.ToolCalls {
		out += len(c.Name) + len(c.Arguments)
	}
	return &Usage{Prompt: requestBytes / 4, Completion: out/4 + 1, Reasoning: len(turn.Reasoning) / 4}
}

func (s *streamer) delta(d map[string]any) bool {
	return s.chunk([]any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}, nil)
}

func (s *streamer) chunk(choices []any, usage map[string]any) bool {
	c := map[string]any{
		"id": s.id, "object": "chat.completion.chunk", "created": 1700000000,
		"model": s.model, "choices": choices, "usage": usage,
	}
	return s.data(c)
}

func (s *streamer) data(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own maps are marshalled
	}
	return s.raw(string(b))
}

// raw writes one event, after the drip pause, and reports whether the
// client is still there.
func (s *streamer) raw(payload string) bool {
	return s.write([]byte("data: " + payload + "\n\n"))
}

// write sends b, after the drip pause (except before the first write),
// flushed, and reports whether the client is still there.
func (s *streamer) write(b []byte) bool {
	if s.sent > 0 && s.drip > 0 {
		t := time.NewTimer(s.drip)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.r.Context().Done():
			return false
		case <-s.closed:
			return false
		}
	}
	s.sent++
	if _, err := s.w.Write(b); err != nil {
		return false
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
	return true
}

// cut closes the TCP connection mid-response, so the client sees a
// chunked body that never terminates.
func (s *streamer) cut() {
	h, ok := s.w.(http.Hijacker)
	if !ok {
		return
	}
	if conn, _, err := h.Hijack(); err == nil {
		_ = conn.Close()
	}
}

func (s *streamer) hang() {
	select {
	case <-s.r.Context().Done():
	case <-s.closed:
	}
}
