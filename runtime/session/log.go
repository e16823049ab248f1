package session

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// LogOptions configures a Log. The zero value is usable.
type LogOptions struct {
	// Now stamps events (Unix ms) and new headers; default time.Now.
	Now func() time.Time
	// Rand feeds NewID when Create gets a header without an id; default
	// crypto/rand.
	Rand io.Reader
	// OnEvent, when set, sees every event once it is appended (buffered
	// events at Append, durable ones after they are stored), in seq order
	// even with concurrent appenders. It runs on the appending goroutine
	// while the Log is locked, so it must be quick and must not call back
	// into the Log.
	OnEvent func(Event)
	// BatchSize is how many buffered events are handed to the store at
	// once when no durable append comes first; default 512.
	BatchSize int
}

func (o LogOptions) withDefaults() LogOptions {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 512
	}
	return o
}

// Log is the single writer of one session. It numbers events, stamps their
// time, encodes and checks their data, and decides what is durable when.
//
// Append buffers (use it for chunks and other events nothing waits on);
// AppendDurable makes everything up to and including its event durable
// before returning (use it before a model request, before a tool body and
// at step boundaries). Events sees buffered events too.
//
// A Log is safe for concurrent use, but there must be one Log per session
// in the whole system: a second writer would get ErrSeqGap.
type Log struct {
	store Store
	opts  LogOptions

	mu       sync.Mutex
	header   Header
	events   []Event
	pending  int  // trailing events not yet handed to the store
	dirty    bool // events handed over without a sync since
	warnings []string
}

// Create starts a new session in store. Missing header fields are filled
// in: ID (NewID), CreatedAt (Now) and Version (FormatVersion).
func Create(ctx context.Context, store Store, h Header, opts LogOptions) (*Log, error) {
	opts = opts.withDefaults()
	now := opts.Now()
	if h.ID == "" {
		h.ID = NewID(now, opts.Rand)
	}
	if h.CreatedAt == 0 {
		h.CreatedAt = now.UnixMilli()
	}
	if h.Version == 0 {
		h.Version = FormatVersion
	}
	if err := store.Create(ctx, h); err != nil {
		return nil, err
	}
	return &Log{store: store, opts: opts, header: h}, nil
}

// Open continues session id. The stored log is validated (see Validate);
// a torn tail is removed from the store (which must then implement
// Truncater) and reported by Warnings. Open does not repair an interrupted
// turn: call Repair.
func Open(ctx context.Context, store Store, id string, opts LogOptions) (*Log, error) {
	ld, err := LoadSession(ctx, store, id)
	if err != nil {
		return nil, err
	}
	if ld.Torn > 0 {
		t, ok := store.(Truncater)
		if !ok {
			return nil, fmt.Errorf("session %s has a torn tail and this store cannot remove it; open it read-only instead", id)
		}
		if err := t.Truncate(ctx, id, int64(len(ld.Events))); err != nil {
			return nil, fmt.Errorf("session %s: remove torn tail: %w", id, err)
		}
	}
	return &Log{store: store, opts: opts.withDefaults(), header: ld.Header, events: ld.Events, warnings: ld.Warnings}, nil
}

// Header returns the session header.
func (l *Log) Header() Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.header
}

// Warnings are the problems Open worked around (a dropped torn tail).
func (l *Log) Warnings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.warnings...)
}

// Events returns every event so far, buffered ones included. The slice is
// a snapshot: later appends do not show in it, and it must not be modified.
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.events)
	return l.events[:n:n]
}

// Len is the number of events so far, which is also the next seq.
func (l *Log) Len() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int64(len(l.events))
}

// Append adds a buffered event. It is handed to the store when BatchSize
// events are pending, and made durable by the next AppendDurable or Sync.
// An error encoding data appends nothing; an error from the store leaves
// the event buffered for the next attempt.
func (l *Log) Append(ctx context.Context, typ string, data any) (Event, error) {
	raw, err := l.encode(typ, data)
	if err != nil {
		return Event{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.push(typ, raw)
	var ferr error
	if l.pending >= l.opts.BatchSize {
		ferr = l.flush(ctx, false)
	}
	l.notify(e)
	return e, ferr
}

// AppendDurable adds an event and returns once it and every event before
// it are on stable storage. On error the event is not appended.
func (l *Log) AppendDurable(ctx context.Context, typ string, data any) (Event, error) {
	raw, err := l.encode(typ, data)
	if err != nil {
		return Event{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.push(typ, raw)
	if err := l.flush(ctx, true); err != nil {
		l.events = l.events[:len(l.events)-1]
		l.pending--
		return Event{}, err
	}
	l.notify(e)
	return e, nil
}

// push numbers, stamps and buffers one event. Seq and time are taken
// together under l.mu, so concurrent appenders get times that never go
// backwards along the seq. l.mu must be held.
func (l *Log) push(typ string, raw []byte) Event {
	e := Event{Seq: int64(len(l.events)), Type: typ, Time: l.opts.Now().UnixMilli(), Data: raw}
	l.events = append(l.events, e)
	l.pending++
	return e
}

// notify hands e to OnEvent. It runs under l.mu so that concurrent
// appenders still deliver events in seq order. l.mu must be held.
func (l *Log) notify(e Event) {
	if l.opts.OnEvent != nil {
		l.opts.OnEvent(e)
	}
}

// Sync makes every event appended so far durable.
func (l *Log) Sync(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flush(ctx, true)
}

// flush hands pending events to the store; durable also syncs what was
// handed over earlier without a sync. l.mu must be held.
func (l *Log) flush(ctx context.Context, durable bool) error {
	if l.pending > 0 {
		batch := l.events[len(l.events)-l.pending:]
		if err := l.store.Append(ctx, l.header.ID, batch, durable); err != nil {
			return fmt.Errorf("session %s: write events: %w", l.header.ID, err)
		}
		l.pending = 0
		l.dirty = !durable
		return nil
	}
	if durable && l.dirty {
		if err := l.store.Sync(ctx); err != nil {
			return fmt.Errorf("session %s: sync events: %w", l.header.ID, err)
		}
		l.dirty = false
	}
	return nil
}

// encode checks the type and encodes data; it runs before l.mu is taken
// so that marshalling a large value does not hold up other appenders.
func (l *Log) encode(typ string, data any) (json.RawMessage, error) {
	if typ == "" {
		return nil, fmt.Errorf("session %s: an event needs a type", l.header.ID)
	}
	raw, err := EncodeData(typ, data)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", l.header.ID, err)
	}
	return raw, nil
}
