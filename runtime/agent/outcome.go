package agent

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/session"
)

// OutcomeOf rebuilds the outcome of the last turn in events, as Run
// returned it: its end reason, last answer, usage and number of steps. A
// follower of a session run elsewhere (ptc attach, a client of ptc serve)
// learns how a turn went from its events alone.
func OutcomeOf(events []session.Event) Outcome {
	var out Outcome
	for _, e := range events {
		switch e.Type {
		case session.TypeTurnStart:
			var d session.TurnStart
			if json.Unmarshal(e.Data, &d) == nil {
				out = Outcome{Turn: d.Turn}
			}
		case session.TypeStepStart:
			out.Steps++
		case session.TypeAssistantMessage:
			var d session.AssistantMessage
			if json.Unmarshal(e.Data, &d) == nil {
				out.Usage.Add(d.Usage)
				if d.Message.Content != "" {
					out.Text = d.Message.Content
				}
			}
		case session.TypeTurnEnd:
			var d session.TurnEnd
			if json.Unmarshal(e.Data, &d) == nil {
				out.Turn, out.Reason, out.Cause, out.Failure = d.Turn, d.Reason, d.Cause, d.Failure
			}
		}
	}
	return out
}
