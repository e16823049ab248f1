package agent_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/llm/script"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

type readArgs struct {
	N int `json:"n"`
}

// bigRead returns 20 KB of distinct text per call.
func bigRead() tools.Tool {
	spec := tools.Spec{Name: "read_big", Description: "Read one big file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}
	return tools.New(spec, func(_ context.Context, _ tools.Call, in readArgs) (string, error) {
		var b strings.Builder
		for i := 0; b.Len() < 20_000; i++ {
			fmt.Fprintf(&b, "file %d, line %d: the quick brown fox jumps over the lazy dog\n", in.N, i)
		}
		return b.String()[:20_000], nil
	}, tools.Safe())
}

// todoAt are the steps that also rewrite the todo list, and the list.
var todoAt = map[int][]session.TodoItem{
	30:  {{Content: "read files 1-100", Status: "in_progress"}, {Content: "write the report", Status: "pending"}},
	110: {{Content: "read files 1-100", Status: "completed"}, {Content: "read files 101-200", Status: "in_progress"}, {Content: "write the report", Status: "pending"}},
	160: {{Content: "read files 1-100", Status: "completed"}, {Content: "read files 101-200", Status: "in_progress"}, {Content: "write the report", Status: "in_progress"}},
}

// longScript is 200 steps of one read_big call each (some with a
// todo_write), a final answer, and a summary for every compaction.
func longScript(steps int) []script.Reply {
	var out []script.Reply
	for i := 1; i <= steps; i++ {
		r := script.Reply{Text: fmt.Sprintf("Reading file %d.", i),
			ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("r%d", i), Name: "read_big", Arguments: fmt.Sprintf(`{"n":%d}`, i)}}}
		if todos, ok := todoAt[i]; ok {
			args, _ := json.Marshal(map[string]any{"todos": todos})
			r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("t%d", i), Name: "todo_write", Arguments: string(args)})
		}
		out = append(out, r)
	}
	out = append(out, script.Reply{Text: "All files read."})
	out = append(out, script.Reply{Summary: true, Repeat: true,
		Text: "<summary>\n## Task and intent\nRead every file.\n## Next step\nRead the next file.\n</summary>"})
	return out
}

type longRun struct {
	store  *session.MemStore
	events []session.Event
	reqs   []llm.Request
	out    agent.Outcome
}

func runLong(t testing.TB, cfg compact.Config) longRun {
	t.Helper()
	ctx := context.Background()
	store := session.NewMemStore()
	log, err := session.Create(ctx, store, session.Header{ID: "long"}, session.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := &llmtest.Capture{Provider: script.New(longScript(200))}
	a := newAgent(t, p, log, cfg)
	out, err := a.RunTurn(ctx, "Read the 200 files one by one.")
	if err != nil {
		t.Fatal(err)
	}
	return longRun{store: store, events: log.Events(), reqs: p.Requests(), out: out}
}

func newAgent(t testing.TB, p llm.Provider, log agent.Log, cfg compact.Config) *agent.Agent {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, bigRead(), toolbox.TodoWrite())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	a, err := agent.New(agent.Config{
		Provider: p, Model: "m", System: "You read files.",
		Tools:      agent.FromRunner(tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})),
		Compaction: cfg,
		NewID:      func() string { n++; return fmt.Sprintf("id%d", n) },
		Context:    func() prompt.Context { return prompt.Context{Workspace: "/w", Sandbox: "read-only"} },
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// scriptTokens is what the scripted provider reports as input tokens.
func scriptTokens(req llm.Request) int {
	b, _ := json.Marshal(req)
	return (len(b) + 3) / 4
}

func indexes(events []session.Event, typ string) []int {
	var out []int
	for i, e := range events {
		if e.Type == typ {
			out = append(out, i)
		}
	}
	return out
}

func TestALongSessionStaysInsideItsWindow(t *testing.T) {
	const window = 32768
	r := runLong(t, compact.Config{Window: window, Auto: true})
	if r.out.Reason != session.ReasonCompleted || r.out.Steps != 201 || r.out.Text != "All files read." {
		t.Fatalf("outcome %+v", r.out)
	}
	meters, pruned := indexes(r.events, session.TypeContextMeter), indexes(r.events, session.TypeToolPruned)
	starts := indexes(r.events, session.TypeCompactionStart)
	t.Logf("%d requests, %d pruned results, %d compactions", len(r.reqs), len(pruned), len(starts))

	t.Run("no request exceeds the window", func(t *testing.T) {
		for i, req := range r.reqs {
			if n := scriptTokens(req); n > window {
				t.Fatalf("request %d is %d tokens", i, n)
			}
		}
		for _, i := range meters {
			m := sessiontest.Decode[session.ContextMeter](t, r.events[i])
			if m.Tokens > window || m.Window != window || m.Threshold != window*8/10 {
				t.Fatalf("meter %+v", m)
			}
		}
	})
	t.Run("pruning happens before compaction", func(t *testing.T) {
		if len(pruned) == 0 || len(starts) < 2 || pruned[0] > starts[0] {
			t.Fatalf("first prune at %v, first compaction at %v", pruned, starts)
		}
	})
	t.Run("each compaction request is the previous request plus one user message", func(t *testing.T) {
		n := 0
		for i, req := range r.reqs {
			if !llm.IsSummaryRequest(req) {
				continue
			}
			n++
			prev := r.reqs[i-1]
			if llm.IsSummaryRequest(prev) {
				t.Fatalf("request %d: two summary requests in a row (a retry or a second pass)", i)
			}
			k := len(prev.Messages)
			if req.System != prev.System || !reflect.DeepEqual(req.Tools, prev.Tools) ||
				len(req.Messages) != k+1 || !reflect.DeepEqual(req.Messages[:k], prev.Messages) || req.Messages[k].Role != llm.RoleUser {
				t.Fatalf("summary request %d is not request %d plus one user message", i, i-1)
			}
		}
		if n != len(starts) {
			t.Fatalf("%d summary requests for %d compactions", n, len(starts))
		}
	})
	t.Run("every request rebuilds from the stored log", func(t *testing.T) {
		ld, err := session.LoadSession(context.Background(), r.store, "long")
		if err != nil {
			t.Fatal(err)
		}
		rebuilt, err := compact.SentRequests(ld.Events)
		if err != nil {
			t.Fatal(err)
		}
		if len(rebuilt) != len(r.reqs) {
			t.Fatalf("%d requests rebuilt, %d sent", len(rebuilt), len(r.reqs))
		}
		for i := range rebuilt {
			a, _ := json.Marshal(rebuilt[i].Request)
			b, _ := json.Marshal(r.reqs[i])
			if string(a) != string(b) || rebuilt[i].Summary != llm.IsSummaryRequest(r.reqs[i]) {
				t.Fatalf("request %d rebuilds differently", i)
			}
		}
		// SentRequests keeps one decoding across prefixes; the pure
		// function must agree on the last step request.
		meters := indexes(ld.Events, session.TypeContextMeter)
		pure, err := prompt.BuildRequest(ld.Events[:meters[len(meters)-1]+1])
		if err != nil || !reflect.DeepEqual(pure, r.reqs[len(r.reqs)-1]) {
			t.Fatalf("BuildRequest does not rebuild the last request (%v)", err)
		}
	})
	t.Run("the latest todo list survives compaction", func(t *testing.T) {
		var latest []session.TodoItem
		summaries := 0
		for _, e := range r.events {
			switch e.Type {
			case session.TypeTodoWrite:
				d := sessiontest.Decode[session.TodoWrite](t, e)
				latest = d.Todos
			case session.TypeUserMessage:
				d := sessiontest.Decode[session.UserMessage](t, e)
				if d.Replaces == nil || latest == nil {
					continue
				}
				summaries++
				for _, td := range latest {
					if line := fmt.Sprintf("- [%s] %s", td.Status, td.Content); !strings.Contains(d.Content[0].Text, line) {
						t.Fatalf("summary at seq %d lacks the todo %q", e.Seq, line)
					}
				}
			}
		}
		final, err := prompt.BuildRequest(r.events)
		if err != nil {
			t.Fatal(err)
		}
		if summaries == 0 || !strings.Contains(final.Messages[0].Content, "- [in_progress] write the report") {
			t.Fatalf("%d summaries after a todo list; final surface opens with %.200q", summaries, final.Messages[0].Content)
		}
	})
	t.Run("a resumed session continues from the compacted surface", func(t *testing.T) {
		ctx := context.Background()
		log, err := session.Open(ctx, r.store, "long", session.LogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before, err := prompt.BuildRequest(log.Events())
		if err != nil {
			t.Fatal(err)
		}
		p := &llmtest.Capture{Provider: script.New([]script.Reply{{Text: "Report written."}})}
		out, err := newAgent(t, p, log, compact.Config{Window: window, Auto: true}).RunTurn(ctx, "Now write the report.")
		if err != nil || out.Reason != session.ReasonCompleted {
			t.Fatalf("resumed turn %+v, %v", out, err)
		}
		got := p.Requests()[0].Messages
		if len(got) != len(before.Messages)+1 || !reflect.DeepEqual(got[:len(before.Messages)], before.Messages) {
			t.Fatal("the resumed request does not start with the stored surface")
		}
		m := sessiontest.Decode[session.ContextMeter](t, log.Events()[indexes(log.Events(), session.TypeContextMeter)[len(meters)]])
		if m.Basis != compact.BasisReported {
			t.Fatalf("the resumed meter did not restore its baseline: %+v", m)
		}
	})
}

// overflowOnce answers its first request the way OpenAI and DeepSeek
// refuse an over-long one (with the window it states, 32768 by default),
// and passes every later request on.
type overflowOnce struct {
	llm.Provider
	window  int
	refused bool
}

func (p *overflowOnce) Stream(ctx context.Context, req llm.Request, on func(llm.Chunk)) (*llm.Response, error) {
	if !p.refused {
		p.refused = true
		w := cmp.Or(p.window, 32768)
		return nil, &llm.Error{Kind: llm.ErrContextOverflow, Status: 400, ContextWindow: w, RequestTokens: w + 700,
			Message: fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens.", w, w+700)}
	}
	return p.Provider.Stream(ctx, req, on)
}

// history is a new session in store whose first turn read steps 20 KB
// files, under cfg.
func history(t *testing.T, store session.Store, id string, steps int, cfg compact.Config) *session.Log {
	t.Helper()
	ctx := context.Background()
	log, err := session.Create(ctx, store, session.Header{ID: id}, session.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := newAgent(t, script.New(longScript(steps)), log, cfg).RunTurn(ctx, "Read the files."); err != nil || out.Reason != session.ReasonCompleted {
		t.Fatalf("setup turn %+v, %v", out, err)
	}
	return log
}

func TestAContextOverflowIsCompactedAndTheStepRetried(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	// Nothing to prune (PruneAbove is over every result), so the
	// recovery has to compact. The history is one the meter believes fits:
	// about 20 k tokens in 4 steps.
	cfg := compact.Config{Window: 32768, Auto: true, PruneAbove: 1 << 20}
	log := history(t, store, "o", 4, cfg)
	replies := []script.Reply{{Text: "Summarised and done."}, longScript(0)[1]}
	p := &llmtest.Capture{Provider: &overflowOnce{Provider: script.New(replies)}}
	out, err := newAgent(t, p, log, cfg).RunTurn(ctx, "Now summarise what you read.")
	if err != nil || out.Reason != session.ReasonCompleted || out.Text != "Summarised and done." {
		t.Fatalf("turn %+v, %v", out, err)
	}
	events := log.Events()
	var kinds []string
	for _, e := range events[indexes(events, session.TypeTurnStart)[1]:] {
		switch e.Type {
		case session.TypeAssistantAttempt, session.TypeLLMRetry, session.TypeCompactionStart, session.TypeCompactionEnd, session.TypeAssistantMessage:
			kinds = append(kinds, e.Type)
		}
	}
	want := []string{session.TypeAssistantAttempt, session.TypeLLMRetry, session.TypeCompactionStart, session.TypeCompactionEnd, session.TypeAssistantMessage}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	start := sessiontest.Decode[session.CompactionStart](t, events[indexes(events, session.TypeCompactionStart)[0]])
	retry := sessiontest.Decode[session.LLMRetry](t, events[indexes(events, session.TypeLLMRetry)[0]])
	if start.Trigger != session.TriggerOverflow || retry.Code != string(llm.ErrContextOverflow) || retry.Step != 1 {
		t.Fatalf("compaction %+v after retry %+v", start, retry)
	}
	reqs := p.Requests()
	last := reqs[len(reqs)-1]
	if !strings.HasPrefix(last.Messages[0].Content, "[Summary of the earlier part") || compact.RequestTokens(last) >= compact.RequestTokens(reqs[0]) {
		t.Fatal("the retried request is not the compacted one")
	}
	t.Run("an overflow compaction cannot cure ends the turn saying so, once", func(t *testing.T) {
		p := &alwaysOverflow{}
		out, err := newAgent(t, p, log, cfg).RunTurn(ctx, "Again.")
		if err != nil || out.Reason != session.ReasonError || p.calls != 1 || !strings.HasPrefix(out.Failure, "model request failed (context-overflow") ||
			!strings.Contains(out.Failure, "maximum context length is 32768 tokens") ||
			!strings.Contains(out.Failure, "context window is 32768 tokens, even after pruning old tool results and compacting") {
			t.Fatalf("turn %+v after %d requests, %v", out, p.calls, err)
		}
		if _, err := newAgent(t, script.New([]script.Reply{{Text: "still usable"}}), log, compact.Config{}).RunTurn(ctx, "hello"); err != nil {
			t.Fatalf("the session is not usable after the failure: %v", err)
		}
	})
	t.Run("a smaller window the provider states becomes the session's", func(t *testing.T) {
		log := history(t, store, "o3", 2, cfg)
		p := &overflowOnce{Provider: script.New(replies), window: 8192}
		if out, err := newAgent(t, p, log, cfg).RunTurn(ctx, "Go on."); err != nil || out.Reason != session.ReasonCompleted {
			t.Fatalf("turn %+v, %v", out, err)
		}
		meters := indexes(log.Events(), session.TypeContextMeter)
		m := sessiontest.Decode[session.ContextMeter](t, log.Events()[meters[len(meters)-1]])
		if m.Window != 8192 || m.Tokens > 8192 {
			t.Fatalf("last reading %+v, want it inside the stated 8192-token window", m)
		}
	})
	t.Run("a second overflow after a compaction ends the turn with the provider's message", func(t *testing.T) {
		log := history(t, store, "o2", 4, cfg)
		p := &alwaysOverflow{}
		out, err := newAgent(t, p, log, cfg).RunTurn(ctx, "Go on.")
		if err != nil || out.Reason != session.ReasonError || !strings.Contains(out.Failure, "maximum context length") || p.calls != 3 {
			t.Fatalf("turn %+v after %d requests (want step, summary, step), %v", out, p.calls, err)
		}
	})
}

// alwaysOverflow refuses every step request and answers summaries.
type alwaysOverflow struct{ calls int }

func (p *alwaysOverflow) Name() string { return "overflow" }

func (p *alwaysOverflow) Stream(ctx context.Context, req llm.Request, on func(llm.Chunk)) (*llm.Response, error) {
	p.calls++
	if llm.IsSummaryRequest(req) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "<summary>short</summary>"}, Finish: llm.FinishStop}, nil
	}
	return nil, &llm.Error{Kind: llm.ErrContextOverflow, Status: 400, Message: "maximum context length is 32768 tokens"}
}

func TestAnInputLargerThanTheWindowIsRefusedUpFront(t *testing.T) {
	ctx := context.Background()
	log, err := session.Create(ctx, session.NewMemStore(), session.Header{ID: "big"}, session.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := &llmtest.Capture{Provider: script.New([]script.Reply{{Text: "never"}})}
	out, err := newAgent(t, p, log, compact.Config{Window: 32768}).RunTurn(ctx, strings.Repeat("0123456789", 1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	if out.Reason != session.ReasonError || !strings.Contains(out.Failure, "about 2500000 tokens (10000000 characters)") ||
		!strings.Contains(out.Failure, "context window of 32768 tokens") {
		t.Fatalf("outcome %+v", out)
	}
	if len(p.Requests()) != 0 || len(indexes(log.Events(), session.TypeUserMessage)) != 0 {
		t.Fatal("the input was sent or logged")
	}
}

// tokensSent sums what the provider counts over requests, and the share
// of it a prefix cache could have served (each request against the one
// before it).
func tokensSent(reqs []llm.Request) (sent int, cacheable float64) {
	prefix, total := 0, 0
	for i, r := range reqs {
		sent += scriptTokens(r)
		total += compact.RequestTokens(r)
		if i > 0 {
			prefix += compact.PrefixTokens(reqs[i-1], r)
		}
	}
	return sent, float64(prefix) / float64(total)
}

// BenchmarkLongSessionTokens runs the 200-step session (20 KB results, a
// 32 k window) with pruning and compaction and without, and reports the
// tokens sent by each (as the provider counts them, summary requests
// included), the share a prefix cache could serve, and how much of each
// summary request is an exact prefix of the request before it.
//
//	go test ./runtime/agent -run XXX -bench LongSessionTokens -benchtime 1x
func BenchmarkLongSessionTokens(b *testing.B) {
	var with, without longRun
	for range b.N {
		with = runLong(b, compact.Config{Window: 32768, Auto: true})
		without = runLong(b, compact.Config{Window: 32768})
	}
	sentWith, cacheWith := tokensSent(with.reqs)
	sentWithout, cacheWithout := tokensSent(without.reqs)
	minShare, sum, n := 1.0, 0.0, 0
	var shares []string
	for i, r := range with.reqs {
		if !llm.IsSummaryRequest(r) {
			continue
		}
		share := float64(compact.PrefixTokens(with.reqs[i-1], r)) / float64(compact.RequestTokens(r))
		minShare, sum, n = min(minShare, share), sum+share, n+1
		shares = append(shares, fmt.Sprintf("%.4f", share))
	}
	b.Logf("summary requests, share that is an exact prefix of the request before: %s", strings.Join(shares, " "))
	b.ReportMetric(float64(sentWith), "tokens-sent")
	b.ReportMetric(float64(sentWithout), "tokens-sent-uncompacted")
	b.ReportMetric(float64(sentWith)/float64(sentWithout), "sent-ratio")
	b.ReportMetric(cacheWith, "cacheable-share")
	b.ReportMetric(cacheWithout, "cacheable-share-uncompacted")
	b.ReportMetric(float64(n), "compactions")
	if n > 0 {
		b.ReportMetric(minShare, "summary-prefix-share-min")
		b.ReportMetric(sum/float64(n), "summary-prefix-share-mean")
	}
}
