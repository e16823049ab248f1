package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// knownTypes are the event types this build understands, filled by
// eventType as the Type… variables are initialised: declaring a type is
// registering it, so there is no second list to forget. A log holding any
// other type (except x- extensions) was written by a newer ptc.
var knownTypes = map[string]bool{}

// eventType registers an event type name and returns it. Every Type…
// variable of this package is declared with it.
func eventType(name string) string {
	if knownTypes[name] {
		panic("session: event type " + name + " declared twice")
	}
	knownTypes[name] = true
	return name
}

// ExtensionPrefix marks event types that readers may ignore: a log may hold
// x-… events this build does not know; they are kept and never projected.
const ExtensionPrefix = "x-"

// Loaded is a session read back from a store and validated.
type Loaded struct {
	Header Header
	Events []Event
	// Torn is how many undecodable records were dropped from the tail
	// (a write cut short); Warnings says so in words for the user.
	Torn     int
	Warnings []string
}

// LoadSession reads session id from store and validates it (see Validate).
func LoadSession(ctx context.Context, store Store, id string) (Loaded, error) {
	h, err := store.Header(ctx, id)
	if err != nil {
		return Loaded{}, err
	}
	events, err := store.Load(ctx, id)
	if err != nil {
		return Loaded{}, err
	}
	return Validate(h, events)
}

// Validate checks a stored session before anything is built on it:
//   - a header Version above FormatVersion, or an event type this build
//     does not know (other than x-…), fails with ErrUnsupportedFormat;
//   - seqs must run 0, 1, 2… (ErrSeqGap otherwise);
//   - undecodable records (no type, or data that is not JSON) at the very
//     end are a torn tail: they are dropped and reported in Warnings; one
//     followed by a valid event fails with ErrCorrupt. A valid event is
//     never dropped.
func Validate(h Header, events []Event) (Loaded, error) {
	out := Loaded{Header: h, Events: events}
	if h.Version > FormatVersion {
		return out, fmt.Errorf("session %s uses format version %d but this ptc reads up to %d: %w; this session was written by a newer ptc, upgrade to open it",
			h.ID, h.Version, FormatVersion, ErrUnsupportedFormat)
	}
	firstBad := -1
	for i, e := range events {
		if e.Seq != int64(i) {
			return out, fmt.Errorf("session %s: event %d has seq %d: %w", h.ID, i, e.Seq, ErrSeqGap)
		}
		if e.Type == "" || !json.Valid(e.Data) {
			if firstBad < 0 {
				firstBad = i
			}
			continue
		}
		if firstBad >= 0 {
			return out, fmt.Errorf("session %s: event seq %d cannot be decoded but valid events follow it: %w; export what can be read with ptc session export", h.ID, firstBad, ErrCorrupt)
		}
		if !knownTypes[e.Type] && !strings.HasPrefix(e.Type, ExtensionPrefix) {
			return out, fmt.Errorf("session %s: event seq %d has type %q, which this build does not know: %w; this session was written by a newer ptc, upgrade to open it",
				h.ID, e.Seq, e.Type, ErrUnsupportedFormat)
		}
	}
	if firstBad >= 0 {
		out.Torn = len(events) - firstBad
		out.Events = events[:firstBad]
		out.Warnings = append(out.Warnings, fmt.Sprintf(
			"session %s: dropped %d undecodable record(s) from seq %d at the end of the log (a write was cut short)", h.ID, out.Torn, firstBad))
	}
	return out, nil
}
