package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// benchStores are the stores the append benchmarks run against.
var benchStores = []struct {
	name string
	open func(b *testing.B) session.Store
}{
	{"mem", func(b *testing.B) session.Store { return session.NewMemStore() }},
	{"badger", func(b *testing.B) session.Store {
		s, err := session.OpenBadger(b.TempDir(), session.BadgerOptions{})
		must(b, err)
		return s
	}},
}

// chunkData is a typical assistant/chunk payload (~90 bytes).
var chunkData = mustJSON(session.AssistantChunk{Turn: 3, Step: 2, Attempt: 1,
	Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Let me read the file first"}})

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func BenchmarkAppendBatched(b *testing.B) {
	const batch = 1000
	for _, st := range benchStores {
		b.Run(st.name, func(b *testing.B) {
			s := st.open(b)
			defer s.Close()
			ctx := context.Background()
			must(b, s.Create(ctx, session.Header{ID: "b", Version: 1}))
			buf := make([]session.Event, batch)
			b.ResetTimer()
			for seq := 0; seq < b.N; seq += batch {
				n := min(batch, b.N-seq)
				for i := range n {
					buf[i] = session.Event{Seq: int64(seq + i), Type: session.TypeAssistantChunk, Time: int64(seq), Data: chunkData}
				}
				must(b, s.Append(ctx, "b", buf[:n], false))
			}
			must(b, s.Sync(ctx))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func BenchmarkAppendDurable(b *testing.B) {
	for _, st := range benchStores {
		b.Run(st.name, func(b *testing.B) {
			s := st.open(b)
			defer s.Close()
			ctx := context.Background()
			must(b, s.Create(ctx, session.Header{ID: "b", Version: 1}))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ev := session.Event{Seq: int64(i), Type: session.TypeAssistantChunk, Time: int64(i), Data: chunkData}
				must(b, s.Append(ctx, "b", []session.Event{ev}, true))
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkLogAppend measures the Log path the agent uses for chunks:
// encode a struct, number, stamp, buffer, hand over in batches.
func BenchmarkLogAppend(b *testing.B) {
	for _, st := range benchStores {
		b.Run(st.name, func(b *testing.B) {
			s := st.open(b)
			defer s.Close()
			ctx := context.Background()
			log, err := session.Create(ctx, s, session.Header{ID: "b"}, session.LogOptions{BatchSize: 1000})
			must(b, err)
			data := session.AssistantChunk{Turn: 3, Step: 2, Attempt: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Let me read the file first"}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := log.Append(ctx, session.TypeAssistantChunk, data); err != nil {
					b.Fatal(err)
				}
			}
			must(b, log.Sync(ctx))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

var (
	bigSessionOnce sync.Once
	bigSession     []session.Event
)

// millionEvents is a 1 M-event session of realistic turns (31 events, 4 of
// them model-visible, 20 streamed chunks), built once.
func millionEvents(b *testing.B) []session.Event {
	bigSessionOnce.Do(func() {
		s := &script{t: b, events: make([]session.Event, 0, 1_000_040)}
		for turn := 1; len(s.events) < 1_000_000; turn++ {
			id := fmt.Sprintf("call-%d", turn)
			s.turnStart(turn).stepStart(turn, 1).user("Please fix the failing test in parser_test.go")
			for range 10 {
				s.chunk(turn, 1, "Let me look ")
			}
			s.assistant(turn, 1, "I will read the file.", llm.ToolCall{ID: id, Name: "read", Arguments: `{"file_path":"parser_test.go"}`}).
				call(turn, 1, id, "read").result(turn, 1, id, "read", "package parser\n\nfunc TestParse(t *testing.T) {}\n").
				stepEnd(turn, 1).stepStart(turn, 2)
			for range 10 {
				s.chunk(turn, 2, "The test now ")
			}
			s.assistant(turn, 2, "Fixed: the parser now accepts empty input.").stepEnd(turn, 2).turnEnd(turn)
		}
		bigSession = s.events[:1_000_000]
	})
	return bigSession
}

func BenchmarkDeriveMessages1M(b *testing.B) {
	events := millionEvents(b)
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		msgs, err := session.DeriveMessages(events)
		must(b, err)
		n = len(msgs)
	}
	b.ReportMetric(float64(n), "messages")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/derive")
}
