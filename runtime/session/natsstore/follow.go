package natsstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
)

// ErrStop, returned by a Follow callback, ends the follow without error.
var ErrStop = errors.New("stop following")

// Follow calls fn with every event of session id from seq from on, in
// order: those stored, then each as its writer appends it, until ctx ends
// or fn returns an error (ErrStop ends it cleanly). It subscribes to the
// session's subject through an ordered consumer, so any number of
// followers on any machine see the session live without asking its
// writer, and one that falls behind resumes where it was.
func (s *Store) Follow(ctx context.Context, id string, from int64, fn func(session.Event) error, ready func()) error {
	done, err := s.begin()
	if err != nil {
		return err
	}
	defer done()
	if _, err := s.record(ctx, id); err != nil {
		return err
	}
	cons, err := s.js.OrderedConsumer(ctx, StreamName, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{subject(id)},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("session %s: follow it: %w", id, err)
	}
	it, err := cons.Messages()
	if err != nil {
		return fmt.Errorf("session %s: follow it: %w", id, err)
	}
	defer it.Stop()
	if ready != nil {
		ready()
	}
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	var d decoder
	for {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("session %s: follow it: %w", id, err)
		}
		n := len(d.events)
		d.add(m.Headers(), m.Data())
		for _, e := range d.events[n:] {
			if e.Seq < from {
				continue
			}
			if err := fn(e); err != nil {
				if errors.Is(err, ErrStop) {
					return nil
				}
				return err
			}
		}
		// Keep no history: only the part of a cut run in progress.
		d.events = d.events[:0]
	}
}
