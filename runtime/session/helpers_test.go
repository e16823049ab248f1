package session_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// fakeClock advances one millisecond per reading, from a fixed instant.
type fakeClock struct{ t time.Time }

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 29, 12, 3, 1, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// script builds event lists for projection and repair tests.
type script struct {
	t      testing.TB
	events []session.Event
}

func (s *script) add(typ string, data any) *script {
	raw, err := json.Marshal(data)
	must(s.t, err)
	s.events = append(s.events, session.Event{Seq: int64(len(s.events)), Type: typ, Time: int64(len(s.events)), Data: raw})
	return s
}

func (s *script) turnStart(turn int) *script {
	return s.add(session.TypeTurnStart, session.TurnStart{Turn: turn})
}

func (s *script) turnEnd(turn int) *script {
	return s.add(session.TypeTurnEnd, session.TurnEnd{Turn: turn, Reason: session.ReasonCompleted})
}

func (s *script) stepStart(turn, step int) *script {
	return s.add(session.TypeStepStart, session.StepMark{Turn: turn, Step: step})
}

func (s *script) stepEnd(turn, step int) *script {
	return s.add(session.TypeStepEnd, session.StepMark{Turn: turn, Step: step})
}

func (s *script) user(text string) *script {
	return s.add(session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks(text), Source: session.Source{Kind: "user"}})
}

func (s *script) chunk(turn, step int, text string) *script {
	return s.add(session.TypeAssistantChunk, session.AssistantChunk{Turn: turn, Step: step, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: text}})
}

func (s *script) assistant(turn, step int, text string, calls ...llm.ToolCall) *script {
	return s.add(session.TypeAssistantMessage, session.AssistantMessage{Turn: turn, Step: step,
		Message: llm.Message{Role: llm.RoleAssistant, Content: text, Reasoning: "thinking", ToolCalls: calls},
		Finish:  llm.FinishStop})
}

func (s *script) call(turn, step int, id, name string) *script {
	return s.add(session.TypeToolCall, session.ToolCall{Turn: turn, Step: step, CallID: id, Name: name, Arguments: "{}"})
}

func (s *script) result(turn, step int, id, name, text string) *script {
	return s.add(session.TypeToolResult, session.ToolResult{Turn: turn, Step: step, CallID: id, Name: name, Content: session.TextBlocks(text)})
}

// completeTurn appends one whole turn: a user message, a step with one
// tool call, and a final answer step.
func (s *script) completeTurn(turn int) *script {
	id := "call-" + string(rune('a'+turn%26))
	return s.turnStart(turn).stepStart(turn, 1).user("question").chunk(turn, 1, "a").
		assistant(turn, 1, "", llm.ToolCall{ID: id, Name: "read", Arguments: "{}"}).
		call(turn, 1, id, "read").result(turn, 1, id, "read", "file").stepEnd(turn, 1).
		stepStart(turn, 2).assistant(turn, 2, "answer").stepEnd(turn, 2).turnEnd(turn)
}

func storeWith(t testing.TB, store session.Store, id string, events []session.Event) {
	t.Helper()
	ctx := context.Background()
	must(t, store.Create(ctx, session.Header{ID: id, CreatedAt: 1, Settings: session.Settings{Workspace: "/w"}, Version: session.FormatVersion}))
	if len(events) > 0 {
		must(t, store.Append(ctx, id, events, true))
	}
}
