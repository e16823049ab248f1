package serve

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Pending is a request waiting for a person: an approval, a question
// (ask_user_question) or a plan (exit_plan_mode), as the session's
// approval service (tools.Approvals) holds it, under its id. Title and
// Fields are what the TUI's dialog shows for it (tools.DescribeApproval),
// already sanitised; the rest is the request as the tool put it.
type Pending struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind"`
	Tool      string        `json:"tool"`
	CallID    string        `json:"call_id"`
	Arguments string        `json:"arguments,omitempty"`
	Text      string        `json:"text,omitempty"`
	Options   []string      `json:"options,omitempty"`
	Title     string        `json:"title"`
	Fields    []tools.Field `json:"fields,omitempty"`
	// Stale marks a request asked before ptc serve restarted: nothing
	// waits on it in this process, and answering it resumes the session.
	Stale bool `json:"stale,omitempty"`
}

// describe fills a Pending from a question, with the session's workspace
// and sandbox mode for the approval's fields.
func describe(id string, q tools.Question, workspace, mode string) Pending {
	p := Pending{ID: id, Kind: q.Kind, Tool: q.Tool, CallID: q.CallID, Arguments: q.Args, Text: q.Text, Options: q.Options}
	switch q.Kind {
	case tools.KindApproval:
		p.Title, p.Fields = tools.DescribeApproval(q, workspace, mode)
	case tools.KindPlan:
		p.Title, p.Text = tools.DescribePlan(q)
	default:
		p.Kind, p.Title = tools.KindQuestion, "The agent asks"
	}
	return p
}

// Answer bodies: a decision for an approval, an answer for a question.
type answerBody struct {
	Decision string  `json:"decision,omitempty"`
	Answer   *string `json:"answer,omitempty"`
}

// normalAnswer turns a client's answer into the answer the tools expect
// for a request of kind: once/session/deny for an approval (and for a
// plan: once or session approves it, deny keeps planning); free text for
// a question or as a plan's feedback. Kind "" is a request no longer
// open, whose answer can only lose.
func normalAnswer(kind string, b answerBody) (string, error) {
	if b.Answer != nil && b.Decision != "" {
		return "", errors.New("give either decision or answer, not both")
	}
	if b.Answer != nil {
		text := strings.TrimSpace(*b.Answer)
		if kind == tools.KindApproval {
			return "", errors.New(`an approval takes a decision: "once", "session" or "deny"`)
		}
		// A question's answer, a plan's feedback, or (kind "") the
		// answer to a request already closed, which only learns it lost.
		if text == "" {
			return "", errors.New("the answer is empty")
		}
		return text, nil
	}
	var d string
	switch b.Decision {
	case "once":
		d = tools.AnswerAllowOnce
	case "session":
		d = tools.AnswerAllowSession
	case "deny":
		d = tools.AnswerDeny
	default:
		return "", fmt.Errorf(`decision must be "once", "session" or "deny", not %s`, quote(b.Decision))
	}
	switch kind {
	case tools.KindApproval, "":
		return d, nil
	case tools.KindPlan:
		if d == tools.AnswerDeny {
			return tools.AnswerKeepPlanning, nil
		}
		return tools.AnswerApprovePlan, nil
	}
	return "", errors.New("a question takes an answer, not a decision")
}
