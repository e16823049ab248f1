package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Stable tool error codes used by crash repair. They equal the codes of
// runtime/tools; they are repeated here so that session imports nothing
// above llm.
const (
	codeToolOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
	codeToolNotStarted     = "TOOL_NOT_STARTED"
)

const (
	msgOutcomeUnknown = "ptc stopped while this tool call was running, so it may or may not have taken effect. Check the current state before retrying anything with side effects."
	msgNotStarted     = "ptc stopped before this tool call started; it did not run."
	msgNotApproved    = "ptc stopped while this tool call waited for the user's approval; it did not run."
)

// Pending is an event to append: its type and its data struct.
type Pending struct {
	Type string
	Data any
}

// RepairPlan closes a turn left open by a crash.
type RepairPlan struct {
	// LastTurn is the number of the last turn started (0 for none); the
	// agent numbers its next turn LastTurn+1.
	LastTurn int
	// Events are the synthetic events to append, in order; empty when the
	// log ends cleanly.
	Events []Pending
}

// Repair works out how to close the last turn if it has a turn/start but
// no turn/end (the process died): every call of the open step's
// assistant/message without a tool/result gets an error result,
// TOOL_OUTCOME_UNKNOWN if its tool/call was recorded (it may have run)
// or TOOL_NOT_STARTED if not, or if it was still waiting for its approval
// (an approval/asked of its call id left without an approval/decided:
// the pipeline runs nothing before the answer), in the model's order; then step/end if the
// step is open, then turn/end{interrupted}. Calls, tool/call and
// tool/result events are matched by position, not by call id. Nothing is
// removed.
func Repair(events []Event) (RepairPlan, error) {
	start := -1
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == TypeTurnStart {
			start = i
			break
		}
	}
	if start < 0 {
		return RepairPlan{}, nil
	}
	var ts TurnStart
	if err := decodeFor(events[start], &ts); err != nil {
		return RepairPlan{}, err
	}
	st, err := scanTurn(events[start+1:])
	if err != nil {
		return RepairPlan{}, err
	}
	plan := RepairPlan{LastTurn: ts.Turn}
	if st.ended {
		return plan, nil
	}
	if st.stepOpen {
		// tool/call and tool/result are logged in the model's order, so
		// the k-th of each belongs to the k-th call of the message: pair
		// them by position, which also holds for repeated or empty ids.
		for k := st.results; k < len(st.calls); k++ {
			c := st.calls[k]
			code, msg := codeToolNotStarted, msgNotStarted
			switch {
			case k < st.called && c.ID != "" && st.waiting[c.ID] != "":
				msg = msgNotApproved
			case k < st.called:
				code, msg = codeToolOutcomeUnknown, msgOutcomeUnknown
			}
			plan.Events = append(plan.Events, Pending{Type: TypeToolResult, Data: ToolResult{
				Turn: ts.Turn, Step: st.step, CallID: c.ID, Name: c.Name,
				Content: TextBlocks("Error: " + msg), IsError: true,
				Error: &ErrorInfo{Code: code, Message: msg},
			}})
		}
		plan.Events = append(plan.Events, Pending{Type: TypeStepEnd, Data: StepMark{Turn: ts.Turn, Step: st.step}})
	}
	plan.Events = append(plan.Events, Pending{Type: TypeTurnEnd, Data: TurnEnd{Turn: ts.Turn, Reason: ReasonInterrupted}})
	return plan, nil
}

// turnState is what Repair needs to know about the events of one turn.
type turnState struct {
	ended    bool
	stepOpen bool
	step     int
	calls    []llm.ToolCall // of the open step's last assistant/message
	called   int            // tool/call events after that message
	results  int            // tool/result events after that message
	// waiting maps the call ids of approvals asked after that message and
	// not decided to their request id.
	waiting map[string]string
}

func scanTurn(events []Event) (turnState, error) {
	var st turnState
	for _, e := range events {
		switch e.Type {
		case TypeTurnEnd:
			st.ended = true
		case TypeStepStart:
			var d StepMark
			if err := decodeFor(e, &d); err != nil {
				return st, err
			}
			st.step, st.stepOpen, st.calls, st.called, st.results = d.Step, true, nil, 0, 0
		case TypeStepEnd:
			st.stepOpen = false
		case TypeAssistantMessage:
			var d AssistantMessage
			if err := decodeFor(e, &d); err != nil {
				return st, err
			}
			st.calls, st.called, st.results, st.waiting = d.Message.ToolCalls, 0, 0, map[string]string{}
		case TypeApprovalAsked:
			var d ApprovalAsked
			if err := decodeFor(e, &d); err != nil {
				return st, err
			}
			if (d.Kind == "" || d.Kind == "approval") && d.ID != "" && st.waiting != nil {
				st.waiting[d.CallID] = d.ID
			}
		case TypeApprovalDecided:
			var d ApprovalDecided
			if err := decodeFor(e, &d); err != nil {
				return st, err
			}
			for call, id := range st.waiting {
				if id == d.ID {
					delete(st.waiting, call)
				}
			}
		case TypeToolCall:
			st.called++
		case TypeToolResult:
			st.results++
		}
	}
	return st, nil
}

func decodeFor(e Event, v any) error {
	if err := json.Unmarshal(e.Data, v); err != nil {
		return fmt.Errorf("event seq %d (%s): cannot decode its data: %w", e.Seq, e.Type, err)
	}
	return nil
}

// Repair closes an interrupted last turn (see the package function
// Repair), appending the synthetic events durably, and returns the plan it
// applied. On a cleanly ended log it appends nothing.
func (l *Log) Repair(ctx context.Context) (RepairPlan, error) {
	plan, err := Repair(l.Events())
	if err != nil {
		return plan, fmt.Errorf("session %s: repair: %w", l.header.ID, err)
	}
	for i, p := range plan.Events {
		if i == len(plan.Events)-1 {
			_, err = l.AppendDurable(ctx, p.Type, p.Data)
		} else {
			_, err = l.Append(ctx, p.Type, p.Data)
		}
		if err != nil {
			return plan, err
		}
	}
	return plan, nil
}
