package compact_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/script"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// appender gives a session.Log the manager's Append.
type appender struct{ *session.Log }

func (l appender) Append(ctx context.Context, typ string, data any, durable bool) (session.Event, error) {
	if durable {
		return l.Log.AppendDurable(ctx, typ, data)
	}
	return l.Log.Append(ctx, typ, data)
}

// A session of six 20 KB tool results in a 32 k window: the next request
// would pass the threshold, so Fit prunes the oldest results until it does
// not, and no summary is needed.
func ExampleManager_Fit() {
	ctx := context.Background()
	log, _ := session.Create(ctx, session.NewMemStore(), session.Header{ID: "demo"}, session.LogOptions{})
	_, _ = log.Append(ctx, session.TypeRequestHeader, session.RequestHeader{Reason: "initial", Model: "m", System: "You read files."})
	_, _ = log.Append(ctx, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("Read the logs."), Source: session.Source{Kind: "user"}})
	for i := 1; i <= 6; i++ {
		id := fmt.Sprint("c", i)
		_, _ = log.Append(ctx, session.TypeAssistantMessage, session.AssistantMessage{Turn: 1, Step: i,
			Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read", Arguments: "{}"}}}})
		_, _ = log.Append(ctx, session.TypeToolResult, session.ToolResult{Turn: 1, Step: i, CallID: id, Name: "read",
			Content: session.TextBlocks(strings.Repeat("a log line of twenty\n", 1000))})
	}
	model := script.New([]script.Reply{{Summary: true, Repeat: true, Text: "<summary>…</summary>"}})
	m := compact.New(compact.Config{Window: 32768, Auto: true}, model, appender{log}, func() string { return "id" }, nil)

	req, _ := prompt.BuildRequest(log.Events())
	f, _ := m.Fit(ctx, 1, 7, req, nil)
	fmt.Println("before:", m.Meter().Read(req).Tokens > m.Config().ThresholdTokens())
	fmt.Println("pruned:", f.Pruned, "compacted:", f.Compaction != nil)
	fmt.Println("after:", f.Reading.Tokens <= m.Config().ThresholdTokens())
	// Output:
	// before: true
	// pruned: 2 compacted: false
	// after: true
}

func ExamplePrunedText() {
	text := strings.Repeat("x", 9000)
	pruned := compact.PrunedText(text, 4096, 1024)
	fmt.Println(compact.Chars(pruned) < 5300, strings.Contains(pruned, "3880 characters cut from the middle"))
	// Output: true true
}
