package session_test

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

func TestSumUsage(t *testing.T) {
	ev := func(typ string, data any) session.Event {
		b, _ := json.Marshal(data)
		return session.Event{Type: typ, Data: b}
	}
	priced := llm.Usage{InputTokens: 100, OutputTokens: 10, CacheHitTokens: 40, CostUSD: 0.5}
	unpriced := llm.Usage{InputTokens: 7, OutputTokens: 3}
	events := []session.Event{
		ev(session.TypeUserMessage, map[string]any{"content": "hi"}),
		ev(session.TypeAssistantMessage, session.AssistantMessage{Usage: priced}),
		ev(session.TypeCompactionSummary, session.CompactionSummary{Usage: unpriced}),
		ev(session.TypeToolResult, map[string]any{"usage": priced}), // not a request
		{Type: session.TypeAssistantMessage, Data: json.RawMessage(`{"usage":`)},
	}
	got := session.SumUsage(events)
	t.Run("answers and compaction summaries are summed, other events are not", func(t *testing.T) {
		if got.Requests != 2 || got.All.InputTokens != 107 || got.All.OutputTokens != 13 || got.All.CacheHitTokens != 40 || got.All.CostUSD != 0.5 {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("what the provider did not price is kept apart", func(t *testing.T) {
		if got.Unpriced != unpriced {
			t.Fatalf("%+v", got.Unpriced)
		}
	})
	t.Run("a log without requests sums to nothing", func(t *testing.T) {
		if u := session.SumUsage(events[:1]); u != (session.UsageTotal{}) {
			t.Fatalf("%+v", u)
		}
	})
}
