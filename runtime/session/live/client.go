package live

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"

	"github.com/ptc-dev/ptc/runtime/session"
)

// ErrNotServed means nobody serves the session (it is not running, or its
// owner died): read it from its store instead.
var ErrNotServed = errors.New("the session is not being served")

// Stream is what a client learns about the session before its events.
type Stream struct {
	Header  session.Header
	PID     int
	Running bool
}

// maxLine bounds one line from the server (one event).
const maxLine = 256 << 20

// Show returns the live session in dir as it is now.
func Show(ctx context.Context, dir string) (Stream, []session.Event, error) {
	var events []session.Event
	st, end, err := talk(ctx, dir, request{Op: "show"}, nil, func(e session.Event) error {
		events = append(events, e)
		return nil
	})
	if err == nil && end != EndSnapshot {
		err = fmt.Errorf("session %s: the stream ended with %q", st.Header.ID, end)
	}
	return st, events, err
}

// Follow calls fn with each event of the live session in dir from seq
// from on, until until (UntilTurn or UntilSession) is reached, the owner
// closes the session, ctx ends or fn fails. onStart, when set, sees the
// stream's header first. It returns how the stream ended.
func Follow(ctx context.Context, dir string, from int64, until string, onStart func(Stream), fn func(session.Event) error) (string, error) {
	_, end, err := talk(ctx, dir, request{Op: "follow", From: from, Until: until}, onStart, fn)
	return end, err
}

func talk(ctx context.Context, dir string, req request, onStart func(Stream), fn func(session.Event) error) (Stream, string, error) {
	var st Stream
	addr, d, err := socketAddr(dir)
	if err != nil {
		return st, "", err
	}
	if d != nil {
		defer d.Close()
	}
	var dialer net.Dialer
	c, err := dialer.DialContext(ctx, "unix", addr)
	if err != nil {
		return st, "", fmt.Errorf("%w (%s: %v)", ErrNotServed, filepath.Join(dir, session.SocketName), err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return st, "", fmt.Errorf("%w: %v", ErrNotServed, err)
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	first := true
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return st, "", fmt.Errorf("session socket %s sent a bad line: %w", dir, err)
		}
		switch {
		case first:
			if m.Header == nil {
				return st, "", fmt.Errorf("session socket %s did not start with a header", dir)
			}
			st = Stream{Header: *m.Header, PID: m.PID, Running: m.Running}
			first = false
			if onStart != nil {
				onStart(st)
			}
		case m.Event != nil:
			if err := fn(*m.Event); err != nil {
				return st, "", err
			}
		case m.End != "":
			return st, m.End, nil
		}
	}
	if ctx.Err() != nil {
		return st, "", ctx.Err()
	}
	if first {
		return st, "", fmt.Errorf("%w: the owner hung up before answering", ErrNotServed)
	}
	// The owner went away mid-stream (killed): what was sent is all.
	return st, EndClosed, sc.Err()
}
