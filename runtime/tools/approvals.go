package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Approvals is a session's one approval service. Every decision about a
// call goes through Decide — a tool that needs approval, a sandbox
// escalation its call declares, a pre-execute hook that asks or denies, a
// plan-mode refusal, an MCP project server — with one grant store, one
// set of codes (DENIED; ABORTED when the turn is cancelled while waiting)
// and one set of audit labels (the By* values in approval/decided).
// Questions (ask_user_question) and plans (exit_plan_mode) go through
// Ask, the same registry of open requests without the policy.
//
// Front ends answer through the registry: Pending lists the open
// requests, Subscribe tells of each one opened and closed, Answer answers
// one by id (the first answer wins), Join and Attend say a front end is
// there to answer. An Approvals is safe for concurrent use; its policy is
// fixed, and WithPolicy gives a view with another policy over the same
// grants and requests (a settings change between turns).
type Approvals struct {
	policy Policy
	st     *state
}

// NewApprovals returns a service with policy p ("" means PolicyAsk), no
// grants and no front end (so an ask fails closed until one joins).
func NewApprovals(p Policy) *Approvals {
	if p == "" {
		p = PolicyAsk
	}
	return &Approvals{policy: p, st: newState()}
}

// WithPolicy returns a view of a under policy p: the same grants, the same
// open requests and front ends.
func (a *Approvals) WithPolicy(p Policy) *Approvals {
	if p == "" {
		p = PolicyAsk
	}
	return &Approvals{policy: p, st: a.st}
}

// Grants returns the session grants in force, oldest first.
func (a *Approvals) Grants() []session.Grant {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	return append([]session.Grant(nil), a.st.grants...)
}

// Who decided (session.ApprovalDecided.By): the audit labels of every
// decision, whatever it was about.
const (
	ByUser         = "user"
	ByPolicy       = "policy"
	BySessionGrant = "session-grant"
	ByHook         = "hook"
	ByReadOnly     = "read-only"
)

// Decisions of questions and plans (approval/decided.decision).
const (
	decisionAnswered   = "answered"
	decisionUnanswered = "unanswered"
)

// Need is one decision to settle. Question is what the user is shown (the
// service sets its ID, Kind and Options); Grant is what an allow for the
// session covers, nil when the session cannot grant it. Remembered offers
// the allow for the session anyway but leaves remembering it to the
// caller (MCP servers are trusted per workspace, by content, in a file of
// their own), so no session grant is made or consulted. A non-empty Refuse denies
// without asking, logged as decided by RefusedBy (a hook, the read-only
// gate). Reason is why the user is asked (a hook's reason), logged with
// approval/asked. Subject names what is decided in messages to the model
// ("the call to bash"); Hint is added to a denial (what to do instead).
type Need struct {
	Question   Question
	Grant      *session.Grant
	Remembered bool
	Refuse     string
	RefusedBy  string
	Reason     string
	Subject    string
	Hint       string
}

// Decision is how a Need was settled: AnswerAllowOnce, AnswerAllowSession
// or AnswerDeny, by whom (ByUser...), and the grant made or used.
type Decision struct {
	Answer string
	By     string
	Grant  *session.Grant
}

// Decide settles n: a refusal, a session grant that covers it, policy
// never, or the user through the registry. It logs the decision
// (approval/decided, and approval/asked when the user is asked) to env's
// Sink and returns it; a denial also comes as the call's *Error (DENIED,
// or ABORTED when ctx ended while waiting).
func (a *Approvals) Decide(ctx context.Context, env *Env, n Need) (Decision, *Error) {
	q := n.Question
	subject := n.Subject
	if subject == "" {
		subject = "the call to " + q.Tool
	}
	deny := func(by, why string, e *Error) (Decision, *Error) {
		a.decided(env, q, Decision{Answer: AnswerDeny, By: by}, why, Reply{})
		if n.Hint != "" {
			e.Message += "; " + n.Hint
		}
		return Decision{Answer: AnswerDeny, By: by}, e
	}
	if n.Refuse != "" {
		return deny(n.RefusedBy, n.Refuse, Errorf(CodeDenied, "%s was refused: %s", subject, n.Refuse))
	}
	if n.Grant != nil {
		if g, ok := a.st.granted(*n.Grant); ok {
			d := Decision{Answer: AnswerAllowSession, By: BySessionGrant, Grant: &g}
			a.decided(env, q, d, "", Reply{})
			return d, nil
		}
	}
	if a.policy == PolicyNever {
		return deny(ByPolicy, "approval policy is never", Errorf(CodeDenied,
			"%s needs the user's approval and the approval policy is never, so it was denied; do without it or ask the user to rerun with --approval ask", subject))
	}
	if reply, ok := a.st.takePreanswer(q.Tool, q.Args); ok {
		return a.settle(env, q, n, reply, subject)
	}
	q.Kind = KindApproval
	q.Options = []string{AnswerAllowOnce, AnswerAllowSession, AnswerDeny}
	if n.Grant == nil && !n.Remembered {
		q.Options = []string{AnswerAllowOnce, AnswerDeny}
	}
	q.Grant = n.Grant
	reply, q, err := a.ask(ctx, env, q, n.Reason)
	switch {
	case errors.Is(err, ErrNoAnswerer):
		return deny(ByPolicy, "no answerer", Errorf(CodeDenied,
			"%s needs the user's approval and was denied: nobody can be asked in this run (no terminal); rerun with --approval never to deny such calls without asking, or run ptc interactively", subject))
	case err != nil && ctx.Err() != nil:
		a.decided(env, q, Decision{Answer: AnswerDeny, By: ByPolicy}, "cancelled", Reply{})
		return Decision{Answer: AnswerDeny, By: ByPolicy}, Errorf(CodeAborted, "%s was cancelled while waiting for approval", subject)
	case err != nil:
		return deny(ByPolicy, err.Error(), Errorf(CodeDenied, "the approval prompt for %s failed (%v), so it was denied", subject, err))
	}
	return a.settle(env, q, n, reply, subject)
}

// settle turns the user's reply into the decision, granting for the
// session when asked to.
func (a *Approvals) settle(env *Env, q Question, n Need, reply Reply, subject string) (Decision, *Error) {
	switch reply.Answer {
	case AnswerAllowOnce:
		d := Decision{Answer: AnswerAllowOnce, By: ByUser}
		a.decided(env, q, d, "", reply)
		return d, nil
	case AnswerAllowSession:
		if n.Remembered {
			d := Decision{Answer: AnswerAllowSession, By: ByUser}
			a.decided(env, q, d, "", reply)
			return d, nil
		}
		if n.Grant == nil {
			break
		}
		g := *n.Grant
		if reply.Pattern != "" && g.Mode != "" {
			if err := CheckPattern(reply.Pattern); err == nil && MatchPattern(reply.Pattern, g.Command) {
				g.Command, g.Pattern = "", reply.Pattern
			}
		}
		a.st.mu.Lock()
		a.st.addGrant(g)
		a.st.mu.Unlock()
		d := Decision{Answer: AnswerAllowSession, By: ByUser, Grant: &g}
		a.decided(env, q, d, "", reply)
		return d, nil
	}
	d := Decision{Answer: AnswerDeny, By: ByUser}
	a.decided(env, q, d, "", reply)
	e := Errorf(CodeDenied, "the user denied %s; do not retry it unchanged, ask the user what to do instead", subject)
	if n.Hint != "" {
		e.Message += "; " + n.Hint
	}
	return d, e
}

// Ask puts a question or a plan (q.Kind KindQuestion or KindPlan) to the
// user through the registry and waits for the reply. The policy does not
// apply (a question is not a permission). It logs approval/asked and
// approval/decided ("answered" with the reply, or "unanswered"). Errors:
// ErrNoAnswerer when nobody can answer, ctx's error when it ended first.
func (a *Approvals) Ask(ctx context.Context, env *Env, q Question) (Reply, error) {
	reply, q, err := a.ask(ctx, env, q, "")
	d := Decision{Answer: decisionAnswered, By: ByUser}
	why := ""
	if err != nil {
		d, why = Decision{Answer: decisionUnanswered, By: ByPolicy}, err.Error()
		if errors.Is(err, ErrNoAnswerer) {
			why = "no answerer"
		} else if ctx.Err() != nil {
			why = "cancelled"
		}
	}
	if q.ID != "" {
		a.decided(env, q, d, why, reply)
	}
	return reply, err
}

// ask opens q in the registry, logs approval/asked and waits for the
// reply. The Question returned has its ID (empty when nothing opened).
func (a *Approvals) ask(ctx context.Context, env *Env, q Question, reason string) (Reply, Question, error) {
	if q.Workspace == "" {
		q.Workspace = env.Workspace
	}
	r, q, err := a.st.openRequest(ctx, q, func(q Question) error {
		if err := emit(env, session.TypeApprovalAsked, asked(q, reason)); err != nil {
			return fmt.Errorf("the request could not be recorded: %w", err)
		}
		return nil
	})
	if err != nil {
		return Reply{}, q, err
	}
	reply, err := a.st.wait(ctx, r)
	return reply, r.q, err
}

// decided logs how q was settled (approval/decided).
func (a *Approvals) decided(env *Env, q Question, d Decision, why string, reply Reply) {
	rec := session.ApprovalDecided{ID: q.ID, CallID: q.CallID, Name: q.Tool, Decision: d.Answer, By: d.By, Reason: why,
		Grant: d.Grant, Via: reply.Via}
	if q.Kind == KindQuestion || q.Kind == KindPlan {
		rec.Answer = reply.Answer
	}
	_ = emit(env, session.TypeApprovalDecided, rec)
}

// Preanswer keeps reply as the user's answer to the next approval of
// tool with exactly args, used once instead of asking: a server restarted
// after the user answered a request its log left open gives the answer
// here, so the model's repeat of that call runs without a second ask. The
// policy still applies (never denies); the decision is logged as the
// user's when it is used.
func (a *Approvals) Preanswer(tool, args string, reply Reply) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	a.st.pre = append(a.st.pre, preanswer{tool, args, reply})
}

type preanswer struct {
	tool, args string
	reply      Reply
}

// takePreanswer consumes the preanswer for tool and args, if any.
func (st *state) takePreanswer(tool, args string) (Reply, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, p := range st.pre {
		if p.tool == tool && p.args == args {
			st.pre = append(st.pre[:i:i], st.pre[i+1:]...)
			return p.reply, true
		}
	}
	return Reply{}, false
}

// granted returns the grant that covers want, if any.
func (st *state) granted(want session.Grant) (session.Grant, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, g := range st.grants {
		if covers(g, want) {
			return g, true
		}
	}
	return session.Grant{}, false
}

// addGrant records g unless an equal grant exists; mu must be held.
func (st *state) addGrant(g session.Grant) {
	for _, h := range st.grants {
		if h == g {
			return
		}
	}
	st.grants = append(st.grants, g)
}

// emit sends an event to the Env's Sink, if there is one.
func emit(env *Env, typ string, data any) error {
	if env == nil || env.Sink == nil {
		return nil
	}
	return env.Sink.Emit(typ, data)
}
