package compact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Result is how a compaction went. Failure is set when it did not
// complete; passes that succeeded before it stay (each replaced its span
// with a valid summary), failed attempts replaced nothing. Skipped is set
// instead when there was nothing to compact, and says why.
type Result struct {
	ID           string
	Passes       int
	TokensBefore int
	TokensAfter  int
	Failure      string
	Skipped      string
	// Usage sums what the side requests cost, rejected attempts included.
	Usage llm.Usage
}

// attemptsPerPass is one try plus the one retry a rejected summary gets.
const attemptsPerPass = 2

// compact runs one compaction, bracketed by compaction/start and
// compaction/end. Each pass replays the session's own request (system
// text, tools and messages unchanged, so the provider's prefix cache
// serves it) with the summary instruction as one more user message, and
// replaces the span before the verbatim tail with the answer. When the
// whole request plus room for the summary does not fit the window, a pass
// replays only the longest prefix that does, cut on a step boundary, and
// the next pass continues from its summary.
func (m *Manager) compact(ctx context.Context, trigger string, turn, step int, before Reading) (Result, error) {
	res := Result{ID: m.newID(), TokensBefore: before.Tokens}
	start := session.CompactionStart{ID: res.ID, Trigger: trigger, Turn: turn, Step: step, Tokens: before.Tokens, Window: m.cfg.Window}
	// Durable: the side requests that follow are model requests, and
	// what they are built from is on disk before each goes out.
	if _, err := m.log.Append(ctx, session.TypeCompactionStart, start, true); err != nil {
		return res, err
	}
	failure, err := m.passes(ctx, &res)
	if err != nil {
		return res, err
	}
	switch f := failure.(type) {
	case nil:
	case skipped:
		res.Skipped = string(f)
	default:
		res.Failure = f.Error()
	}
	if req, err := m.builder.Build(m.log.Events()); err == nil {
		res.TokensAfter = m.meter.Read(req).Tokens
	}
	end := session.CompactionEnd{ID: res.ID, TokensBefore: res.TokensBefore, TokensAfter: res.TokensAfter, Passes: res.Passes,
		Error: res.Failure, Skipped: res.Skipped}
	_, err = m.log.Append(ctx, session.TypeCompactionEnd, end, true)
	return res, err
}

// outcome is how the passes ended: done (nil), failed (a failed value) or
// skipped (nothing to compact).
type outcome interface{ Error() string }

type (
	failed  string
	skipped string
)

func (f failed) Error() string  { return string(f) }
func (s skipped) Error() string { return string(s) }

// passes runs summary passes until the span before the tail is replaced.
// A Go error is a log failure; the outcome says how the passes ended.
func (m *Manager) passes(ctx context.Context, res *Result) (outcome, error) {
	for res.Passes < m.cfg.MaxPasses {
		events := m.log.Events()
		req, err := m.builder.Build(events)
		if errors.Is(err, prompt.ErrNoHeader) {
			return skipped("nothing to compact: no model request was sent in this session yet"), nil
		}
		if err != nil {
			return nil, err
		}
		items, err := m.builder.Surface(events)
		if err != nil {
			return nil, err
		}
		tail := m.tailStart(items)
		if !worthReplacing(items, tail) {
			if res.Passes > 0 {
				return nil, nil
			}
			return skipped("nothing to compact: everything on the surface is recent enough to stay verbatim"), nil
		}
		p, ok := m.planPass(events, req, items, tail, res.Passes == 0)
		if !ok {
			return failed(fmt.Sprintf("the oldest step alone (about %d tokens) does not fit a summary request in a %d-token window",
				MessageTokens(items[0].Message), m.cfg.Window)), nil
		}
		res.Passes++
		failure, err := m.summarise(ctx, res, events, items, p)
		if err != nil {
			return nil, err
		}
		if failure != "" {
			return failed(failure), nil
		}
		if p.upto == tail {
			return nil, nil
		}
	}
	return failed(fmt.Sprintf("stopped after %d passes before reaching the recent part of the session", res.Passes)), nil
}

// worthReplacing reports whether items[:upto] holds more than an earlier
// summary alone.
func worthReplacing(items []session.SurfaceItem, upto int) bool {
	return upto > 1 || (upto == 1 && !items[0].Summary)
}

// cutPoint reports whether a span may end just before items[i] (or at the
// end): never between a tool call and its result.
func cutPoint(items []session.SurfaceItem, i int) bool {
	return i == len(items) || items[i].Message.Role != llm.RoleTool
}

// tailStart is the index where the verbatim tail begins: the input that
// waits for an answer (the user messages at the very end: the user's
// latest words are never summarised away), then the longest run of whole
// steps before it within the retain budget. When even the latest step is
// over the budget it is still kept if it is under half the threshold, so
// a single large result is not summarised away the moment it arrives.
func (m *Manager) tailStart(items []session.SurfaceItem) int {
	budget, latest := m.cfg.RetainTokens(), m.cfg.ThresholdTokens()/2
	k, sum, first := len(items), 0, true
	for k > 0 && items[k-1].Message.Role == llm.RoleUser && !items[k-1].Summary {
		k--
		sum += MessageTokens(items[k].Message)
	}
	for i := k - 1; i >= 0; i-- {
		sum += MessageTokens(items[i].Message)
		if !cutPoint(items, i) {
			continue
		}
		if sum > budget && !(first && sum <= latest) {
			break
		}
		k, first = i, false
	}
	return k
}

// plan is what one pass sends and replaces: the first replay messages of
// base (the request built from the events before seq from), and the span
// items[:upto] of the current surface.
type plan struct {
	base   llm.Request
	from   int64
	replay int
	upto   int
}

// planPass chooses the side request of a pass. First choice, on the first
// pass: the last request sent, exactly as sent, so the provider's prefix
// cache serves all of it. Then the current request. When neither fits the
// window with room for the summary, the longest prefix of the current one
// that does, cut on a step boundary, is both replayed and replaced (false:
// not even the first step fits).
func (m *Manager) planPass(events []session.Event, req llm.Request, items []session.SurfaceItem, tail int, first bool) (plan, bool) {
	if first {
		if p, ok := m.lastSent(events, items, tail); ok {
			return p, true
		}
	}
	now := int64(len(events))
	if m.fits(req, len(req.Messages), items[0].Summary) {
		return plan{base: req, from: now, replay: len(items), upto: tail}, true
	}
	fixed := m.meter.Read(sideRequest(req, m.record(0, items[0].Summary, 1))).Tokens
	prefix := make([]int, len(items)+1)
	for i, it := range items {
		prefix[i+1] = prefix[i] + MessageTokens(it.Message)
	}
	for j := tail; j > 0; j-- {
		if cutPoint(items, j) && worthReplacing(items, j) && fixed+prefix[j] <= m.budget() {
			return plan{base: req, from: now, replay: j, upto: j}, true
		}
	}
	return plan{}, false
}

// lastSent plans a pass on the last request sent (the one the latest
// context/meter was logged for), when the current surface still starts
// with its messages (pruning may have changed their content since, not
// their place) and it fits with room for the summary.
func (m *Manager) lastSent(events []session.Event, items []session.SurfaceItem, tail int) (plan, bool) {
	i := len(events) - 1
	for i >= 0 && events[i].Type != session.TypeContextMeter {
		i--
	}
	if i < 0 {
		return plan{}, false
	}
	prev := events[:i+1]
	req, err := prompt.BuildRequest(prev)
	if err != nil {
		return plan{}, false
	}
	was, err := session.Surface(prev)
	if err != nil || len(was) == 0 || len(was) > len(items) {
		return plan{}, false
	}
	for k := range was {
		if was[k].Seq != items[k].Seq {
			return plan{}, false
		}
	}
	upto := min(tail, len(was))
	for upto > 0 && !cutPoint(items, upto) {
		upto--
	}
	if !worthReplacing(items, upto) || !m.fits(req, len(req.Messages), items[0].Summary) {
		return plan{}, false
	}
	return plan{base: req, from: events[i].Seq + 1, replay: len(was), upto: upto}, true
}

// budget is the most a side request may hold: the window less the room
// the summary needs (no limit when the window is unknown).
func (m *Manager) budget() int {
	if m.cfg.Window <= 0 {
		return math.MaxInt
	}
	return m.cfg.Window - m.cfg.SummaryMaxTokens
}

// fits reports whether the side request replaying the first replay
// messages of req fits the budget.
func (m *Manager) fits(req llm.Request, replay int, merge bool) bool {
	return m.meter.Read(sideRequest(req, m.record(replay, merge, 1))).Tokens <= m.budget()
}

// record is the part of a compaction/summary that decides the side
// request: what is replayed, the instruction and the options.
func (m *Manager) record(replay int, merge bool, attempt int) session.CompactionSummary {
	return session.CompactionSummary{ReplayedMessages: replay, Attempt: attempt,
		Instruction: instruction(merge, attempt > 1, m.cfg.SummaryMaxTokens)}
}

// summarise runs one pass: up to attemptsPerPass side requests, each
// logged as compaction/summary; an accepted summary is appended as the
// user/message replacing items[:p.upto]. It returns the failure when no
// attempt was accepted.
func (m *Manager) summarise(ctx context.Context, res *Result, events []session.Event, items []session.SurfaceItem, p plan) (string, error) {
	replacedTokens := 0
	for _, it := range items[:p.upto] {
		replacedTokens += MessageTokens(it.Message)
	}
	span := session.SurfaceSpan{From: items[0].Seq, To: items[p.upto-1].Seq}
	todos := latestTodos(events)
	failure := ""
	for attempt := 1; attempt <= attemptsPerPass; attempt++ {
		rec := m.record(p.replay, items[0].Summary, attempt)
		rec.ID, rec.Pass, rec.Replaces, rec.ReplayedFrom = res.ID, res.Passes, span, p.from
		rec.ReplacedMessages, rec.ReplacedTokens = p.upto, replacedTokens
		rec.Provider, rec.Model = m.provider.Name(), p.base.Model
		rec.Options = p.base.Options
		rec.Options.MaxTokens = m.cfg.SummaryMaxTokens
		sreq := sideRequest(p.base, rec)
		resp, err := m.provider.Stream(ctx, sreq, func(llm.Chunk) {})
		text := ""
		switch {
		case err != nil:
			rec.Rejected = "the summary request failed: " + err.Error()
		case resp == nil:
			rec.Rejected = "the model returned no response"
		default:
			m.meter.Observe(sreq, resp.Usage)
			res.Usage.Add(resp.Usage)
			rec.Usage, rec.RawOutput = resp.Usage, resp.Message.Content
			summary := extractSummary(resp.Message.Content)
			text = summaryMessage(summary, todos)
			rec.SummaryTokens = Tokens(text)
			rec.Rejected = judge(summary, resp.Finish, rec.SummaryTokens, replacedTokens)
		}
		if _, err := m.log.Append(ctx, session.TypeCompactionSummary, rec, rec.Rejected != ""); err != nil {
			return "", err
		}
		if rec.Rejected == "" {
			msg := session.UserMessage{ID: m.newID(), Content: session.TextBlocks(text), Source: SummarySource(), Replaces: &span}
			_, err := m.log.Append(ctx, session.TypeUserMessage, msg, true)
			return "", err
		}
		failure = rec.Rejected
		if ctx.Err() != nil {
			break
		}
	}
	return fmt.Sprintf("no usable summary after %d attempts (last: %s)", attemptsPerPass, failure), nil
}

// judge returns why a summary cannot be used (empty: it can).
func judge(summary string, finish llm.FinishReason, tokens, replaced int) string {
	switch {
	case summary == "":
		return "the answer holds no summary text"
	case finish == llm.FinishMaxTokens:
		return "the summary was cut off at the token limit"
	case tokens >= replaced:
		return fmt.Sprintf("the summary (about %d tokens) is not shorter than what it replaces (about %d tokens)", tokens, replaced)
	}
	return ""
}

// sideRequest is the summary request of rec built on req: the first
// ReplayedMessages messages unchanged plus the instruction.
func sideRequest(req llm.Request, rec session.CompactionSummary) llm.Request {
	msgs := make([]llm.Message, 0, rec.ReplayedMessages+1)
	msgs = append(msgs, req.Messages[:rec.ReplayedMessages]...)
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: rec.Instruction})
	req.Messages, req.Options = msgs, rec.Options
	return req
}

// RebuildRequest rebuilds the summary side request recorded by the
// compaction/summary at index i of events, from the log alone: the
// request built from the events before seq ReplayedFrom, its first
// ReplayedMessages messages, the recorded instruction and options. (A
// session's seq and index are the same number.)
func RebuildRequest(events []session.Event, i int) (llm.Request, error) {
	if i < 0 || i >= len(events) || events[i].Type != session.TypeCompactionSummary {
		return llm.Request{}, fmt.Errorf("event %d is not a %s", i, session.TypeCompactionSummary)
	}
	var rec session.CompactionSummary
	if err := json.Unmarshal(events[i].Data, &rec); err != nil {
		return llm.Request{}, fmt.Errorf("event seq %d (%s): cannot decode its data: %w", events[i].Seq, events[i].Type, err)
	}
	if rec.ReplayedFrom < 0 || rec.ReplayedFrom > int64(i) {
		return llm.Request{}, fmt.Errorf("event seq %d replays the request before seq %d, which does not come before it", events[i].Seq, rec.ReplayedFrom)
	}
	req, err := prompt.BuildRequest(events[:rec.ReplayedFrom])
	if err != nil {
		return llm.Request{}, err
	}
	if rec.ReplayedMessages < 0 || rec.ReplayedMessages > len(req.Messages) {
		return llm.Request{}, fmt.Errorf("event seq %d replays %d messages but the surface before it has %d", events[i].Seq, rec.ReplayedMessages, len(req.Messages))
	}
	return sideRequest(req, rec), nil
}
