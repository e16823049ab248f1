package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// memLog is an in-memory Log with a fixed clock.
type memLog struct {
	mu     sync.Mutex
	events []session.Event
	syncs  int
}

func (l *memLog) Append(ctx context.Context, typ string, data any) (session.Event, error) {
	return l.add(typ, data, false)
}

func (l *memLog) AppendDurable(ctx context.Context, typ string, data any) (session.Event, error) {
	return l.add(typ, data, true)
}

func (l *memLog) add(typ string, data any, durable bool) (session.Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return session.Event{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := session.Event{Seq: int64(len(l.events)), Type: typ, Time: 1700000000000, Data: raw}
	l.events = append(l.events, ev)
	if durable {
		l.syncs++
	}
	return ev, nil
}

func (l *memLog) Events() []session.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]session.Event(nil), l.events...)
}

func (l *memLog) Sync(context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.syncs++
	return nil
}

func (l *memLog) types() []string {
	var out []string
	for _, e := range l.Events() {
		if e.Type != session.TypeAssistantChunk {
			out = append(out, e.Type)
		}
	}
	return out
}

// reply is one scripted model answer.
type reply struct {
	text, reasoning string
	calls           []llm.ToolCall
	finish          llm.FinishReason
	err             error
	// block makes the stream wait for ctx after sending its text.
	block bool
}

// fakeProvider plays replies in order and records every request it got.
type fakeProvider struct {
	mu       sync.Mutex
	replies  []reply
	requests []llm.Request
	started  chan struct{} // signalled when a blocking reply is streaming
}

func (p *fakeProvider) Name() string { return "fake" }

func (p *fakeProvider) Stream(ctx context.Context, req llm.Request, onChunk func(llm.Chunk)) (*llm.Response, error) {
	p.mu.Lock()
	p.requests = append(p.requests, req)
	if len(p.replies) == 0 {
		p.mu.Unlock()
		return nil, &llm.Error{Kind: llm.ErrScript, Message: "no more replies"}
	}
	r := p.replies[0]
	p.replies = p.replies[1:]
	p.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	msg := llm.Message{Role: llm.RoleAssistant}
	if r.reasoning != "" {
		onChunk(llm.Chunk{Kind: llm.ChunkReasoning, Text: r.reasoning})
		msg.Reasoning = r.reasoning
	}
	if r.text != "" {
		onChunk(llm.Chunk{Kind: llm.ChunkText, Text: r.text})
		msg.Content = r.text
	}
	for i, c := range r.calls {
		onChunk(llm.Chunk{Kind: llm.ChunkToolCall, Index: i, ID: c.ID, Name: c.Name, ArgsDelta: c.Arguments})
		msg.ToolCalls = append(msg.ToolCalls, c)
	}
	if r.block {
		if p.started != nil {
			p.started <- struct{}{}
		}
		<-ctx.Done()
		return &llm.Response{Message: msg, Finish: llm.FinishAborted}, ctx.Err()
	}
	finish := r.finish
	if finish == "" {
		finish = llm.FinishStop
		if len(r.calls) > 0 {
			finish = llm.FinishToolCalls
		}
	}
	return &llm.Response{Message: msg, Finish: finish, Usage: llm.Usage{InputTokens: 10, OutputTokens: 2}}, nil
}

// echoTool returns its arguments; when gate is set it blocks on it first.
type echoTool struct {
	name      string
	exclusive bool
	gate      chan struct{}
	entered   chan struct{}
}

func (t echoTool) Spec() tools.Spec {
	return tools.Spec{Name: t.name, Description: "echo", InputSchema: json.RawMessage(`{"type": "object"}`)}
}
func (t echoTool) ConcurrencySafe(json.RawMessage) bool { return !t.exclusive }
func (t echoTool) Execute(ctx context.Context, c tools.Call) (any, error) {
	if t.entered != nil {
		t.entered <- struct{}{}
	}
	if t.gate != nil {
		select {
		case <-t.gate:
		case <-ctx.Done():
		}
	}
	var v any
	if err := json.Unmarshal(c.Args, &v); err != nil {
		return nil, err
	}
	return v, nil
}
func (echoTool) Render(v any) string { b, _ := json.Marshal(v); return string(b) }

type sleepRecorder struct{ delays []time.Duration }

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.delays = append(s.delays, d)
	return ctx.Err()
}

func newTestAgent(t *testing.T, p *fakeProvider, log *memLog, mut func(*Config)) *Agent {
	t.Helper()
	n := 0
	cfg := Config{
		Provider: p, Model: "m", System: "You are a test.",
		Tools: runnerOf(t, echoTool{name: "echo"}),
		NewID: func() string { n++; return fmt.Sprintf("id%d", n) },
		Sleep: (&sleepRecorder{}).sleep,
	}
	if mut != nil {
		mut(&cfg)
	}
	a, err := New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var errRateLimited = &llm.Error{Kind: llm.ErrRateLimit, Status: 429, Message: "slow down"}
var errAuth = &llm.Error{Kind: llm.ErrAuth, Status: 401, Message: "set DEEPSEEK_API_KEY"}

// The session package's Log is the production Log.
var _ Log = (*session.Log)(nil)

// runnerOf builds the real tool runtime over ts, natively presented.
func runnerOf(t *testing.T, ts ...tools.Tool) ToolRunner {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, ts...)
	if err != nil {
		t.Fatal(err)
	}
	return FromRunner(tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)}))
}
