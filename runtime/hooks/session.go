package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Prompt runs the UserPromptSubmit hooks on a prompt the user typed. Exit
// 2 (or a block decision) refuses it: the error wraps ErrRefused with the
// hook's reason. Context a hook adds (additionalContext, or plain stdout)
// is appended to the prompt, marked as the hook's. A hook that fails
// otherwise is logged and passed over.
func (e *Engine) Prompt(ctx context.Context, env *tools.Env, prompt string) (string, error) {
	var extra []string
	for _, h := range e.set.For(UserPromptSubmit, "") {
		r, ev, ran := e.run(ctx, env, h, map[string]any{"prompt": prompt})
		if !ran {
			continue
		}
		refused, context := "", ""
		switch why := failure(h, r); {
		case why != "":
			ev.Decision, ev.Reason = session.HookFailed, why
		case r.ExitCode == 2:
			refused = or(clean(r.Stderr), "exit status 2")
		case r.ExitCode != 0:
			ev.Decision, ev.Reason = session.HookFailed, clean(r.Stderr)
		default:
			a, ok, err := parseAnswer(r.Stdout)
			switch {
			case err != nil:
				ev.Decision, ev.Reason = session.HookFailed, err.Error()
			case ok && strings.EqualFold(a.Decision, "block"):
				refused = or(clean(a.Reason), "blocked by the hook")
			case ok:
				context = clean(a.AdditionalContext)
			default:
				context = clean(r.Stdout)
			}
		}
		switch {
		case refused != "":
			ev.Decision, ev.Reason = session.HookBlock, refused
			emit(env, ev)
			return prompt, fmt.Errorf("%w %s: %s", ErrRefused, h.Name(), refused)
		case context != "":
			ev.Decision, ev.Reason = session.HookContext, context
			extra = append(extra, fmt.Sprintf("<hook_context hook=%q>\n%s\n</hook_context>", h.Name(), context))
		case ev.Decision == "":
			ev.Decision = session.HookAllow
		}
		emit(env, ev)
	}
	if len(extra) == 0 {
		return prompt, nil
	}
	return prompt + "\n\n" + strings.Join(extra, "\n"), nil
}

// Notify runs the hooks of a notification event (Stop, SessionStart)
// with fields added to the payload; they decide nothing, and every run
// is logged.
func (e *Engine) Notify(ctx context.Context, env *tools.Env, ev Event, fields map[string]any) {
	for _, h := range e.set.For(ev, "") {
		p := map[string]any{}
		for k, v := range fields {
			p[k] = v
		}
		r, rec, ran := e.run(ctx, env, h, p)
		if !ran {
			continue
		}
		rec.Decision = session.HookAllow
		if why := failure(h, r); why != "" {
			rec.Decision, rec.Reason = session.HookFailed, why
		} else if r.ExitCode != 0 {
			rec.Decision, rec.Reason = session.HookFailed, fmt.Sprintf("exit status %d: %s", r.ExitCode, clean(r.Stderr))
		}
		emit(env, rec)
	}
}
