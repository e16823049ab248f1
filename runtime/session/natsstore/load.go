package natsstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/ptc-dev/ptc/runtime/session"
)

// loadBatch is how many messages one direct get returns.
const loadBatch = 1000

// Load implements session.Store: every event of session id up to its
// last message when Load starts, in order, read with batched direct gets
// (no consumer is made). Appends that land meanwhile are not included, so
// a reader sees a prefix of the log, never a hole.
func (s *Store) Load(ctx context.Context, id string) ([]session.Event, error) {
	done, err := s.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := s.record(ctx, id)
	if err != nil {
		return nil, err
	}
	last, err := s.lastMsg(ctx, id)
	if err != nil {
		return nil, err
	}
	if last == nil {
		s.learn(id, &tipState{nonce: rec.Nonce, updated: rec.Header.CreatedAt})
		return nil, nil
	}
	var d decoder
	if n, _, ok := tip(last.Header); ok {
		d.events = make([]session.Event, 0, n)
	}
	err = s.scan(ctx, subject(id), 1, last.Sequence, func(m *nats.Msg) { d.add(m.Header, m.Data) })
	if err != nil {
		return nil, fmt.Errorf("session %s: read its events: %w", id, err)
	}
	if count, updated, ok := tip(last.Header); ok {
		s.learn(id, &tipState{nonce: rec.Nonce, count: count, last: last.Sequence, lastID: last.Header.Get(nats.MsgIdHdr), updated: max64(updated, rec.Header.CreatedAt)})
	}
	return d.events, nil
}

// learn keeps the end a Load read as where this store's next append to
// session id must find the log, unless it already knows a later one.
func (s *Store) learn(id string, t *tipState) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if old := s.tips[id]; old != nil && old.last >= t.last {
		return
	}
	s.tips[id] = t
}

// scan calls fn with every message on subj from stream sequence from up
// to upTo, in order.
func (s *Store) scan(ctx context.Context, subj string, from, upTo uint64, fn func(*nats.Msg)) error {
	inbox := s.nc.NewRespInbox()
	sub, err := s.nc.SubscribeSync(inbox)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	for from <= upTo {
		req, _ := json.Marshal(directGet{Seq: from, NextFor: subj, Batch: loadBatch, UpToSeq: upTo})
		if err := s.nc.PublishRequest("$JS.API.DIRECT.GET."+StreamName, inbox, req); err != nil {
			return err
		}
		got := uint64(0)
		for {
			m, err := sub.NextMsgWithContext(ctx)
			if err != nil {
				return err
			}
			if status := m.Header.Get("Status"); status != "" {
				if status == "204" || (status == "404" && got == 0) {
					break // the end of this batch, or nothing (more) to read
				}
				return fmt.Errorf("direct get: %s %s", status, m.Header.Get("Description"))
			}
			seq, err := strconv.ParseUint(m.Header.Get("Nats-Sequence"), 10, 64)
			if err != nil {
				return fmt.Errorf("direct get: a message without its sequence")
			}
			// A batch may run past upTo (appends after Load began): the
			// reader's view ends at upTo.
			if seq <= upTo {
				fn(m)
			}
			got, from = seq, seq+1
		}
		if got == 0 {
			return nil
		}
	}
	return nil
}

// directGet is the server's batched direct get request.
type directGet struct {
	Seq     uint64 `json:"seq,omitempty"`
	NextFor string `json:"next_by_subj,omitempty"`
	Batch   int    `json:"batch,omitempty"`
	UpToSeq uint64 `json:"up_to_seq,omitempty"`
}
