package session_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

func TestValidate(t *testing.T) {
	h := session.Header{ID: "s1", Version: session.FormatVersion}
	ev := func(seq int64, typ, data string) session.Event {
		return session.Event{Seq: seq, Type: typ, Time: 1, Data: json.RawMessage(data)}
	}
	cases := []struct {
		name     string
		header   session.Header
		events   []session.Event
		wantErr  error
		wantIn   []string // words the error must contain
		wantKept int
		wantTorn int
	}{
		{name: "a clean log loads whole", header: h,
			events:   []session.Event{ev(0, session.TypeTurnStart, `{"turn":1}`), ev(1, session.TypeTurnEnd, `{"turn":1}`)},
			wantKept: 2},
		{name: "an empty log loads", header: h, wantKept: 0},
		{name: "a newer header version is refused", header: session.Header{ID: "s1", Version: session.FormatVersion + 1},
			wantErr: session.ErrUnsupportedFormat, wantIn: []string{"s1", "newer ptc"}},
		{name: "an unknown event type is refused with its seq and type", header: h,
			events:  []session.Event{ev(0, session.TypeTurnStart, `{}`), ev(1, "hologram/beam", `{}`)},
			wantErr: session.ErrUnsupportedFormat, wantIn: []string{"s1", "seq 1", "hologram/beam", "newer ptc"}},
		{name: "x- extension types are kept", header: h,
			events:   []session.Event{ev(0, "x-acme/note", `{"a":1}`), ev(1, session.TypeTurnStart, `{}`)},
			wantKept: 2},
		{name: "a seq gap is refused", header: h,
			events:  []session.Event{ev(0, session.TypeTurnStart, `{}`), ev(2, session.TypeTurnEnd, `{}`)},
			wantErr: session.ErrSeqGap, wantIn: []string{"seq 2"}},
		{name: "an undecodable last record is dropped as a torn tail", header: h,
			events:   []session.Event{ev(0, session.TypeTurnStart, `{}`), ev(1, session.TypeAssistantChunk, `{"tu`)},
			wantKept: 1, wantTorn: 1},
		{name: "several torn records at the end are all dropped", header: h,
			events:   []session.Event{ev(0, session.TypeTurnStart, `{}`), {Seq: 1}, ev(2, session.TypeTurnEnd, `nope`)},
			wantKept: 1, wantTorn: 2},
		{name: "an undecodable record before valid ones is corruption, not a tail", header: h,
			events:  []session.Event{ev(0, session.TypeTurnStart, `{`), ev(1, session.TypeTurnEnd, `{}`)},
			wantErr: session.ErrCorrupt, wantIn: []string{"seq 0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := session.Validate(c.header, c.events)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("err = %v, want %v", err, c.wantErr)
				}
				for _, w := range c.wantIn {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
				return
			}
			must(t, err)
			if len(got.Events) != c.wantKept || got.Torn != c.wantTorn || (c.wantTorn > 0) != (len(got.Warnings) > 0) {
				t.Fatalf("kept %d, torn %d, warnings %q; want kept %d, torn %d", len(got.Events), got.Torn, got.Warnings, c.wantKept, c.wantTorn)
			}
		})
	}
}
