package session

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// UsageTotal is what a session's model requests cost, as its log records
// it: every answer (assistant/message), every compaction summary side
// request and the title side request (session/title). It is the one fold of usage over events; `ptc session show`,
// the TUI's status line and /cost, and `ptc bench` read it.
type UsageTotal struct {
	// All sums every request's usage.
	All llm.Usage
	// Unpriced sums the requests the provider did not price (CostUSD 0: a
	// script, a server the adapter has no prices for), so a caller can
	// price them by the model table.
	Unpriced llm.Usage
	// Requests counts the requests folded in.
	Requests int
}

// Fold adds ev when it records a model request's usage and reports
// whether it did. Other events, and data that does not decode, add
// nothing.
func (t *UsageTotal) Fold(ev Event) bool {
	if ev.Type != TypeAssistantMessage && ev.Type != TypeCompactionSummary && ev.Type != TypeTitle {
		return false
	}
	var d struct {
		Usage llm.Usage `json:"usage"`
	}
	if json.Unmarshal(ev.Data, &d) != nil {
		return false
	}
	t.All.Add(d.Usage)
	if d.Usage.CostUSD == 0 {
		t.Unpriced.Add(d.Usage)
	}
	t.Requests++
	return true
}

// SumUsage folds every event of a session.
func SumUsage(events []Event) UsageTotal {
	var t UsageTotal
	for _, e := range events {
		t.Fold(e)
	}
	return t
}
