package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

// benchTurn is a text answer with reasoning plus a split tool call.
var benchTurn = llmtest.Turn{
	Reasoning: strings.Repeat("think ", 20),
	Text:      strings.Repeat("answer ", 40),
	ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"go test ./...","description":"run tests"}`}},
}

// BenchmarkStreamLoopback measures one full streamed request against the
// in-process fake server: request encoding, HTTP over loopback, SSE
// parsing and assembly of a text answer plus a split tool call.
func BenchmarkStreamLoopback(b *testing.B) {
	srv := llmtest.NewServerFunc(b, func(int, llmtest.Request) llmtest.Turn { return benchTurn })
	p := New(Config{BaseURL: srv.URL, Model: "m"})
	req := toolRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamInMemory is the adapter alone: the same answer's bytes,
// recorded once from the fake server, are handed back by an in-memory
// transport, so neither the server nor loopback HTTP is measured.
func BenchmarkStreamInMemory(b *testing.B) {
	srv := llmtest.NewServerFunc(b, func(int, llmtest.Request) llmtest.Turn { return benchTurn })
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		_, _ = io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})
	p := New(Config{BaseURL: "http://in-memory/v1", Model: "m", HTTPClient: &http.Client{Transport: rt}})
	req := toolRequest()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
