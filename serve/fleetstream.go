package serve

import (
	"bufio"
	"context"
	"net/http"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// stream serves GET /v1/sessions/{id}/events for a fleet session: every
// event after the resume point, then each as its worker appends it, read
// by following the session's subject (natsstore.Store.Follow) — the
// frames are the same as Server's, so every client of the API follows a
// fleet session unchanged. Heartbeats go while nothing happens; Close
// ends the stream with an end frame.
func (f *Fleet) stream(w http.ResponseWriter, r *http.Request, id string) {
	from, err := after(r)
	if err != nil {
		badRequest(w, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &sse{w: bufio.NewWriterSize(w, 32<<10), rc: http.NewResponseController(w), h: newHub()}
	out.comment("retry: 2000\n\n")
	if out.flush() != nil {
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(f.ctx, cancel)()
	evs := make(chan session.Event, 256)
	errc := make(chan error, 1)
	go func() {
		err := f.cfg.Catalog.Store().Follow(ctx, id, from+1, func(e session.Event) error {
			select {
			case evs <- e:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}, nil)
		close(evs)
		errc <- err
	}()
	beat := time.NewTicker(f.cfg.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case e, ok := <-evs:
			if !ok {
				err := <-errc
				switch {
				case f.ctx.Err() != nil:
					out.end("shutdown")
				case r.Context().Err() == nil && err != nil:
					out.end("unreadable: " + err.Error())
				}
				return
			}
			if out.event(e) != nil {
				return
			}
			if len(evs) == 0 && out.flush() != nil {
				return
			}
		case <-beat.C:
			if out.comment(heartbeat) != nil || out.flush() != nil {
				return
			}
		}
	}
}
