package tools

import (
	"context"
	"errors"
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

// Who decided an approval (session.ApprovalDecided.By).
const (
	byUser   = "user"
	byPolicy = "policy"
	byGrant  = "session-grant"
	byHook   = "hook"
)

// noAnswerer is the DENIED result of a call that needs approval in a run
// where nobody can answer.
func noAnswerer(name string) *Error {
	return Errorf(CodeDenied, "the call to %s needs the user's approval and was denied: there is no terminal to ask; rerun with --approval never to deny such calls without asking, or run ptc interactively", name)
}

// admit runs the pre-execute hooks and, when the tool or a hook asks for
// it, the approval step. A non-nil *Error is the call's DENIED (or
// ABORTED) result.
func (r *Runner) admit(ctx context.Context, env *Env, e *entry, call Call, hooks []Hook) *Error {
	ask, reason := false, ""
	for _, h := range hooks {
		if h.Pre == nil {
			continue
		}
		switch v := h.Pre(ctx, call); v.Action {
		case Deny:
			decided(env, call, AnswerDeny, byHook, v.Reason)
			why := v.Reason
			if why == "" {
				why = "no reason given"
			}
			return Errorf(CodeDenied, "the call to %s was denied by policy hook %s: %s", call.Name, hookName(h), why)
		case Ask:
			ask = true
			if reason == "" {
				reason = v.Reason
			}
		}
	}
	if !ask && (e.approver == nil || !e.approver.RequiresApproval(call.Args)) {
		return nil
	}
	return r.approve(ctx, env, call, reason)
}

func hookName(h Hook) string {
	if h.Name == "" {
		return "(unnamed)"
	}
	return h.Name
}

// approve settles one ask: session grant, policy never, or the Answerer.
func (r *Runner) approve(ctx context.Context, env *Env, call Call, reason string) *Error {
	if r.granted(call.Name) {
		decided(env, call, AnswerAllowSession, byGrant, "")
		return nil
	}
	if r.cfg.Policy == PolicyNever {
		decided(env, call, AnswerDeny, byPolicy, "approval policy is never")
		return Errorf(CodeDenied, "%s needs the user's approval and the approval policy is never, so the call was denied; do without it or ask the user to rerun with --approval ask", call.Name)
	}
	if err := emit(env, session.TypeApprovalAsked, session.ApprovalAsked{
		CallID: call.ID, Name: call.Name, Arguments: string(call.Args), Reason: reason}); err != nil {
		return Errorf(CodeDenied, "the approval request for %s could not be recorded (%v), so the call was denied", call.Name, err)
	}
	if env.Answerer == nil {
		decided(env, call, AnswerDeny, byPolicy, "no answerer")
		return noAnswerer(call.Name)
	}
	text := fmt.Sprintf("Allow %s to run with these arguments?", call.Name)
	if reason != "" {
		text += " (" + reason + ")"
	}
	answer, err := env.Answerer.Ask(ctx, Question{
		Kind: KindApproval, CallID: call.ID, Tool: call.Name, Args: string(call.Args), Text: text,
		Options: []string{AnswerAllowOnce, AnswerAllowSession, AnswerDeny},
	})
	switch {
	case errors.Is(err, ErrNoAnswerer):
		decided(env, call, AnswerDeny, byPolicy, "no answerer")
		return noAnswerer(call.Name)
	case err != nil && ctx.Err() != nil:
		decided(env, call, AnswerDeny, byPolicy, "cancelled")
		return Errorf(CodeAborted, "the call to %s was cancelled while waiting for approval", call.Name)
	case err != nil:
		decided(env, call, AnswerDeny, byPolicy, err.Error())
		return Errorf(CodeDenied, "the approval prompt for %s failed (%v), so the call was denied", call.Name, err)
	}
	switch answer {
	case AnswerAllowOnce:
		decided(env, call, answer, byUser, "")
		return nil
	case AnswerAllowSession:
		r.grant(call.Name)
		decided(env, call, answer, byUser, "")
		return nil
	}
	decided(env, call, AnswerDeny, byUser, "")
	return Errorf(CodeDenied, "the user denied the call to %s; do not retry it unchanged, ask the user what to do instead", call.Name)
}

// decided logs how an approval was settled (approval/decided).
func decided(env *Env, call Call, decision, by, why string) {
	emit(env, session.TypeApprovalDecided, session.ApprovalDecided{
		CallID: call.ID, Name: call.Name, Decision: decision, By: by, Reason: why})
}

func (r *Runner) granted(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.grants[name]
}

func (r *Runner) grant(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.grants[name] = true
}

// emit sends an event to the Env's Sink, if there is one.
func emit(env *Env, typ string, data any) error {
	if env.Sink == nil {
		return nil
	}
	return env.Sink.Emit(typ, data)
}
