package serve

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

// staleRequests returns the requests still open at the end of events, a
// log whose last turn never ended (ptc serve stopped while they waited):
// approvals asked and never decided, and ask_user_question or
// exit_plan_mode calls that never got a result. A log whose last turn
// ended has none.
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
	type open struct {
		q     tools.Question
		calls bool // an ask/plan tool call: settled by its result
	}
	var order []string
	reqs := map[string]open{}
	add := func(id string, o open) {
		if _, dup := reqs[id]; !dup {
			order = append(order, id)
		}
		reqs[id] = o
	}
	settle := func(id string, calls bool) {
		if o, ok := reqs[id]; ok && o.calls == calls {
			delete(reqs, id)
		}
	}
	for _, e := range events[start+1:] {
		switch e.Type {
		case session.TypeApprovalAsked:
			var d session.ApprovalAsked
			if json.Unmarshal(e.Data, &d) == nil {
				add(d.CallID, open{q: tools.Question{Kind: tools.KindApproval, CallID: d.CallID, Tool: d.Name, Args: d.Arguments, Text: d.Reason}})
			}
		case session.TypeApprovalDecided:
			var d session.ApprovalDecided
			if json.Unmarshal(e.Data, &d) == nil {
				settle(d.CallID, false)
			}
		case session.TypeToolCall:
			var d session.ToolCall
			if json.Unmarshal(e.Data, &d) == nil {
				if q, ok := waitingCall(d.CallID, d.Name, d.Arguments); ok {
					add(d.CallID, open{q: q, calls: true})
				}
			}
		case session.TypePtcDispatchStart:
			var d session.PtcDispatch
			if json.Unmarshal(e.Data, &d) == nil {
				if q, ok := waitingCall(d.SubCallID, d.Name, d.Arguments); ok {
					add(d.SubCallID, open{q: q, calls: true})
				}
			}
		case session.TypeToolResult:
			var d session.ToolResult
			if json.Unmarshal(e.Data, &d) == nil {
				settle(d.CallID, true)
			}
		case session.TypePtcDispatch:
			var d session.PtcDispatch
			if json.Unmarshal(e.Data, &d) == nil {
				settle(d.SubCallID, true)
			}
		}
	}
	var out []Pending
	for _, id := range order {
		if o, ok := reqs[id]; ok {
			p := describe(id, o.q, workspace, mode)
			p.Stale = true
			out = append(out, p)
		}
	}
	return out
}

// waitingCall is the question a call of ask_user_question or
// exit_plan_mode puts to the user, read from its arguments.
func waitingCall(id, name, args string) (tools.Question, bool) {
	switch name {
	case toolbox.AskUserQuestionName:
		var in struct {
			Question string   `json:"question"`
			Options  []string `json:"options"`
		}
		if json.Unmarshal([]byte(args), &in) != nil {
			return tools.Question{}, false
		}
		return tools.Question{Kind: tools.KindQuestion, CallID: id, Tool: name, Text: in.Question, Options: in.Options}, true
	case plan.ExitName:
		var in struct {
			Plan string `json:"plan"`
		}
		if json.Unmarshal([]byte(args), &in) != nil {
			return tools.Question{}, false
		}
		return tools.Question{Kind: tools.KindPlan, CallID: id, Tool: name, Text: in.Plan}, true
	}
	return tools.Question{}, false
}
