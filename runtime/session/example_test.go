package session_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// One turn as the agent loop writes it, then the messages of the next
// request derived from the log.
func ExampleLog() {
	ctx := context.Background()
	store := session.NewMemStore() // session.OpenBadger(session.StoreDir(home), …) on disk
	clock := time.UnixMilli(1_800_000_000_000)
	log, err := session.Create(ctx, store, session.Header{ID: "demo", Settings: session.Settings{Workspace: "/repo"}}, session.LogOptions{
		Now: func() time.Time { return clock },
	})
	if err != nil {
		panic(err)
	}
	log.Append(ctx, session.TypeTurnStart, session.TurnStart{Turn: 1})
	log.Append(ctx, session.TypeStepStart, session.StepMark{Turn: 1, Step: 1})
	log.AppendDurable(ctx, session.TypeUserMessage, session.UserMessage{ID: "u1", Content: session.TextBlocks("hi"), Source: session.Source{Kind: "user"}})
	log.Append(ctx, session.TypeAssistantChunk, session.AssistantChunk{Turn: 1, Step: 1, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Hello"}})
	log.AppendDurable(ctx, session.TypeAssistantMessage, session.AssistantMessage{Turn: 1, Step: 1, Message: llm.Message{Role: llm.RoleAssistant, Content: "Hello"}, Finish: llm.FinishStop})
	log.Append(ctx, session.TypeStepEnd, session.StepMark{Turn: 1, Step: 1})
	log.AppendDurable(ctx, session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonCompleted})

	msgs, _ := session.DeriveMessages(log.Events())
	for _, m := range msgs {
		fmt.Printf("%s: %s\n", m.Role, m.Content)
	}
	fmt.Println(log.Len(), "events")
	// Output:
	// user: hi
	// assistant: Hello
	// 7 events
}
