package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// EventLogResult is the event log's throughput on a synthetic session.
type EventLogResult struct {
	Events       int     `json:"events"`
	BatchSize    int     `json:"batch_size"`
	AppendPerSec float64 `json:"append_events_per_s"`
	Messages     int     `json:"messages"`
	DeriveMs     float64 `json:"derive_ms"`
}

const appendBatch = 1000

// runEventLog appends a synthetic session of n events into a Badger
// store under dir in batches (not durable per batch, one Sync at the end,
// as the Log does for chunks) and derives its messages.
func runEventLog(ctx context.Context, dir string, n int) (EventLogResult, error) {
	events, err := syntheticSession(n)
	if err != nil {
		return EventLogResult{}, err
	}
	r := EventLogResult{Events: n, BatchSize: appendBatch}
	store, err := session.OpenBadger(dir, session.BadgerOptions{})
	if err != nil {
		return r, err
	}
	defer store.Close()
	if err := store.Create(ctx, session.Header{ID: "bench", Version: session.FormatVersion, Settings: session.Settings{Workspace: "/w"}}); err != nil {
		return r, err
	}
	start := time.Now()
	for i := 0; i < len(events); i += appendBatch {
		if err := store.Append(ctx, "bench", events[i:min(i+appendBatch, len(events))], false); err != nil {
			return r, err
		}
	}
	if err := store.Sync(ctx); err != nil {
		return r, err
	}
	r.AppendPerSec = float64(n) / time.Since(start).Seconds()
	start = time.Now()
	msgs, err := session.DeriveMessages(events)
	if err != nil {
		return r, err
	}
	r.DeriveMs = float64(time.Since(start).Microseconds()) / 1000
	r.Messages = len(msgs)
	return r, nil
}

// syntheticSession is n events of realistic turns: a user message, twenty
// streamed chunks, a tool call and its result, a final answer, and the
// turn and step marks (31 events a turn, 4 of them model-visible).
func syntheticSession(n int) ([]session.Event, error) {
	events := make([]session.Event, 0, n+40)
	var err error
	add := func(typ string, data any) {
		if err != nil {
			return
		}
		var raw []byte
		raw, err = json.Marshal(data)
		events = append(events, session.Event{Seq: int64(len(events)), Type: typ, Time: int64(len(events)), Data: raw})
	}
	chunk := func(turn, step int, text string) {
		add(session.TypeAssistantChunk, session.AssistantChunk{Turn: turn, Step: step, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: text}})
	}
	for turn := 1; len(events) < n; turn++ {
		id := fmt.Sprintf("call-%d", turn)
		add(session.TypeTurnStart, session.TurnStart{Turn: turn})
		add(session.TypeStepStart, session.StepMark{Turn: turn, Step: 1})
		add(session.TypeUserMessage, session.UserMessage{ID: fmt.Sprintf("u%d", turn), Content: session.TextBlocks("Please fix the failing test in parser_test.go"), Source: session.Source{Kind: "user"}})
		for range 10 {
			chunk(turn, 1, "Let me look ")
		}
		add(session.TypeAssistantMessage, session.AssistantMessage{Turn: turn, Step: 1, Finish: llm.FinishToolCalls,
			Message: llm.Message{Role: llm.RoleAssistant, Content: "I will read the file.", ToolCalls: []llm.ToolCall{{ID: id, Name: "read", Arguments: `{"file_path":"parser_test.go"}`}}}})
		add(session.TypeToolCall, session.ToolCall{Turn: turn, Step: 1, CallID: id, Name: "read", Arguments: `{"file_path":"parser_test.go"}`})
		add(session.TypeToolResult, session.ToolResult{Turn: turn, Step: 1, CallID: id, Name: "read", Content: session.TextBlocks("package parser\n\nfunc TestParse(t *testing.T) {}\n")})
		add(session.TypeStepEnd, session.StepMark{Turn: turn, Step: 1})
		add(session.TypeStepStart, session.StepMark{Turn: turn, Step: 2})
		for range 10 {
			chunk(turn, 2, "The test now ")
		}
		add(session.TypeAssistantMessage, session.AssistantMessage{Turn: turn, Step: 2, Finish: llm.FinishStop,
			Message: llm.Message{Role: llm.RoleAssistant, Content: "Fixed: the parser now accepts empty input."}})
		add(session.TypeStepEnd, session.StepMark{Turn: turn, Step: 2})
		add(session.TypeTurnEnd, session.TurnEnd{Turn: turn, Reason: session.ReasonCompleted})
	}
	return events[:n], err
}
