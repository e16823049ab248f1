package natsstore

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/ptc-dev/ptc/runtime/session"
)

// A message on a session's subject holds a run of its events: the events
// one Append was given, as many as fit under the server's max_payload
// (one publish per message, so an Append is one round trip however many
// events it carries). The body is the events' frames, one after another:
//
//	uvarint len(type) | type | varint time | uvarint len(data) | data
//
// with data the event's JSON byte for byte. Headers say which events the
// message holds. An event too large for one message is cut into parts,
// each a message of its own; only the last part carries Ptc-Count.
const (
	hdrSeq     = "Ptc-Seq"     // seq of the message's first event
	hdrCount   = "Ptc-Count"   // how many events the message ends (absent on a part before the last)
	hdrUpdated = "Ptc-Updated" // the latest event time up to here (a listing's updatedAt)
	hdrPart    = "Ptc-Part"    // "i/n" on every part of a cut run
)

// partRoom is what a message leaves for headers under max_payload.
const partRoom = 4 << 10

// frameLen is the size of e's frame.
func frameLen(e session.Event) int {
	return 3*binary.MaxVarintLen64 + len(e.Type) + len(e.Data)
}

func appendFrame(b []byte, e session.Event) []byte {
	b = binary.AppendUvarint(b, uint64(len(e.Type)))
	b = append(b, e.Type...)
	b = binary.AppendVarint(b, e.Time)
	b = binary.AppendUvarint(b, uint64(len(e.Data)))
	return append(b, e.Data...)
}

// encode makes the messages of events (which continue a session whose
// latest event time so far is updated) on subject, each body at most room
// bytes. Message ids are nonce (the session's and the writer's) and the
// first seq, so a retried publish is known as a duplicate and another
// writer's message never is.
func encode(subject, nonce string, events []session.Event, updated int64, room int) []*nats.Msg {
	var out []*nats.Msg
	for len(events) > 0 {
		n, size := 0, 0
		for n < len(events) && (n == 0 || size+frameLen(events[n]) <= room) {
			size += frameLen(events[n])
			n++
		}
		body := make([]byte, 0, size)
		for _, e := range events[:n] {
			body = appendFrame(body, e)
			updated = max64(updated, e.Time)
		}
		seq := strconv.FormatInt(events[0].Seq, 10)
		parts := max(1, (len(body)+room-1)/room)
		for i := range parts {
			h := nats.Header{hdrSeq: []string{seq}}
			id := nonce + "." + seq
			if parts > 1 {
				h[hdrPart] = []string{strconv.Itoa(i) + "/" + strconv.Itoa(parts)}
				id += "." + strconv.Itoa(i)
			}
			h[nats.MsgIdHdr] = []string{id}
			if i == parts-1 {
				h[hdrCount] = []string{strconv.Itoa(n)}
				h[hdrUpdated] = []string{strconv.FormatInt(updated, 10)}
			}
			out = append(out, &nats.Msg{Subject: subject, Header: h, Data: body[i*room : min((i+1)*room, len(body))]})
		}
		events = events[n:]
	}
	return out
}

// decoder puts events back together from their messages, in order.
type decoder struct {
	events []session.Event
	parts  []byte // the parts of a cut run so far
	next   int    // the part expected next
}

// add takes one message. A message that cannot be read (not written by
// ptc, or a run whose parts do not follow each other) becomes an event
// without a type, which session.Validate treats as a torn tail at the
// end of a log and as corruption before valid events.
func (d *decoder) add(h nats.Header, body []byte) {
	seq, err := strconv.ParseInt(h.Get(hdrSeq), 10, 64)
	if err != nil {
		d.bad(int64(len(d.events)))
		return
	}
	if p := h.Get(hdrPart); p != "" {
		var i, n int
		if _, err := fmt.Sscanf(p, "%d/%d", &i, &n); err != nil || i != d.next || n < 2 || i >= n {
			d.parts, d.next = nil, 0
			d.bad(seq)
			return
		}
		d.parts = append(d.parts, body...)
		if i < n-1 {
			d.next = i + 1
			return
		}
		body, d.parts, d.next = d.parts, nil, 0
	}
	count, err := strconv.Atoi(h.Get(hdrCount))
	if err != nil || count <= 0 {
		d.bad(seq)
		return
	}
	for i := range count {
		e, rest, err := readFrame(body)
		if err != nil {
			d.bad(seq + int64(i))
			return
		}
		e.Seq = seq + int64(i)
		d.events = append(d.events, e)
		body = rest
	}
}

// bad records an unreadable event at seq.
func (d *decoder) bad(seq int64) {
	d.events = append(d.events, session.Event{Seq: seq})
}

var errFrame = errors.New("a cut or malformed event frame")

// readFrame reads one frame from b; the event's data is copied out of b.
func readFrame(b []byte) (session.Event, []byte, error) {
	var e session.Event
	tl, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < tl {
		return e, nil, errFrame
	}
	b = b[n:]
	e.Type, b = string(b[:tl]), b[tl:]
	t, n := binary.Varint(b)
	if n <= 0 {
		return e, nil, errFrame
	}
	e.Time, b = t, b[n:]
	dl, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < dl {
		return e, nil, errFrame
	}
	b = b[n:]
	e.Data = append(json.RawMessage(nil), b[:dl]...)
	return e, b[dl:], nil
}

// tip is what the last message of a session says: how many events it
// holds and when it was last updated. ok is false for a message that
// does not end a run (a torn part).
func tip(h nats.Header) (count, updated int64, ok bool) {
	seq, err := strconv.ParseInt(h.Get(hdrSeq), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(h.Get(hdrCount), 10, 64)
	if err != nil || n <= 0 {
		return 0, 0, false
	}
	updated, _ = strconv.ParseInt(h.Get(hdrUpdated), 10, 64)
	return seq + n, updated, true
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
