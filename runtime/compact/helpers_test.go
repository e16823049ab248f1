package compact

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/llm/script"
	"github.com/ptc-dev/ptc/runtime/session"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// testLog is a session.Log over a MemStore with the manager's Append.
type testLog struct{ *session.Log }

func (l testLog) Append(ctx context.Context, typ string, data any, durable bool) (session.Event, error) {
	if durable {
		return l.Log.AppendDurable(ctx, typ, data)
	}
	return l.Log.Append(ctx, typ, data)
}

func newLog(t testing.TB) testLog {
	log, err := session.Create(context.Background(), session.NewMemStore(), session.Header{ID: "s"}, session.LogOptions{})
	must(t, err)
	return testLog{log}
}

func (l testLog) add(t testing.TB, typ string, data any) session.Event {
	t.Helper()
	ev, err := l.Append(context.Background(), typ, data, false)
	must(t, err)
	return ev
}

// header appends the request/header every request is built from.
func (l testLog) header(t testing.TB) {
	l.add(t, session.TypeRequestHeader, session.RequestHeader{Reason: "initial", Provider: "script", Model: "m",
		System: "You are a test agent.", Tools: []llm.ToolSpec{{Name: "read", Description: "Read a file.", Parameters: []byte(`{"type":"object"}`)}}})
}

// step appends one model step that called read and got a result of size
// characters.
func (l testLog) step(t testing.TB, n, size int) {
	id := fmt.Sprintf("c%d", n)
	l.add(t, session.TypeAssistantMessage, session.AssistantMessage{Turn: 1, Step: n,
		Message: llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("step %d", n), ToolCalls: []llm.ToolCall{{ID: id, Name: "read", Arguments: `{"file_path":"f"}`}}}})
	l.add(t, session.TypeToolCall, session.ToolCall{Turn: 1, Step: n, CallID: id, Name: "read", Arguments: `{"file_path":"f"}`})
	l.add(t, session.TypeToolResult, session.ToolResult{Turn: 1, Step: n, CallID: id, Name: "read", Content: session.TextBlocks(filler(n, size))})
}

// filler is size characters of line-structured text, distinct per n.
func filler(n, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "result %d line %d: some words of output text\n", n, i)
	}
	return b.String()[:size]
}

func (l testLog) user(t testing.TB, text string) {
	l.add(t, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks(text), Source: session.Source{Kind: "user"}})
}

// session builds a log with a header, a user task and steps results of
// size characters each.
func sessionWith(t testing.TB, steps, size int) testLog {
	l := newLog(t)
	l.header(t)
	l.user(t, "Please read every file.")
	for n := 1; n <= steps; n++ {
		l.step(t, n, size)
	}
	return l
}

func scripted(replies ...script.Reply) *llmtest.Capture {
	for i := range replies {
		replies[i].Summary = true
	}
	return &llmtest.Capture{Provider: script.New(replies)}
}

func counter() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("id%d", n) }
}

func types(events []session.Event, want ...string) []string {
	var out []string
	for _, e := range events {
		for _, w := range want {
			if e.Type == w {
				out = append(out, e.Type)
			}
		}
	}
	return out
}

const goodSummary = "<summary>\n## Task and intent\nRead every file.\n## Next step\nRead the next file.\n</summary>"
