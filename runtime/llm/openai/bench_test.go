package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

// BenchmarkStreamLoopback measures one full streamed request against the
// in-process fake server: request encoding, HTTP over loopback, SSE
// parsing and assembly of a text answer plus a split tool call.
func BenchmarkStreamLoopback(b *testing.B) {
	turn := llmtest.Turn{
		Reasoning: strings.Repeat("think ", 20),
		Text:      strings.Repeat("answer ", 40),
		ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"go test ./...","description":"run tests"}`}},
	}
	srv := llmtest.NewServerFunc(b, func(int, llmtest.Request) llmtest.Turn { return turn })
	p := New(Config{BaseURL: srv.URL, Model: "m"})
	req := toolRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}
