package tools

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

// sink records emitted events.
type sink struct {
	mu     sync.Mutex
	events []string
	data   []any
}

func (s *sink) Emit(typ string, data any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, typ)
	s.data = append(s.data, data)
	return nil
}

func (s *sink) types() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.events...)
}

// answerer replies from a script and counts questions.
type answerer struct {
	mu      sync.Mutex
	answers []string
	err     error
	asked   []Question
}

func (a *answerer) Ask(_ context.Context, q Question) (Reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	if a.err != nil {
		return Reply{}, a.err
	}
	ans := a.answers[0]
	if len(a.answers) > 1 {
		a.answers = a.answers[1:]
	}
	return Reply{Answer: ans}, nil
}

func (a *answerer) questions() []Question {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Question(nil), a.asked...)
}

// attended is a service under p with a attending (none when nil).
func attended(p Policy, a Answerer) *Approvals {
	svc := NewApprovals(p)
	if a != nil {
		svc.Attend(a)
	}
	return svc
}

type readIn struct {
	FilePath string `json:"file_path"`
	Limit    int    `json:"limit,omitempty"`
}

type readOut struct {
	Text string `json:"text"`
}

var readSpec = Spec{
	Name:         "read",
	Description:  "Read a file.",
	InputSchema:  json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["file_path"],"additionalProperties":false}`),
	OutputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
}

// readTool echoes the path it was given.
func readTool(opts ...Option) Tool {
	return New(readSpec, func(_ context.Context, _ Call, in readIn) (readOut, error) {
		return readOut{Text: "contents of " + in.FilePath}, nil
	}, append([]Option{Safe()}, opts...)...)
}

var looseSpec = json.RawMessage(`{"type":"object"}`)

// funcTool builds an untyped tool from a function, for pipeline tests.
func funcTool(name string, fn func(ctx context.Context, call Call) (any, error), opts ...Option) Tool {
	return New(Spec{Name: name, Description: name, InputSchema: looseSpec},
		func(ctx context.Context, call Call, _ map[string]any) (any, error) { return fn(ctx, call) }, opts...)
}

func mustRegistry(t testing.TB, p Presentation, ts ...Tool) *Registry {
	t.Helper()
	r, err := NewRegistry(p, ts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func code(r Result) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}
