package serve

import (
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// staleRequests returns the requests still open at the end of events, a
// log whose last turn never ended (the process that asked stopped while
// they waited): the approval service's open requests (tools.PendingFrom)
// of that turn. A log whose last turn ended has none: its requests
// closed with it.
func staleRequests(events []session.Event, workspace, mode string) []Pending {
	start := -1
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == session.TypeTurnEnd {
			return nil
		}
		if events[i].Type == session.TypeTurnStart {
			start = i
			break
		}
	}
	if start < 0 {
		return nil
	}
	open, err := tools.PendingFrom(events[start:])
	if err != nil {
		return nil
	}
	var out []Pending
	for _, o := range open {
		p := describe(o.Question.ID, o.Question, workspace, mode)
		p.Stale = true
		out = append(out, p)
	}
	return out
}
