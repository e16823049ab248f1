package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestASimpleTurnLogsItsEventsInOrder(t *testing.T) {
	p := &fakeProvider{replies: []reply{{reasoning: "think", text: "hello there"}}}
	log := &memLog{}
	var seen []string
	a := newTestAgent(t, p, log, func(c *Config) { c.Observer = func(e session.Event) { seen = append(seen, e.Type) } })
	out, err := a.RunTurn(context.Background(), "hello")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"turn/start", "step/start", "user/message", "request/header", "context/meter", "assistant/message", "step/end", "turn/end"}
	if got := log.types(); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
	if len(seen) != len(log.Events()) {
		t.Fatalf("observer saw %d events, log has %d", len(seen), len(log.Events()))
	}
	if out.Reason != session.ReasonCompleted || out.Text != "hello there" || out.Turn != 1 || out.Usage.InputTokens != 10 {
		t.Fatalf("outcome = %+v", out)
	}
	h := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(log.Events(), session.TypeRequestHeader)[0])
	if h.Reason != prompt.HeaderInitial || h.Provider != "fake" || h.System != "You are a test." {
		t.Fatalf("header = %+v", h)
	}
}

func TestEveryRequestRebuildsByteIdenticallyFromTheLog(t *testing.T) {
	p := &fakeProvider{replies: []reply{
		{text: "calling", calls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: `{"a":1}`}, {ID: "c2", Name: "echo", Arguments: ""}}},
		{err: errRateLimited},
		{calls: []llm.ToolCall{{ID: "c3", Name: "nope", Arguments: `{bad`}}},
		{text: "done"},
		{text: "second turn"},
	}}
	log := &memLog{}
	sandbox := "workspace-write"
	a := newTestAgent(t, p, log, func(c *Config) {
		c.Context = func() prompt.Context { return prompt.Context{Sandbox: sandbox, Workspace: "/w"} }
	})
	if _, err := a.RunTurn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	sandbox = "read-only"
	if _, err := a.RunTurn(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}

	events := log.Events()
	var rebuilt []llm.Request
	for i, e := range events {
		// A request was sent right before the first event of each attempt:
		// its first chunk, or its failure or message when nothing streamed.
		attemptEvent := e.Type == session.TypeAssistantChunk || e.Type == session.TypeAssistantAttempt || e.Type == session.TypeAssistantMessage
		if attemptEvent && events[i-1].Type != session.TypeAssistantChunk {
			req, err := prompt.BuildRequest(events[:i])
			if err != nil {
				t.Fatal(err)
			}
			rebuilt = append(rebuilt, req)
		}
	}
	if len(rebuilt) != len(p.requests) {
		t.Fatalf("rebuilt %d requests, provider saw %d", len(rebuilt), len(p.requests))
	}
	for i := range rebuilt {
		got, _ := json.Marshal(rebuilt[i])
		sent, _ := json.Marshal(p.requests[i])
		if string(got) != string(sent) {
			t.Fatalf("request %d differs:\nsent    %s\nrebuilt %s", i, sent, got)
		}
	}
	if n := len(sessiontest.OfType(events, session.TypeRequestHeader)); n != 1 {
		t.Fatalf("an unchanged header must be logged once, got %d", n)
	}
	if n := len(sessiontest.OfType(events, session.TypeUserMessage)); n != 4 {
		t.Fatalf("want 2 snapshots and 2 user messages, got %d user/message events", n)
	}
	last := p.requests[len(p.requests)-1]
	if !strings.Contains(last.Messages[len(last.Messages)-2].Content, "read-only") {
		t.Fatalf("the changed runtime context must precede the new input: %+v", last.Messages)
	}
}

func TestToolCallsAreRecordedInModelOrder(t *testing.T) {
	p := &fakeProvider{replies: []reply{
		{calls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: `{"a":1}`}, {ID: "c2", Name: "echo", Arguments: `{oops`}, {ID: "c3", Name: "missing"}}},
		{text: "ok"},
	}}
	log := &memLog{}
	a := newTestAgent(t, p, log, nil)
	if _, err := a.RunTurn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	// Calls and results may interleave (safe calls run in a pool), but each
	// kind is in model order and every result follows its call.
	callAt := map[string]int64{}
	var callOrder []string
	for _, e := range sessiontest.OfType(log.Events(), session.TypeToolCall) {
		c := sessiontest.Decode[session.ToolCall](t, e)
		callAt[c.CallID], callOrder = e.Seq, append(callOrder, c.CallID)
	}
	if !slices.Equal(callOrder, []string{"c1", "c2", "c3"}) {
		t.Fatalf("tool/call order = %v", callOrder)
	}
	for _, e := range sessiontest.OfType(log.Events(), session.TypeToolResult) {
		if r := sessiontest.Decode[session.ToolResult](t, e); e.Seq < callAt[r.CallID] {
			t.Fatalf("the result of %s precedes its call", r.CallID)
		}
	}
	results := sessiontest.OfType(log.Events(), session.TypeToolResult)
	codes := []string{}
	for _, r := range results {
		tr := sessiontest.Decode[session.ToolResult](t, r)
		code := ""
		if tr.Error != nil {
			code = tr.Error.Code
		}
		codes = append(codes, tr.CallID+":"+code)
	}
	if !slices.Equal(codes, []string{"c1:", "c2:" + tools.CodeInvalidArgs, "c3:" + tools.CodeUnknownTool}) {
		t.Fatalf("results = %v", codes)
	}
	second := p.requests[1].Messages
	if second[1].Role != llm.RoleAssistant || second[2].Role != llm.RoleTool || second[2].ToolCallID != "c1" {
		t.Fatalf("the tool result must follow the assistant call: %+v", second)
	}
}

func TestTurnEndings(t *testing.T) {
	loop := reply{calls: []llm.ToolCall{{ID: "x", Name: "echo", Arguments: "{}"}}}
	cases := []struct {
		name    string
		replies []reply
		mut     func(*Config)
		reason  string
		calls   int
	}{
		{"a step budget ends a runaway turn", []reply{loop, loop, loop}, func(c *Config) { c.MaxSteps = 2 }, session.ReasonMaxSteps, 2},
		{"a max-tokens finish ends the turn without running the cut-off calls",
			[]reply{{text: "partial", calls: loop.calls, finish: llm.FinishMaxTokens}}, nil, session.ReasonMaxTokens, 0},
		{"a non-retryable model error ends the turn with the failure", []reply{{err: errAuth}}, nil, session.ReasonError, 0},
		{"a pre-step hook may block the turn", []reply{{text: "never"}},
			func(c *Config) { c.Hooks.PreStep = []PreStepHook{rejectAll{}} }, session.ReasonBlocked, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := &memLog{}
			a := newTestAgent(t, &fakeProvider{replies: c.replies}, log, c.mut)
			out, err := a.RunTurn(context.Background(), "go")
			if err != nil {
				t.Fatal(err)
			}
			end := sessiontest.Decode[session.TurnEnd](t, sessiontest.OfType(log.Events(), session.TypeTurnEnd)[0])
			if out.Reason != c.reason || end.Reason != c.reason {
				t.Fatalf("reason = %q (logged %q), want %q", out.Reason, end.Reason, c.reason)
			}
			if n := len(sessiontest.OfType(log.Events(), session.TypeToolCall)); n != c.calls {
				t.Fatalf("%d tool calls ran, want %d", n, c.calls)
			}
			if c.reason == session.ReasonError && (end.Failure == "" || out.Err == nil) {
				t.Fatalf("an error turn must carry its failure: %+v", end)
			}
		})
	}
}

type rejectAll struct{}

func (rejectAll) PreStep(context.Context, int, int, []Input) ([]Input, bool, error) {
	return nil, true, nil
}

func TestARateLimitIsRetriedInTheSameStep(t *testing.T) {
	p := &fakeProvider{replies: []reply{{err: errRateLimited}, {text: "ok"}}}
	log := &memLog{}
	slept := &sleepRecorder{}
	a := newTestAgent(t, p, log, func(c *Config) {
		c.Sleep = slept.sleep
		c.Retry = llm.RetryPolicy{MaxRetries: 5, Base: time.Millisecond, Max: time.Millisecond}
	})
	out, err := a.RunTurn(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"turn/start", "step/start", "user/message", "request/header", "context/meter", "assistant/attempt", "llm/retry",
		"context/meter", "assistant/message", "step/end", "turn/end"}
	if got := log.types(); !reflect.DeepEqual(got, want) || out.Reason != session.ReasonCompleted {
		t.Fatalf("events = %v (reason %s)\nwant %v", got, out.Reason, want)
	}
	r := sessiontest.Decode[session.LLMRetry](t, sessiontest.OfType(log.Events(), session.TypeLLMRetry)[0])
	if r.Attempt != 1 || r.Code != string(llm.ErrRateLimit) || len(slept.delays) != 1 {
		t.Fatalf("retry = %+v, sleeps %v", r, slept.delays)
	}
}

func TestTurnStoppingHookAndSteeringAddSteps(t *testing.T) {
	p := &fakeProvider{replies: []reply{{text: "first"}, {text: "second"}}}
	log := &memLog{}
	a := newTestAgent(t, p, log, func(c *Config) { c.Hooks.TurnStopping = []TurnStoppingHook{&steerOnce{}} })
	out, err := a.RunTurn(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if out.Steps != 2 || out.Text != "second" {
		t.Fatalf("outcome = %+v", out)
	}
	msgs := p.requests[1].Messages
	if msgs[len(msgs)-1].Content != "keep going" {
		t.Fatalf("the steering input must be the last message: %+v", msgs)
	}
}

type steerOnce struct{ done bool }

func (s *steerOnce) TurnStopping(context.Context, int) []Input {
	if s.done {
		return nil
	}
	s.done = true
	return []Input{{Text: "keep going", Source: session.Source{Kind: "plugin", Name: "test", Form: "notice"}}}
}

func TestCancellation(t *testing.T) {
	t.Run("a half-streamed answer is kept as interrupted without its tool calls", func(t *testing.T) {
		p := &fakeProvider{started: make(chan struct{}), replies: []reply{
			{text: "half", calls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: `{"a"`}}, block: true}}}
		log := &memLog{}
		a := newTestAgent(t, p, log, nil)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-p.started; cancel() }()
		out, err := a.RunTurn(ctx, "go")
		if err != nil {
			t.Fatal(err)
		}
		msg := sessiontest.Decode[session.AssistantMessage](t, sessiontest.OfType(log.Events(), session.TypeAssistantMessage)[0])
		if !msg.Interrupted || msg.Message.Content != "half" || len(msg.Message.ToolCalls) != 0 {
			t.Fatalf("message = %+v", msg)
		}
		if out.Reason != session.ReasonAborted || len(sessiontest.OfType(log.Events(), session.TypeToolCall)) != 0 {
			t.Fatalf("outcome = %+v", out)
		}
	})
	t.Run("started calls drain and unstarted ones are aborted before dispatch", func(t *testing.T) {
		gate, entered := make(chan struct{}), make(chan struct{})
		p := &fakeProvider{replies: []reply{{calls: []llm.ToolCall{
			{ID: "c1", Name: "slow", Arguments: `{"n":1}`}, {ID: "c2", Name: "slow", Arguments: `{"n":2}`}}}}}
		log := &memLog{}
		a := newTestAgent(t, p, log, func(c *Config) {
			c.Tools = runnerOf(t, echoTool{name: "slow", exclusive: true, gate: gate, entered: entered})
		})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-entered; cancel(); close(gate) }()
		out, err := a.RunTurn(ctx, "go")
		if err != nil {
			t.Fatal(err)
		}
		results := sessiontest.OfType(log.Events(), session.TypeToolResult)
		first, second := sessiontest.Decode[session.ToolResult](t, results[0]), sessiontest.Decode[session.ToolResult](t, results[1])
		drained := first.Error == nil || first.Error.Code != tools.CodeAbortedBeforeDispatch
		if !drained || second.Error == nil || second.Error.Code != tools.CodeAbortedBeforeDispatch {
			t.Fatalf("results = %+v / %+v", first, second)
		}
		if len(sessiontest.OfType(log.Events(), session.TypeToolCall)) != 2 || out.Reason != session.ReasonAborted {
			t.Fatalf("want a tool/call per call and an aborted turn, got %v", log.types())
		}
	})
}

func TestResumeContinuesTurnNumbering(t *testing.T) {
	log := &memLog{}
	a := newTestAgent(t, &fakeProvider{replies: []reply{{text: "one"}}}, log, nil)
	if _, err := a.RunTurn(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	b := newTestAgent(t, &fakeProvider{replies: []reply{{text: "two"}}}, log, nil)
	out, err := b.RunTurn(context.Background(), "second")
	if err != nil {
		t.Fatal(err)
	}
	headers := sessiontest.OfType(log.Events(), session.TypeRequestHeader)
	if out.Turn != 2 || len(headers) != 2 || sessiontest.Decode[session.RequestHeader](t, headers[1]).Reason != prompt.HeaderResume {
		t.Fatalf("turn %d, headers %d", out.Turn, len(headers))
	}
}

func TestNewRefusesAnIncompleteConfig(t *testing.T) {
	if _, err := New(Config{Model: "m"}, &memLog{}); err == nil {
		t.Fatal("want an error without a provider")
	}
	if _, err := New(Config{Provider: &fakeProvider{}}, &memLog{}); err == nil {
		t.Fatal("want an error without a model")
	}
}

func TestApprovalNeverDeniesACallThatNeedsApproval(t *testing.T) {
	spec := tools.Spec{Name: "rm", Description: "remove", InputSchema: json.RawMessage(`{"type":"object"}`)}
	ran := false
	rm := tools.New(spec, func(context.Context, tools.Call, map[string]any) (string, error) { ran = true; return "gone", nil },
		tools.NeedsApproval(func(json.RawMessage) bool { return true }))
	p := &fakeProvider{replies: []reply{{calls: []llm.ToolCall{{ID: "c1", Name: "rm", Arguments: "{}"}}}, {text: "ok"}}}
	log := &memLog{}
	a := newTestAgent(t, p, log, func(c *Config) { c.Tools = runnerOf(t, rm) })
	if _, err := a.RunTurn(context.Background(), "clean up"); err != nil {
		t.Fatal(err)
	}
	res := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(log.Events(), session.TypeToolResult)[0])
	if ran || res.Error == nil || res.Error.Code != tools.CodeDenied {
		t.Fatalf("ran=%v result=%+v", ran, res)
	}
	if len(sessiontest.OfType(log.Events(), session.TypeApprovalDecided)) != 1 {
		t.Fatalf("the denial must be recorded through the agent's sink: %v", log.types())
	}
}

func TestEveryCallGetsAResultWithoutToolsEvenWhenIDsRepeat(t *testing.T) {
	p := &fakeProvider{replies: []reply{
		{calls: []llm.ToolCall{{ID: "same", Name: "echo"}, {ID: "same", Name: "grep"}}},
		{text: "ok"},
	}}
	log := &memLog{}
	a := newTestAgent(t, p, log, func(c *Config) { c.Tools = nil })
	if _, err := a.RunTurn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range sessiontest.OfType(log.Events(), session.TypeToolResult) {
		r := sessiontest.Decode[session.ToolResult](t, e)
		if r.Error == nil || r.Error.Code != tools.CodeUnknownTool {
			t.Fatalf("result = %+v, want UNKNOWN_TOOL", r)
		}
		names = append(names, r.Name)
	}
	if calls := sessiontest.OfType(log.Events(), session.TypeToolCall); len(calls) != 2 || !slices.Equal(names, []string{"echo", "grep"}) {
		t.Fatalf("%d tool/call events, results for %v; want one pair per call", len(calls), names)
	}
}
