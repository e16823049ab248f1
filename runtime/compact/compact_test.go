package compact

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/script"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

const window = 32768

func fit(t *testing.T, m *Manager, l testLog) Fitted {
	t.Helper()
	req, err := prompt.BuildRequest(l.Events())
	must(t, err)
	f, err := m.Fit(context.Background(), 1, 99, req, nil)
	must(t, err)
	return f
}

func TestFitUnderTheThresholdChangesNothing(t *testing.T) {
	l := sessionWith(t, 3, 20000)
	m := New(Config{Window: window, Auto: true}, scripted(), l, counter(), nil)
	before := len(l.Events())
	f := fit(t, m, l)
	if f.Pruned != 0 || f.Compaction != nil || len(l.Events()) != before || f.Refusal != "" {
		t.Fatalf("fit = %+v, %d new events", f, len(l.Events())-before)
	}
	if f.Reading.Basis != BasisEstimate || f.Reading.Tokens < 15000 || f.Reading.Tokens > 16000 {
		t.Fatalf("reading = %+v, want an estimate of about 15 k tokens", f.Reading)
	}
}

func TestFitPrunesOldestFirstAndStopsUnderTheThreshold(t *testing.T) {
	l := sessionWith(t, 6, 20000)
	p := scripted()
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	f := fit(t, m, l)
	if f.Compaction != nil || len(p.Requests()) != 0 {
		t.Fatalf("pruning was enough, yet a compaction ran: %+v", f.Compaction)
	}
	if f.Pruned != 2 || f.Reading.Tokens > m.Config().ThresholdTokens() {
		t.Fatalf("pruned %d, reading %d (threshold %d); want 2 pruned and under", f.Pruned, f.Reading.Tokens, m.Config().ThresholdTokens())
	}
	items, err := session.Surface(l.Events())
	must(t, err)
	var pruned []string
	for _, it := range items {
		if it.Pruned {
			pruned = append(pruned, it.Message.ToolCallID)
			if n := Chars(it.Message.Content); n > 4096+1024+200 || !strings.Contains(it.Message.Content, "characters cut from the middle") {
				t.Fatalf("pruned content is %d chars: %q…", n, it.Message.Content[:80])
			}
		}
	}
	if !reflect.DeepEqual(pruned, []string{"c1", "c2"}) {
		t.Fatalf("pruned %v, want the two oldest", pruned)
	}
	if !reflect.DeepEqual(f.Request.Messages, messages(items)) {
		t.Fatal("the fitted request is not the one rebuilt from the log")
	}
}

func messages(items []session.SurfaceItem) []llm.Message {
	out := make([]llm.Message, len(items))
	for i, it := range items {
		out[i] = it.Message
	}
	return out
}

func TestPruningNeverTouchesTheLatestSteps(t *testing.T) {
	l := sessionWith(t, 2, 60000) // two huge results, both among the latest two steps
	m := New(Config{Window: window, Auto: true}, scripted(script.Reply{Text: goodSummary}), l, counter(), nil)
	f := fit(t, m, l)
	if f.Pruned != 0 {
		t.Fatalf("pruned %d of the latest two steps' results", f.Pruned)
	}
}

func TestPrunedTextKeepsWholeCharacters(t *testing.T) {
	s := strings.Repeat("é", 10000)
	got := PrunedText(s, 4096, 1024)
	if !strings.HasPrefix(got, strings.Repeat("é", 4096)+"\n\n[… 4880 characters") || !strings.HasSuffix(got, "]\n\n"+strings.Repeat("é", 1024)) {
		t.Fatalf("pruned text = %q…%q", got[:20], got[len(got)-20:])
	}
}

// compactable is a session pruning cannot help: results under the prune
// size, 18 of them, just over the threshold of a 32 k window.
func compactable(t *testing.T) testLog {
	return sessionWith(t, 18, 6000)
}

func TestFitCompactsWhenPruningIsNotEnough(t *testing.T) {
	l := compactable(t)
	l.add(t, session.TypeTodoWrite, session.TodoWrite{CallID: "c3", Todos: []session.TodoItem{
		{Content: "read the files", Status: "completed"}, {Content: "write the report", Status: "in_progress"}}})
	p := scripted(script.Reply{Text: goodSummary})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	before, err := prompt.BuildRequest(l.Events())
	must(t, err)
	f := fit(t, m, l)
	if f.Compaction == nil || f.Compaction.Failure != "" || f.Compaction.Passes != 1 {
		t.Fatalf("compaction = %+v", f.Compaction)
	}
	t.Run("the side request is the request plus one user message", func(t *testing.T) {
		if len(p.Requests()) != 1 {
			t.Fatalf("%d side requests", len(p.Requests()))
		}
		side := p.Requests()[0]
		if side.System != before.System || !reflect.DeepEqual(side.Tools, before.Tools) || side.Model != before.Model {
			t.Fatal("system, tools or model differ from the session's request")
		}
		n := len(before.Messages)
		if len(side.Messages) != n+1 || !reflect.DeepEqual(side.Messages[:n], before.Messages) {
			t.Fatalf("side request has %d messages; want the %d of the request unchanged plus one", len(side.Messages), n)
		}
		if last := side.Messages[n]; last.Role != llm.RoleUser || !llm.IsSummaryRequest(side) {
			t.Fatalf("last message = %+v", last)
		}
	})
	items, err := session.Surface(l.Events())
	must(t, err)
	t.Run("the summary replaces the span and the tail stays verbatim on a step boundary", func(t *testing.T) {
		if !items[0].Summary || items[1].Message.Role != llm.RoleAssistant {
			t.Fatalf("surface starts %+v / %+v", items[0].Message.Role, items[1].Message.Role)
		}
		tail := items[1:]
		if got, want := tail, itemsAfter(t, before, len(before.Messages)-len(tail)); !reflect.DeepEqual(messages(got), want) {
			t.Fatal("the tail is not the end of the previous request, verbatim")
		}
		size := 0
		for _, it := range tail {
			size += MessageTokens(it.Message)
		}
		if size > m.Config().RetainTokens() {
			t.Fatalf("tail is %d tokens, over the retain budget %d", size, m.Config().RetainTokens())
		}
	})
	t.Run("the summary message carries the summary and the latest todo list", func(t *testing.T) {
		text := items[0].Message.Content
		for _, want := range []string{"## Task and intent", "Read the next file.", "- [completed] read the files", "- [in_progress] write the report"} {
			if !strings.Contains(text, want) {
				t.Fatalf("summary message lacks %q:\n%s", want, text)
			}
		}
	})
	t.Run("events are logged in order and the request rebuilds from the log", func(t *testing.T) {
		events := l.Events()
		got := types(events, session.TypeCompactionStart, session.TypeCompactionSummary, session.TypeCompactionEnd, session.TypeUserMessage)
		want := []string{session.TypeUserMessage, session.TypeCompactionStart, session.TypeCompactionSummary, session.TypeUserMessage, session.TypeCompactionEnd}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("events %v, want %v", got, want)
		}
		for i, e := range events {
			if e.Type == session.TypeCompactionSummary {
				req, err := RebuildRequest(events, i)
				must(t, err)
				if !reflect.DeepEqual(req, p.Requests()[0]) {
					t.Fatal("the side request does not rebuild from the log")
				}
			}
		}
	})
	if f.Reading.Tokens >= f.Compaction.TokensBefore/2 || f.Reading.Basis != BasisReported {
		t.Fatalf("reading after = %+v, before %d", f.Reading, f.Compaction.TokensBefore)
	}
}

func itemsAfter(t *testing.T, req llm.Request, from int) []llm.Message {
	t.Helper()
	if from < 0 {
		t.Fatal("tail longer than the request")
	}
	return req.Messages[from:]
}

func TestASummaryThatDoesNotShrinkIsRejectedAndRetriedOnce(t *testing.T) {
	long := "<summary>" + strings.Repeat("every detail again ", 30000) + "</summary>"
	t.Run("a good retry is used", func(t *testing.T) {
		l := compactable(t)
		p := scripted(script.Reply{Text: long}, script.Reply{Text: goodSummary})
		m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
		f := fit(t, m, l)
		if f.Compaction.Failure != "" || len(p.Requests()) != 2 {
			t.Fatalf("compaction %+v after %d requests", f.Compaction, len(p.Requests()))
		}
		if !strings.Contains(last(p.Requests()[1]).Content, "not shorter") || strings.Contains(last(p.Requests()[0]).Content, "not shorter") {
			t.Fatal("the retry does not ask for a shorter summary")
		}
		if got := rejected(t, l); len(got) != 1 || !strings.Contains(got[0], "is not shorter than what it replaces") {
			t.Fatalf("rejections %q", got)
		}
	})
	t.Run("two bad answers fail clearly and change nothing", func(t *testing.T) {
		l := compactable(t)
		p := scripted(script.Reply{Text: long}, script.Reply{Text: "   "}, script.Reply{Text: goodSummary})
		m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
		before, err := prompt.BuildRequest(l.Events())
		must(t, err)
		f := fit(t, m, l)
		if len(p.Requests()) != 2 || f.Compaction.Failure == "" || !strings.Contains(f.Compaction.Failure, "no usable summary after 2 attempts") {
			t.Fatalf("compaction %+v after %d requests", f.Compaction, len(p.Requests()))
		}
		if !reflect.DeepEqual(f.Request.Messages, before.Messages) || f.Refusal != "" {
			t.Fatal("a failed compaction changed the surface, or the request that still fits was refused")
		}
		events := l.Events()
		end := sessiontest.Last[session.CompactionEnd](t, events, session.TypeCompactionEnd)
		if end.Error == "" {
			t.Fatal("compaction/end does not record the failure")
		}
	})
}

func last(req llm.Request) llm.Message { return req.Messages[len(req.Messages)-1] }

func rejected(t *testing.T, l testLog) []string {
	var out []string
	for _, e := range l.Events() {
		if e.Type == session.TypeCompactionSummary {
			d := sessiontest.Decode[session.CompactionSummary](t, e)
			if d.Rejected != "" {
				out = append(out, d.Rejected)
			}
		}
	}
	return out
}

func TestASecondCompactionMergesTheFirst(t *testing.T) {
	l := compactable(t)
	p := scripted(script.Reply{Text: goodSummary}, script.Reply{Text: "<summary>merged</summary>"})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	fit(t, m, l)
	for n := 19; n <= 33; n++ {
		l.step(t, n, 6000)
	}
	f := fit(t, m, l)
	if f.Compaction == nil || f.Compaction.Failure != "" || len(p.Requests()) < 2 {
		t.Fatalf("second compaction %+v", f.Compaction)
	}
	second := p.Requests()[1]
	if !strings.HasPrefix(second.Messages[0].Content, "[Summary of the earlier part") {
		t.Fatal("the second side request does not open with the first summary")
	}
	if !strings.Contains(last(second).Content, "Merge it into this one") {
		t.Fatal("the second side request does not ask to merge the earlier summary")
	}
	items, err := session.Surface(l.Events())
	must(t, err)
	summaries := 0
	for _, it := range items {
		if it.Summary {
			summaries++
		}
	}
	if summaries != 1 || !strings.Contains(items[0].Message.Content, "merged") {
		t.Fatalf("%d summaries on the surface; want the merged one only", summaries)
	}
}

func TestManualCompactionOverTheWindowRunsSeveralPasses(t *testing.T) {
	l := sessionWith(t, 60, 6000) // about 92 k tokens in a 32 k window
	p := scripted()
	p.Provider = script.New([]script.Reply{{Summary: true, Repeat: true, Text: goodSummary}})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	res, err := m.Compact(context.Background())
	must(t, err)
	if res.Failure != "" || res.Passes < 3 {
		t.Fatalf("result %+v", res)
	}
	for i, r := range p.Requests() {
		if n := RequestTokens(r); n > window-m.Config().SummaryMaxTokens {
			t.Fatalf("side request %d is %d tokens, over the window less the summary's room", i, n)
		}
	}
	events := l.Events()
	k := 0
	for i, e := range events {
		if e.Type == session.TypeCompactionSummary {
			req, err := RebuildRequest(events, i)
			must(t, err)
			if !reflect.DeepEqual(req, p.Requests()[k]) {
				t.Fatalf("side request %d does not rebuild from the log", k)
			}
			k++
		}
	}
	req, err := prompt.BuildRequest(events)
	must(t, err)
	if r := m.Meter().Read(req); r.Tokens > m.Config().ThresholdTokens() {
		t.Fatalf("after compaction the request is %d tokens, over the threshold", r.Tokens)
	}
}

func TestNothingToCompact(t *testing.T) {
	t.Run("before any request", func(t *testing.T) {
		l := newLog(t)
		l.user(t, "hi")
		res, err := New(Config{Window: window}, scripted(), l, counter(), nil).Compact(context.Background())
		must(t, err)
		if !strings.Contains(res.Skipped, "no model request was sent") || res.Failure != "" {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("when everything is recent", func(t *testing.T) {
		l := sessionWith(t, 1, 100)
		res, err := New(Config{Window: window}, scripted(), l, counter(), nil).Compact(context.Background())
		must(t, err)
		if !strings.Contains(res.Skipped, "recent enough to stay verbatim") || res.Failure != "" {
			t.Fatalf("result %+v", res)
		}
	})
}

func TestARequestThatStillDoesNotFitIsRefused(t *testing.T) {
	l := sessionWith(t, 2, 150000) // the latest steps are protected and too big
	p := scripted(script.Reply{Text: goodSummary})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	f := fit(t, m, l)
	if !strings.Contains(f.Refusal, "context window is 32768 tokens") {
		t.Fatalf("refusal %q", f.Refusal)
	}
}

func TestInputTooLarge(t *testing.T) {
	m := New(Config{Window: 1000}, scripted(), newLog(t), counter(), nil)
	if got := m.InputTooLarge(strings.Repeat("a", 3000)); got != "" {
		t.Fatalf("a 750-token input was refused: %s", got)
	}
	got := m.InputTooLarge(strings.Repeat("a", 10_000_000))
	if !strings.Contains(got, "about 2500000 tokens") || !strings.Contains(got, "window of 1000 tokens") {
		t.Fatalf("refusal %q", got)
	}
	if New(Config{}, scripted(), newLog(t), counter(), nil).InputTooLarge(strings.Repeat("a", 10_000_000)) != "" {
		t.Fatal("an unknown window refused an input")
	}
}

func TestTheSideRequestReplaysTheLastRequestSentExactly(t *testing.T) {
	// One big old result, small ones, a sent request, then a big new
	// result: pruning the old one is not enough, so the session is
	// compacted, and the side request must be the request the provider saw
	// last, not the one pruning just changed.
	l := sessionWith(t, 1, 20000)
	for n := 2; n <= 15; n++ {
		l.step(t, n, 6000)
	}
	sent, err := prompt.BuildRequest(l.Events())
	must(t, err)
	l.add(t, session.TypeContextMeter, session.ContextMeter{Turn: 1, Step: 15, Tokens: 1})
	l.step(t, 16, 20000)
	p := scripted(script.Reply{Text: goodSummary})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	f := fit(t, m, l)
	if f.Pruned == 0 || f.Compaction == nil || f.Compaction.Failure != "" {
		t.Fatalf("pruned %d, compaction %+v; want both", f.Pruned, f.Compaction)
	}
	side := p.Requests()[0]
	n := len(sent.Messages)
	if len(side.Messages) != n+1 || !reflect.DeepEqual(side.Messages[:n], sent.Messages) || side.System != sent.System {
		t.Fatal("the side request is not the last request sent plus one message")
	}
	events := l.Events()
	for i, e := range events {
		if e.Type == session.TypeCompactionSummary {
			req, err := RebuildRequest(events, i)
			must(t, err)
			if !reflect.DeepEqual(req, side) {
				t.Fatal("the side request does not rebuild from the log")
			}
		}
	}
}

func TestAFailingSummaryRequestIsRetriedOnceThenReported(t *testing.T) {
	l := compactable(t)
	p := scripted() // no summary replies: every summary request fails
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	f := fit(t, m, l)
	if len(p.Requests()) != 2 || !strings.Contains(f.Compaction.Failure, "the summary request failed") {
		t.Fatalf("compaction %+v after %d requests", f.Compaction, len(p.Requests()))
	}
	if f.Refusal != "" {
		t.Fatal("a request that still fits the window was refused")
	}
}

func TestACancelledCompactionStopsAtOnce(t *testing.T) {
	l := compactable(t)
	p := scripted(script.Reply{Text: goodSummary, Delay: time.Second})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := prompt.BuildRequest(l.Events())
	must(t, err)
	f, err := m.Fit(ctx, 1, 1, req, nil)
	must(t, err)
	if f.Compaction == nil || f.Compaction.Failure == "" || len(p.Requests()) != 1 {
		t.Fatalf("compaction %+v after %d requests; want one failed attempt", f.Compaction, len(p.Requests()))
	}
	end := sessiontest.Last[session.CompactionEnd](t, l.Events(), session.TypeCompactionEnd)
	if end.Error == "" {
		t.Fatal("compaction/end does not record the failure")
	}
}

func TestTheInputWaitingForAnAnswerIsNeverSummarised(t *testing.T) {
	l := sessionWith(t, 12, 6000)
	l.user(t, "NEW QUESTION "+strings.Repeat("with a long pasted log line ", 2500)) // about 17 k tokens
	p := scripted(script.Reply{Text: goodSummary})
	m := New(Config{Window: window, Auto: true}, p, l, counter(), nil)
	f := fit(t, m, l)
	if f.Compaction == nil || f.Compaction.Failure != "" {
		t.Fatalf("compaction %+v", f.Compaction)
	}
	msgs := f.Request.Messages
	if last := msgs[len(msgs)-1]; last.Role != llm.RoleUser || !strings.HasPrefix(last.Content, "NEW QUESTION") {
		t.Fatalf("the request ends with %.40q, not the user's new input verbatim", last.Content)
	}
}
