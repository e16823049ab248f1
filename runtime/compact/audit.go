package compact

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Sent is one request a session sent, rebuilt from its log, with what the
// provider reported for it (zero for an attempt that failed).
type Sent struct {
	Request llm.Request
	Summary bool // a compaction side request
	Usage   llm.Usage
}

// SentRequests rebuilds, from the log alone, every request a session sent
// in the order it sent them: a step request at each context/meter (the
// last event before a request goes out) and a summary request at each
// compaction/summary. It is how tests and benchmarks check what was sent
// and measure it.
func SentRequests(events []session.Event) ([]Sent, error) {
	var out []Sent
	var b prompt.Builder
	for i, e := range events {
		switch e.Type {
		case session.TypeContextMeter:
			req, err := b.Build(events[:i+1])
			if err != nil {
				return nil, err
			}
			out = append(out, Sent{Request: req})
		case session.TypeAssistantMessage:
			var d session.AssistantMessage
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, fmt.Errorf("event seq %d (%s): cannot decode its data: %w", e.Seq, e.Type, err)
			}
			if n := len(out); n > 0 && !out[n-1].Summary {
				out[n-1].Usage = d.Usage
			}
		case session.TypeCompactionSummary:
			req, err := RebuildRequest(events, i)
			if err != nil {
				return nil, err
			}
			var d session.CompactionSummary
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, err
			}
			out = append(out, Sent{Request: req, Summary: true, Usage: d.Usage})
		}
	}
	return out, nil
}

// PrefixTokens estimates how much of req repeats prev from its start: the
// system text and tools when both are the same, then every message up to
// the first that differs. That is the part a provider's prefix cache can
// serve when req follows prev.
func PrefixTokens(prev, req llm.Request) int {
	if prev.System != req.System || !reflect.DeepEqual(prev.Tools, req.Tools) {
		return 0
	}
	n := RequestTokens(llm.Request{System: req.System, Tools: req.Tools})
	for i, m := range req.Messages {
		if i >= len(prev.Messages) || !reflect.DeepEqual(m, prev.Messages[i]) {
			break
		}
		n += MessageTokens(m)
	}
	return n
}
