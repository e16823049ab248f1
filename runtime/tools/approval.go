package tools

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Policy is the approval policy (DESIGN.md §5).
type Policy string

// Approval policies.
const (
	// PolicyAsk puts every call that needs approval to the Answerer.
	PolicyAsk Policy = "ask"
	// PolicyNever denies every call that needs approval, without asking.
	PolicyNever Policy = "never"
)

// ParsePolicy accepts "ask" or "never".
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyAsk, PolicyNever:
		return p, nil
	}
	return "", fmt.Errorf("unknown approval policy %q: use ask or never", s)
}

// admit is the pipeline's one decision step: the read-only gate, the
// pre-execute hooks, the tool's own need for approval and the escalation
// its call declares all become one Need for the session's Approvals. It
// returns the context the body runs with (carrying an approved
// escalation, see Approved) and the call (its arguments as a hook
// rewrote them), or the call's DENIED / ABORTED / INVALID_ARGS failure.
func (r *Runner) admit(ctx context.Context, env *Env, e *entry, call Call, hooks []Hook) (context.Context, Call, *Error) {
	svc := env.Approvals
	n := Need{Question: Question{CallID: call.ID, Tool: call.Name, Args: string(call.Args), Mode: env.mode()}}
	if why := readOnly(env, e, call); why != "" {
		n.Refuse, n.RefusedBy, n.Subject = why, ByReadOnly, call.Name
		_, err := svc.Decide(ctx, env, n)
		return ctx, call, err
	}
	ask := false
	for _, h := range hooks {
		if h.Pre == nil {
			continue
		}
		v := h.Pre(ctx, call)
		if v.Action != Deny && v.Args != nil {
			args, parsed, perr := parseArgs(call.Name, v.Args)
			if perr == nil {
				perr = e.validateInput(parsed)
			}
			if perr != nil {
				return ctx, call, Errorf(CodeInvalidArgs, "hook %s rewrote the arguments of %s into unusable ones: %s", hookName(h), call.Name, perr.Message)
			}
			call.Args, call.Raw, n.Question.Args = args, string(args), string(args)
		}
		switch v.Action {
		case Deny:
			why := v.Reason
			if why == "" {
				why = "no reason given"
			}
			n.Refuse, n.RefusedBy = "denied by policy hook "+hookName(h)+": "+why, ByHook
			_, err := svc.Decide(ctx, env, n)
			return ctx, call, err
		case Ask:
			ask = true
			if n.Reason == "" {
				n.Reason = v.Reason
			}
		}
	}
	if why := readOnly(env, e, call); why != "" { // a rewrite may have made it a write
		n.Refuse, n.RefusedBy, n.Subject = why, ByReadOnly, call.Name
		_, err := svc.Decide(ctx, env, n)
		return ctx, call, err
	}
	esc, err := escalation(ctx, e, call)
	if err != nil {
		return ctx, call, err
	}
	switch {
	case esc != nil:
		n.Question.Mode, n.Question.Current, n.Question.Unconfined = esc.Mode, esc.Current, esc.Unconfined
		n.Question.Justification = esc.Justification
		n.Question.Text = fmt.Sprintf("Allow %s to run in %s instead of %s?", call.Name, esc.Mode, esc.Current)
		n.Grant = escalationGrant(call.Name, esc)
		n.Subject = fmt.Sprintf("running %s in %s", call.Name, esc.Mode)
		n.Hint = "do the task within " + esc.Current
	case ask || e.approver != nil && e.approver.RequiresApproval(call.Args):
		n.Question.Text = fmt.Sprintf("Allow %s to run with these arguments?", call.Name)
		n.Grant = &session.Grant{Tool: call.Name}
	default:
		return ctx, call, nil
	}
	if n.Reason != "" {
		n.Question.Text += " (" + n.Reason + ")"
	}
	if _, err := svc.Decide(ctx, env, n); err != nil {
		return ctx, call, err
	}
	if esc != nil {
		ctx = withApproved(ctx, *esc)
	}
	return ctx, call, nil
}

// escalation asks the tool what the call asks beyond the sandbox.
func escalation(ctx context.Context, e *entry, call Call) (*Escalation, *Error) {
	if e.escalator == nil {
		return nil, nil
	}
	esc, err := e.escalator.Escalation(ctx, call)
	if err != nil {
		return nil, asToolError(err)
	}
	return esc, nil
}

func hookName(h Hook) string {
	if h.Name == "" {
		return "(unnamed)"
	}
	return h.Name
}
