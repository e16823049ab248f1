package prompt

import (
	"fmt"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// BenchmarkBuildRequest rebuilds the request of a 1000-step session
// (10 000 events, a third of them on the surface).
func BenchmarkBuildRequest(b *testing.B) {
	t := &testing.T{}
	events := []session.Event{ev(t, 0, session.TypeRequestHeader, session.RequestHeader{Model: "m", System: "s"})}
	for i := 0; len(events) < 10_000; i++ {
		id := fmt.Sprintf("c%d", i)
		add := func(typ string, data any) { events = append(events, ev(t, int64(len(events)), typ, data)) }
		add(session.TypeStepStart, session.StepMark{Step: i})
		add(session.TypeAssistantChunk, session.AssistantChunk{Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "x"}})
		add(session.TypeAssistantChunk, session.AssistantChunk{Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "y"}})
		add(session.TypeAssistantMessage, session.AssistantMessage{Message: llm.Message{Content: "xy", ToolCalls: []llm.ToolCall{{ID: id, Name: "read", Arguments: `{"file_path":"go.mod"}`}}}})
		add(session.TypeToolCall, session.ToolCall{CallID: id, Name: "read"})
		add(session.TypeToolResult, session.ToolResult{CallID: id, Name: "read", Content: session.TextBlocks("module x")})
		add(session.TypeStepEnd, session.StepMark{Step: i})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BuildRequest(events); err != nil {
			b.Fatal(err)
		}
	}
}
