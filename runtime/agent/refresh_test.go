package agent

import (
	"context"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestAToolSetChangeIsTakenAtTheNextStepAndLoggedAsAHeaderChange(t *testing.T) {
	p := &fakeProvider{replies: []reply{
		{calls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: `{}`}}},
		{calls: []llm.ToolCall{{ID: "c2", Name: "added", Arguments: `{"x":1}`}}},
		{text: "done"},
	}}
	log := &memLog{}
	asked := 0
	a := newTestAgent(t, p, log, func(c *Config) {
		c.Refresh = func(context.Context) (string, ToolRunner, bool) {
			asked++
			if asked != 2 { // the set changes between the first and the second step
				return "", nil, false
			}
			return "You are a test. Now with more tools.", runnerOf(t, echoTool{name: "echo"}, echoTool{name: "added"}), true
		}
	})
	if _, err := a.RunTurn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if asked != 3 {
		t.Fatalf("Refresh should be asked once per step, got %d", asked)
	}
	headers := sessiontest.OfType(log.Events(), session.TypeRequestHeader)
	if len(headers) != 2 {
		t.Fatalf("want an initial and a change header, got %d", len(headers))
	}
	h := sessiontest.Decode[session.RequestHeader](t, headers[1])
	if h.Reason != prompt.HeaderChange || len(h.Tools) != 2 || h.System != "You are a test. Now with more tools." {
		t.Fatalf("second header: %+v", h)
	}
	if len(p.requests[0].Tools) != 1 || len(p.requests[1].Tools) != 2 {
		t.Fatalf("tools per request: %d, %d", len(p.requests[0].Tools), len(p.requests[1].Tools))
	}
	for _, e := range sessiontest.OfType(log.Events(), session.TypeToolResult) {
		if r := sessiontest.Decode[session.ToolResult](t, e); r.IsError {
			t.Fatalf("the new tool should run: %+v", r)
		}
	}
}
