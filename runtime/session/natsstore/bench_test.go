package natsstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
)

// BenchmarkAppend compares appends to the Badger store and to JetStream
// (an in-process server on file storage) in the same run: one event per
// durable append (what AppendDurable costs: a fenced publish waiting for
// its acknowledgement, against a Badger transaction and a sync) and
// batches of 100 (the Log's buffered appends: one message per batch).
// A JetStream acknowledgement means the server has the message in its
// files, synced every two minutes by default; jetstream-sync-always
// fsyncs each one first, which is what Badger's durable append does.
// Compare them as ratios; ns/op is per event.
func BenchmarkAppend(b *testing.B) {
	data := json.RawMessage(`{"turn":1,"step":1,"attempt":1,"chunk":{"kind":"text","text":"a chunk of a streamed answer, about sixty bytes"}}`)
	stores := map[string]func(b *testing.B) session.Store{
		"badger": func(b *testing.B) session.Store {
			s, err := session.OpenBadger(b.TempDir(), session.BadgerOptions{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"jetstream": func(b *testing.B) session.Store { return openStore(b, connect(b, startServer(b, ""))) },
		"jetstream-sync-always": func(b *testing.B) session.Store {
			ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: b.TempDir(), Port: -1, SyncAlways: true})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
			return openStore(b, connect(b, ns))
		},
	}
	for _, name := range []string{"badger", "jetstream", "jetstream-sync-always"} {
		for _, batch := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/batch=%d", name, batch), func(b *testing.B) {
				s := stores[name](b)
				defer s.Close()
				ctx := context.Background()
				must(b, s.Create(ctx, session.Header{ID: "bench", CreatedAt: 1}))
				evs := make([]session.Event, batch)
				seq := int64(0)
				b.ResetTimer()
				for n := 0; n < b.N; n += batch {
					for i := range evs {
						evs[i] = session.Event{Seq: seq, Type: session.TypeAssistantChunk, Time: seq, Data: data}
						seq++
					}
					must(b, s.Append(ctx, "bench", evs, true))
				}
			})
		}
	}
}
