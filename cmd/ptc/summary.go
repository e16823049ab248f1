package main

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
)

// tally is what ptc run --output json adds to the outcome: the model,
// the tool calls made per tool, and a cost wherever the model table
// prices the model (a provider that prices its own answers already set
// it; a scripted model is priced from the table, as the TUI does).
type tally struct {
	model  string
	priced models.Model
	calls  map[string]int
}

// count notes a tool call, direct or from a program.
func (t *tally) count(ev session.Event) {
	var name string
	switch ev.Type {
	case session.TypeToolCall:
		var d session.ToolCall
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		name = d.Name
	case session.TypePtcDispatchStart:
		var d session.PtcDispatch
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		name = d.Name
	default:
		return
	}
	if t.calls == nil {
		t.calls = map[string]int{}
	}
	t.calls[name]++
}

// apply adds the tally to f.
func (t *tally) apply(f final) final {
	f.Model, f.ToolCalls = t.model, t.calls
	if f.Usage.CostUSD == 0 && t.priced.Priced() {
		f.Usage.CostUSD = t.priced.Cost(f.Usage)
	}
	return f
}
