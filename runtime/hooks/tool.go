package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// ToolHooks are the PreToolUse and PostToolUse hooks as tools.Hooks, one
// each, in order, named as Hook.Name: the tool runtime runs them for
// every call, and a refusal goes through its approval service.
func (e *Engine) ToolHooks() []tools.Hook {
	var out []tools.Hook
	for _, h := range e.set.All() {
		switch h.Event {
		case PreToolUse:
			out = append(out, tools.Hook{Name: h.Name(), Pre: func(ctx context.Context, c tools.Call) tools.Verdict { return e.pre(ctx, h, c) }})
		case PostToolUse:
			out = append(out, tools.Hook{Name: h.Name(), Post: func(ctx context.Context, c tools.Call, o tools.Outcome) tools.Outcome { return e.post(ctx, h, c, o) }})
		}
	}
	return out
}

func toolPayload(c tools.Call) map[string]any {
	return map[string]any{"tool_name": c.Name, "tool_input": json.RawMessage(c.Args), "tool_use_id": c.ID}
}

// pre decides one call: exit 2 or a block decision refuses it with the
// hook's reason; a hook that fails in any other way refuses it too.
func (e *Engine) pre(ctx context.Context, h Hook, c tools.Call) tools.Verdict {
	if !h.Matches(c.Name) {
		return tools.Verdict{}
	}
	env := tools.EnvFrom(ctx)
	r, ev, ran := e.run(ctx, env, h, toolPayload(c))
	if !ran {
		return tools.Verdict{}
	}
	v := preVerdict(h, r)
	ev.Decision, ev.Reason = map[tools.Action]string{tools.Allow: session.HookAllow, tools.Ask: session.HookAsk, tools.Deny: session.HookBlock}[v.Action], v.Reason
	if v.Args != nil {
		ev.Decision = session.HookRewrite
	}
	if v.Action == tools.Deny && (r.TimedOut || r.Err != nil || (r.ExitCode != 0 && r.ExitCode != 2)) {
		ev.Decision = session.HookFailed
	}
	emit(env, ev)
	return v
}

func preVerdict(h Hook, r Run) tools.Verdict {
	if why := failure(h, r); why != "" {
		return tools.Verdict{Action: tools.Deny, Reason: why + " (a PreToolUse hook that fails blocks the call)"}
	}
	switch r.ExitCode {
	case 0:
	case 2:
		return tools.Verdict{Action: tools.Deny, Reason: or(clean(r.Stderr), "exit status 2")}
	default:
		return tools.Verdict{Action: tools.Deny, Reason: fmt.Sprintf("hook %s failed with exit status %d: %s (a PreToolUse hook that fails blocks the call)", h.Name(), r.ExitCode, or(clean(r.Stderr), "no output"))}
	}
	a, ok, err := parseAnswer(r.Stdout)
	if err != nil {
		return tools.Verdict{Action: tools.Deny, Reason: fmt.Sprintf("hook %s: %v", h.Name(), err)}
	}
	if !ok {
		return tools.Verdict{}
	}
	v := tools.Verdict{Reason: clean(a.Reason), Args: a.UpdatedInput}
	switch strings.ToLower(a.Decision) {
	case "block", "deny":
		v.Action, v.Args = tools.Deny, nil
		v.Reason = or(v.Reason, "blocked by the hook")
	case "ask":
		v.Action = tools.Ask
	}
	return v
}

// post adds what a PostToolUse hook says for the model to the result:
// its stderr on exit 2, its additionalContext or block reason.
func (e *Engine) post(ctx context.Context, h Hook, c tools.Call, o tools.Outcome) tools.Outcome {
	if !h.Matches(c.Name) {
		return o
	}
	env := tools.EnvFrom(ctx)
	p := toolPayload(c)
	if o.Err != nil {
		p["tool_response"] = map[string]any{"error": o.Err.Message, "code": o.Err.Code}
	} else {
		p["tool_response"] = o.Value
	}
	r, ev, ran := e.run(ctx, env, h, p)
	if !ran {
		return o
	}
	note := ""
	ev.Decision = session.HookAllow
	switch why := failure(h, r); {
	case why != "":
		ev.Decision, ev.Reason = session.HookFailed, why
	case r.ExitCode == 2:
		note, ev.Decision = or(clean(r.Stderr), "exit status 2"), session.HookBlock
	case r.ExitCode != 0:
		ev.Decision, ev.Reason = session.HookFailed, clean(r.Stderr)
	default:
		a, _, err := parseAnswer(r.Stdout)
		switch {
		case err != nil:
			ev.Decision, ev.Reason = session.HookFailed, err.Error()
		case strings.EqualFold(a.Decision, "block"):
			note, ev.Decision = or(clean(a.Reason), "blocked by the hook"), session.HookBlock
		case a.AdditionalContext != "":
			note, ev.Decision = clean(a.AdditionalContext), session.HookContext
		}
	}
	if note != "" {
		ev.Reason = note
		o.Notes = append(o.Notes, "hook "+h.Name()+": "+note)
	}
	emit(env, ev)
	return o
}
