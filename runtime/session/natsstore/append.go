package natsstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Append implements session.Store. The events go out as one message, or
// as few as max_payload allows, published one after another: each
// expects its session's subject to end at the message before it (the
// first, at the message this store last wrote or read there). If another
// writer got there first the server refuses the message, nothing more of
// the append is stored, and Append returns session.ErrConflict; a crash
// between two messages of one append leaves a prefix of it, as a torn
// Badger batch does. Every message has an id, so a publish retried after
// a lost acknowledgement is not stored twice. durable is ignored: an
// append returns once the server has acknowledged it (on a majority of
// replicas in a cluster).
func (s *Store) Append(ctx context.Context, id string, events []session.Event, durable bool) error {
	done, err := s.begin()
	if err != nil {
		return err
	}
	defer done()
	if len(events) == 0 {
		return nil
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	t := s.tips[id]
	if t == nil {
		if t, err = s.fetchTip(ctx, id); err != nil {
			return err
		}
		s.tips[id] = t
	}
	if err := session.CheckBatch(id, t.count, events); err != nil {
		return err
	}
	room := int(s.nc.MaxPayload()) - partRoom
	for _, m := range encode(subject(id), t.nonce+"."+s.writer, events, t.updated, room) {
		if err := s.publish(ctx, id, t, m); err != nil {
			return err
		}
	}
	return nil
}

// publish writes one message fenced on t and moves t past it. When the
// publish fails, the server's last message tells what happened: if it is
// m (its id matches), m was stored and its acknowledgement lost; else a
// refused fence is a conflict, and a timeout or a lost connection is
// tried once more with the same id (the server drops a duplicate).
func (s *Store) publish(ctx context.Context, id string, t *tipState, m *nats.Msg) error {
	m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(t.last, 10))
	msgID := m.Header.Get(nats.MsgIdHdr)
	seq, _ := strconv.ParseInt(m.Header.Get(hdrSeq), 10, 64)
	for attempt := 0; ; attempt++ {
		pctx, cancel := s.ctx(ctx)
		ack, err := s.js.PublishMsg(pctx, m)
		cancel()
		if err == nil {
			t.last, t.lastID = ack.Sequence, msgID
			if n, upd, ok := tip(m.Header); ok {
				t.count, t.updated = n, upd
			}
			return nil
		}
		ft, ferr := s.fetchTip(ctx, id)
		if ferr != nil {
			delete(s.tips, id)
			if isWrongLastSeq(err) {
				return fmt.Errorf("append to session %s: event %d: %w, and what it wrote cannot be read: %w", id, seq, session.ErrConflict, ferr)
			}
			return fmt.Errorf("append to session %s: %w", id, err)
		}
		if ft.lastID == msgID {
			*t = *ft
			return nil
		}
		s.tips[id] = ft
		if isWrongLastSeq(err) {
			return conflict(id, seq, ft, err)
		}
		if attempt > 0 || ctx.Err() != nil || ft.last != t.last {
			return fmt.Errorf("append to session %s: %w", id, err)
		}
	}
}

// conflict reports that another writer appended to session id first;
// ft is the session's end now.
func conflict(id string, seq int64, ft *tipState, cause error) error {
	return fmt.Errorf("append to session %s: event %d: %w: the log now holds %d events, written by another process (two workers or ptc processes are running this session; only the one holding its lease may write): %v",
		id, seq, session.ErrConflict, ft.count, cause)
}

// isWrongLastSeq reports the server's refusal of a fenced publish.
func isWrongLastSeq(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}
