package agent

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// step asks the model (with retries) and runs the tool calls it asked for.
func (a *Agent) step(ctx context.Context, t *turnState, step int) (stepEnd, error) {
	resp, end, err := a.attempts(ctx, t, step)
	if err != nil || resp == nil {
		return end, err
	}
	t.out.Usage.Add(resp.Usage)
	msg := resp.Message
	msg.Role = llm.RoleAssistant
	if end.reason == session.ReasonAborted || resp.Finish == llm.FinishMaxTokens {
		// A cut-off answer keeps its text but not its tool calls: they
		// may be incomplete and must never run.
		msg.ToolCalls = nil
	}
	if end.reason == session.ReasonAborted && msg.Content == "" && msg.Reasoning == "" {
		return end, nil
	}
	data := session.AssistantMessage{
		Turn: t.out.Turn, Step: step, Message: msg, Finish: resp.Finish,
		Usage: resp.Usage, Interrupted: end.reason == session.ReasonAborted,
	}
	if _, err := a.append(ctx, session.TypeAssistantMessage, data, true); err != nil {
		return end, err
	}
	if msg.Content != "" {
		t.out.Text = msg.Content
	}
	switch {
	case end.reason != "":
		return end, nil
	case resp.Finish == llm.FinishMaxTokens:
		return stepEnd{reason: session.ReasonMaxTokens}, nil
	case len(msg.ToolCalls) == 0:
		return stepEnd{reason: session.ReasonCompleted}, nil
	}
	if err := a.runTools(ctx, t.out.Turn, step, msg.ToolCalls); err != nil {
		return stepEnd{}, err
	}
	if ctx.Err() != nil {
		return aborted(ctx), nil
	}
	return stepEnd{}, nil
}
