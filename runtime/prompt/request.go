package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Header reasons of request/header events.
const (
	HeaderInitial = "initial"
	HeaderResume  = "resume"
	HeaderChange  = "change"
)

// ErrNoHeader means a request was to be rebuilt from a log point that has
// no request/header before it.
var ErrNoHeader = errors.New("no request/header before this point of the log")

// NextHeader decides whether a request/header must be appended before the
// next request. want is the header the caller is about to use (Reason is
// ignored; Tools are sorted by name here). firstOfRun is true for the
// first request this process sends in the session: the header is then
// always appended, with reason "initial" when the log holds no earlier
// header and "resume" otherwise. Later requests append ("change") only
// when system text, provider, model, tools or options differ from the
// latest logged header.
func NextHeader(events []session.Event, firstOfRun bool, want session.RequestHeader) (session.RequestHeader, bool, error) {
	want.Tools = SortTools(want.Tools)
	last, found, err := LastHeader(events)
	if err != nil {
		return want, false, err
	}
	switch {
	case firstOfRun && !found:
		want.Reason = HeaderInitial
	case firstOfRun:
		want.Reason = HeaderResume
	case !found:
		want.Reason = HeaderInitial
	default:
		same, err := sameHeader(last, want)
		if err != nil {
			return want, false, err
		}
		if same {
			return last, false, nil
		}
		want.Reason = HeaderChange
	}
	return want, true, nil
}

// SortTools returns a copy of specs sorted by name, the order tools always
// travel in so that an unchanged tool set is byte-identical.
func SortTools(specs []llm.ToolSpec) []llm.ToolSpec {
	if len(specs) == 0 {
		return nil
	}
	out := append([]llm.ToolSpec(nil), specs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LastHeader returns the latest request/header in events.
func LastHeader(events []session.Event) (session.RequestHeader, bool, error) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypeRequestHeader {
			continue
		}
		var h session.RequestHeader
		if err := json.Unmarshal(events[i].Data, &h); err != nil {
			return h, false, fmt.Errorf("request/header at seq %d is not valid: %w", events[i].Seq, err)
		}
		return h, true, nil
	}
	return session.RequestHeader{}, false, nil
}

// sameHeader compares two headers by their JSON encoding, reason aside, so
// a header read back from the log equals the one that produced it.
func sameHeader(a, b session.RequestHeader) (bool, error) {
	a.Reason, b.Reason = "", ""
	ja, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ja, jb), nil
}

// BuildRequest rebuilds the model request sent at the end of events: the
// latest request/header supplies model, system text, tools and options;
// the surface supplies the messages. It is pure: the agent sends exactly
// what it returns, and any past request can be rebuilt by passing the log
// prefix that ends where that request was sent.
func BuildRequest(events []session.Event) (llm.Request, error) {
	return buildRequest(events, session.DeriveMessages)
}

// Builder is BuildRequest for one log that only grows, as the agent
// builds a request every step: it keeps the decoded surface between calls
// (see session.Projector), so each call decodes only the new events. Its
// results are BuildRequest's. The zero value is ready; safe for
// concurrent use.
type Builder struct {
	surface session.Projector
}

// Build is BuildRequest(events).
func (b *Builder) Build(events []session.Event) (llm.Request, error) {
	return buildRequest(events, b.surface.Messages)
}

// Surface is session.Surface(events), from the same kept decoding.
func (b *Builder) Surface(events []session.Event) ([]session.SurfaceItem, error) {
	return b.surface.Surface(events)
}

func buildRequest(events []session.Event, derive func([]session.Event) ([]llm.Message, error)) (llm.Request, error) {
	h, found, err := LastHeader(events)
	if err != nil {
		return llm.Request{}, err
	}
	if !found {
		return llm.Request{}, ErrNoHeader
	}
	msgs, err := derive(events)
	if err != nil {
		return llm.Request{}, err
	}
	return llm.Request{
		Model:    h.Model,
		System:   h.System,
		Messages: msgs,
		Tools:    h.Tools,
		Options:  h.Options,
	}, nil
}
