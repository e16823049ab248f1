package sessiontest

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Decode returns the data of e as a T, failing the test when it does not
// decode as one.
func Decode[T any](t testing.TB, e session.Event) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(e.Data, &v); err != nil {
		t.Fatalf("event %d (%s): %v", e.Seq, e.Type, err)
	}
	return v
}

// OfType returns the events of type typ, in log order.
func OfType(events []session.Event, typ string) []session.Event {
	var out []session.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// DataOf decodes the data of every event of type typ as a T, in log order.
func DataOf[T any](t testing.TB, events []session.Event, typ string) []T {
	t.Helper()
	var out []T
	for _, e := range OfType(events, typ) {
		out = append(out, Decode[T](t, e))
	}
	return out
}

// Last decodes the data of the last event of type typ as a T, failing the
// test when there is none.
func Last[T any](t testing.TB, events []session.Event, typ string) T {
	t.Helper()
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == typ {
			return Decode[T](t, events[i])
		}
	}
	t.Fatalf("no %s event", typ)
	var zero T
	return zero
}
