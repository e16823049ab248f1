package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
)

// hub wakes the event streams of one session. It carries no events: the
// log holds them, and a woken stream reads what it has not sent yet from
// the session's snapshot (session.Log.Events shares its slice), so a slow
// client never makes the session wait and never misses an event; it only
// receives them in larger batches.
type hub struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
	done chan struct{}
	why  string // set when done is closed

	// recent holds the encoded frames of recent events, so the streams
	// of one session encode each event once between them.
	fmu    sync.Mutex
	recent [frameCache]cachedFrame
}

// frameCache is how many recent frames a hub keeps.
const frameCache = 1024

type cachedFrame struct {
	seq int64
	b   []byte
}

// frame returns e as a Server-Sent Events frame: id = seq, event = type,
// data = the event as `ptc session export` writes it (one JSON line).
func (h *hub) frame(e session.Event) ([]byte, error) {
	slot := &h.recent[e.Seq%frameCache]
	h.fmu.Lock()
	if slot.b != nil && slot.seq == e.Seq {
		b := slot.b
		h.fmu.Unlock()
		return b, nil
	}
	h.fmu.Unlock()
	data, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(data)+len(e.Type)+32)
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, e.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, strings.Map(dropNewline, e.Type)...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	h.fmu.Lock()
	*slot = cachedFrame{e.Seq, b}
	h.fmu.Unlock()
	return b, nil
}

func newHub() *hub { return &hub{subs: map[chan struct{}]struct{}{}, done: make(chan struct{})} }

// publish wakes every stream. It runs as the session's Observer, under
// the log's lock, so it only signals.
func (h *hub) publish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (h *hub) watch() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	h.subs[c] = struct{}{}
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.subs, c)
		h.mu.Unlock()
	}
}

// end closes every stream of the session, saying why ("deleted",
// "shutdown").
func (h *hub) end(why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.done:
	default:
		h.why = why
		close(h.done)
	}
}

// Stream frames besides the log's events (they carry no id, so a client's
// Last-Event-ID stays the last event's seq).
const (
	// endEvent is the last frame of a stream the server ends: its data
	// says why ({"reason":"deleted"|"shutdown"}).
	endEvent = "end"
	// heartbeat is a comment line, invisible to EventSource.
	heartbeat = ": heartbeat\n\n"
)

// after reads where a stream resumes: the Last-Event-ID header (a
// reconnecting EventSource sends it) or ?after=SEQ; -1 means from the
// first event.
func after(r *http.Request) (int64, error) {
	v := r.Header.Get("Last-Event-ID")
	name := "Last-Event-ID"
	if v == "" {
		v, name = r.URL.Query().Get("after"), "after"
	}
	if v == "" {
		return -1, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < -1 {
		return 0, errors.New(name + " must be an event seq (a number from -1 up)")
	}
	return n, nil
}

// sse writes Server-Sent Events frames to one client.
type sse struct {
	w  *bufio.Writer
	rc *http.ResponseController
	h  *hub
}

// event writes one log event's frame.
func (s *sse) event(e session.Event) error {
	b, err := s.h.frame(e)
	if err != nil {
		return err
	}
	_, err = s.w.Write(b)
	return err
}

func dropNewline(r rune) rune {
	if r == '\n' || r == '\r' {
		return -1
	}
	return r
}

func (s *sse) comment(text string) error {
	_, err := s.w.WriteString(text)
	return err
}

func (s *sse) end(why string) {
	s.w.WriteString("event: " + endEvent + "\ndata: {\"reason\":" + strconv.Quote(why) + "}\n\n")
	s.flush()
}

func (s *sse) flush() error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	return s.rc.Flush()
}

// stream serves GET /v1/sessions/{id}/events: every event after the
// resume point, then live ones as the session appends them, with a
// heartbeat comment while nothing happens. A session run by another
// process is followed through its owner socket; one nobody runs is sent
// as stored, and goes on live if this server opens it later.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, id string) {
	from, err := after(r)
	if err != nil {
		badRequest(w, err)
		return
	}
	h := s.hubFor(id)
	if h == nil {
		fail(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down")
		return
	}
	wake, stop := h.watch()
	defer stop()
	if _, err := s.cat().Resolve(id); errors.Is(err, session.ErrNotFound) {
		s.endHub(id, "deleted") // deleted since the request resolved it
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &sse{w: bufio.NewWriterSize(w, 32<<10), rc: http.NewResponseController(w), h: h}
	out.comment("retry: 2000\n\n")
	if out.flush() != nil {
		return
	}
	ctx := r.Context()
	next := from + 1
	beat := time.NewTicker(s.cfg.Heartbeat)
	defer beat.Stop()
	var stored []session.Event
	loaded := false
	for {
		evs, elsewhere, err := s.snapshot(ctx, id, &stored, &loaded)
		if err != nil {
			out.end("unreadable: " + err.Error())
			return
		}
		if elsewhere {
			if next, err = s.followElsewhere(ctx, id, next, out, beat.C, h); err != nil {
				return
			}
			loaded = false // the owner is done: read the store next
			continue
		}
		for ; next < int64(len(evs)); next++ {
			if out.event(evs[next]) != nil {
				return
			}
		}
		if out.flush() != nil {
			return
		}
		select {
		case <-wake:
		case <-beat.C:
			if out.comment(heartbeat) != nil || out.flush() != nil {
				return
			}
		case <-h.done:
			// Send what the session appended before it ended.
			if evs, _, err := s.snapshot(ctx, id, &stored, &loaded); err == nil {
				for ; next < int64(len(evs)); next++ {
					out.event(evs[next])
				}
			}
			out.end(h.why)
			return
		case <-ctx.Done():
			return
		}
	}
}

// snapshot returns the events of session id as this server sees them: a
// served session's live log, else its store (read once per stream, and
// again after the session leaves another process). elsewhere is true
// when another process owns it.
func (s *Server) snapshot(ctx context.Context, id string, stored *[]session.Event, loaded *bool) (evs []session.Event, elsewhere bool, err error) {
	if sv := s.served(id); sv != nil {
		return sv.sess.Events(), false, nil
	}
	if *loaded {
		return *stored, false, nil
	}
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if sv := s.served(id); sv != nil {
		return sv.sess.Events(), false, nil
	}
	ld, err := s.cat().Load(ctx, id)
	if errors.Is(err, session.ErrLocked) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	*stored, *loaded = ld.Events, true
	return ld.Events, false, nil
}

// followElsewhere streams a session another process runs, from its owner
// socket, until that owner closes it; it returns the next seq to send.
func (s *Server) followElsewhere(ctx context.Context, id string, next int64, out *sse, beat <-chan time.Time, h *hub) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	evs := make(chan session.Event, 256)
	done := make(chan error, 1)
	go func() {
		_, err := live.Follow(ctx, s.cat().SessionDir(id), next, live.UntilSession, nil, func(e session.Event) error {
			select {
			case evs <- e:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		close(evs)
		done <- err
	}()
	for {
		select {
		case e, ok := <-evs:
			if !ok {
				err := <-done
				if errors.Is(err, live.ErrNotServed) || err == nil {
					// Gone between the lock check and the dial, or
					// closed: read the store again.
					time.Sleep(50 * time.Millisecond)
					return next, nil
				}
				return next, err
			}
			if e.Seq < next {
				continue
			}
			if out.event(e) != nil {
				return next, errors.New("client gone")
			}
			next = e.Seq + 1
			if len(evs) == 0 && out.flush() != nil {
				return next, errors.New("client gone")
			}
		case <-beat:
			if out.comment(heartbeat) != nil || out.flush() != nil {
				return next, errors.New("client gone")
			}
		case <-h.done:
			out.end(h.why)
			return next, errors.New("ended")
		case <-ctx.Done():
			return next, ctx.Err()
		}
	}
}
