package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Pending is a request waiting for a person: an approval, a question
// (ask_user_question) or a plan (exit_plan_mode). Title and Fields are
// what the TUI's dialog shows for it (tools.DescribeApproval), already
// sanitised; the rest is the request as the tool put it.
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

// Errors of answering a pending request.
var (
	errUnknownPending = errors.New("no such pending request")
)

// answeredError says a request was already answered, and with what.
type answeredError struct{ answer string }

func (e answeredError) Error() string {
	return fmt.Sprintf("this request was already answered (%s)", e.answer)
}

// asks is one session's answerer while ptc serve runs it: every question
// the tools put (tools.Answerer) waits here under a stable id until some
// client answers it by id. The first answer wins; a later one learns it
// came too late and what won. changed is called whenever the set of open
// requests changes, so stream clients can look again.
type asks struct {
	changed func()
	// sync makes the session's log durable; set once the session is
	// open. A request is on disk before anyone is asked, so it survives
	// the process (see Server.Close).
	sync func()

	mu       sync.Mutex
	open     []*ask
	answered map[string]string
	uses     map[string]int // per call id, for unique ids
	carried  []carried
}

type ask struct {
	id string
	q  tools.Question
	ch chan string
}

// carried is an answer given to a request that died with an earlier
// process: the resumed session's first request of the same tool with the
// same arguments takes it without asking again, once.
type carried struct {
	q      tools.Question
	answer string
}

func newAsks(changed func()) *asks {
	if changed == nil {
		changed = func() {}
	}
	return &asks{changed: changed, answered: map[string]string{}, uses: map[string]int{}}
}

// maxAnswered bounds the answers remembered to tell late clients.
const maxAnswered = 1024

// Ask implements tools.Answerer: it waits until a client answers or ctx
// ends (the turn is cancelled).
func (a *asks) Ask(ctx context.Context, q tools.Question) (string, error) {
	a.mu.Lock()
	for i, c := range a.carried {
		if c.q.Kind == q.Kind && c.q.Tool == q.Tool && c.q.Args == q.Args {
			a.carried = append(a.carried[:i], a.carried[i+1:]...)
			a.mu.Unlock()
			return c.answer, nil
		}
	}
	base := q.CallID
	if base == "" {
		base = "ask"
	}
	id := base
	if n := a.uses[base]; n > 0 {
		id = fmt.Sprintf("%s#%d", base, n+1)
	}
	a.uses[base]++
	k := &ask{id: id, q: q, ch: make(chan string, 1)}
	a.open = append(a.open, k)
	sync := a.sync
	a.mu.Unlock()
	if sync != nil {
		sync()
	}
	a.changed()
	select {
	case ans := <-k.ch:
		return ans, nil
	case <-ctx.Done():
		a.mu.Lock()
		a.drop(k)
		a.mu.Unlock()
		a.changed()
		return "", ctx.Err()
	}
}

// drop removes k from the open requests. a.mu must be held.
func (a *asks) drop(k *ask) bool {
	for i, o := range a.open {
		if o == k {
			a.open = append(a.open[:i], a.open[i+1:]...)
			return true
		}
	}
	return false
}

// Answer settles request id with answer (see normalAnswer). It returns
// errUnknownPending or an answeredError.
func (a *asks) Answer(id, answer string) error {
	a.mu.Lock()
	if won, ok := a.answered[id]; ok {
		a.mu.Unlock()
		return answeredError{won}
	}
	var k *ask
	for _, o := range a.open {
		if o.id == id {
			k = o
		}
	}
	if k == nil {
		a.mu.Unlock()
		return errUnknownPending
	}
	a.drop(k)
	if len(a.answered) >= maxAnswered {
		clear(a.answered)
	}
	a.answered[id] = answer
	k.ch <- answer
	a.mu.Unlock()
	a.changed()
	return nil
}

// waiting reports whether a request is open.
func (a *asks) waiting() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.open) > 0
}

// questionOf returns the open request id's question.
func (a *asks) questionOf(id string) (tools.Question, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, o := range a.open {
		if o.id == id {
			return o.q, true
		}
	}
	return tools.Question{}, false
}

// list returns the open requests, oldest first.
func (a *asks) list(workspace, mode string) []Pending {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Pending, 0, len(a.open))
	for _, o := range a.open {
		out = append(out, describe(o.id, o.q, workspace, mode))
	}
	return out
}

// carry makes answer the answer to the next request like q.
func (a *asks) carry(q tools.Question, answer string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.carried = append(a.carried, carried{q, answer})
}

// Answer bodies: a decision for an approval, an answer for a question.
type answerBody struct {
	Decision string  `json:"decision,omitempty"`
	Answer   *string `json:"answer,omitempty"`
}

// normalAnswer turns a client's answer into the answer the tools expect
// for a request of kind: once/session/deny for an approval (and for a
// plan: once or session approves it, deny keeps planning); free text for
// a question or as a plan's feedback.
func normalAnswer(kind string, b answerBody) (string, error) {
	if b.Answer != nil && b.Decision != "" {
		return "", errors.New("give either decision or answer, not both")
	}
	if b.Answer != nil {
		text := strings.TrimSpace(*b.Answer)
		if kind == tools.KindApproval {
			return "", errors.New(`an approval takes a decision: "once", "session" or "deny"`)
		}
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
	case tools.KindApproval:
		return d, nil
	case tools.KindPlan:
		if d == tools.AnswerDeny {
			return tools.AnswerKeepPlanning, nil
		}
		return tools.AnswerApprovePlan, nil
	}
	return "", errors.New("a question takes an answer, not a decision")
}
