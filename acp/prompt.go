package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Prompt runs the prompt as the session's next turn, streaming it as
// updates, and answers with how the turn ended once every update is out.
func (a *Agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	c, err := a.conv(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	// The commands as they are now (a new file works at once); the
	// client knows the session by now, which it may not before
	// session/new has answered.
	c.out.push(c.commandsUpdate())
	text = c.expandCommand(text)
	from := len(c.sess.Events())
	out, err := c.sess.Run(ctx, text)
	if err == nil && out.Reason == session.ReasonCompleted {
		// A background subagent's notice starts a turn of its own: the
		// prompt ends when none is left running, as ptc run does.
		if more, ran, serr := c.sess.Settle(ctx); serr != nil {
			err = serr
		} else if ran {
			out = more
		}
	}
	// Every update of the turn goes before its answer, even when the
	// prompt was cancelled.
	_ = c.out.flush(context.WithoutCancel(ctx))
	if errors.Is(err, harness.ErrBusy) {
		return sdk.PromptResponse{}, sdk.NewInvalidRequest(map[string]any{"error": "a turn is already running in this session; cancel it first"})
	}
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	evs := c.sess.Events()
	if u, ok := c.usageUpdate(evs); ok {
		c.out.push(u)
		_ = c.out.flush(context.WithoutCancel(ctx))
	}
	resp := sdk.PromptResponse{Usage: turnUsage(evs[min(from, len(evs)):])}
	switch {
	case ctx.Err() != nil:
		// Cancelled, maybe while waiting for a subagent between turns.
		resp.StopReason = sdk.StopReasonCancelled
		return resp, nil
	}
	switch out.Reason {
	case session.ReasonCompleted:
		resp.StopReason = sdk.StopReasonEndTurn
	case session.ReasonMaxTokens:
		resp.StopReason = sdk.StopReasonMaxTokens
	case session.ReasonMaxSteps:
		resp.StopReason = sdk.StopReasonMaxTurnRequests
	case session.ReasonAborted, session.ReasonInterrupted:
		resp.StopReason = sdk.StopReasonCancelled
	case session.ReasonBlocked:
		resp.StopReason = sdk.StopReasonRefusal
	default:
		msg := out.Failure
		if msg == "" {
			msg = "the turn ended: " + out.Reason
		}
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": termsafe.Line(msg)})
	}
	return resp, nil
}

// promptMax bounds the text of one prompt (embedded resources included).
const promptMax = 4 << 20

// promptText is the prompt as the text ptc's model gets: text as given, a
// resource link as a mention of its URI, an embedded text resource in a
// fenced block under its URI. Images, audio and binary resources were not
// offered in initialize and are refused.
func promptText(blocks []sdk.ContentBlock) (string, error) {
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, fmt.Sprintf("[@%s](%s)", b.ResourceLink.Name, b.ResourceLink.Uri))
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			parts = append(parts, fmt.Sprintf("<context uri=%q>\n%s\n</context>", r.Uri, strings.TrimRight(r.Text, "\n")))
		case b.Image != nil:
			return "", errors.New("ptc takes text prompts: an image cannot be sent to its model")
		case b.Audio != nil:
			return "", errors.New("ptc takes text prompts: audio cannot be sent to its model")
		default:
			return "", errors.New("ptc takes text, resource links and embedded text resources; this prompt has another kind of content")
		}
	}
	text := strings.Join(parts, "\n\n")
	if strings.TrimSpace(text) == "" {
		return "", errors.New("the prompt is empty")
	}
	if len(text) > promptMax {
		return "", fmt.Errorf("the prompt is %d bytes; at most %d are taken", len(text), promptMax)
	}
	return text, nil
}

// turnUsage is the tokens of the turn's model requests.
func turnUsage(evs []session.Event) *sdk.Usage {
	t := session.SumUsage(evs)
	if t.Requests == 0 {
		return nil
	}
	u := t.All
	out := &sdk.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	if u.CacheHitTokens > 0 {
		out.CachedReadTokens = sdk.Ptr(u.CacheHitTokens)
	}
	if u.ReasoningTokens > 0 {
		out.ThoughtTokens = sdk.Ptr(u.ReasoningTokens)
	}
	return out
}

// usageUpdate is the context meter after the turn (the last request's
// size against the model's window) with the session's cost so far.
func (c *conv) usageUpdate(evs []session.Event) (sdk.SessionUpdate, bool) {
	var meter session.ContextMeter
	found := false
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == session.TypeContextMeter && decode(evs[i], &meter) {
			found = true
			break
		}
	}
	if !found {
		return sdk.SessionUpdate{}, false
	}
	model := c.sess.Model()
	size := meter.Window
	if size == 0 {
		size = model.ContextWindow
	}
	u := &sdk.SessionUsageUpdate{Used: meter.Tokens, Size: size}
	t := session.SumUsage(evs)
	cost := t.All.CostUSD + model.Cost(t.Unpriced)
	if cost > 0 {
		u.Cost = &sdk.Cost{Amount: cost, Currency: "USD"}
	}
	return sdk.SessionUpdate{UsageUpdate: u}, true
}

// sessionInfo is a listing record as ACP has it.
func sessionInfo(s session.Summary) sdk.SessionInfo {
	info := sdk.SessionInfo{SessionId: sdk.SessionId(s.Header.ID), Cwd: s.Settings.Workspace}
	if s.Title != "" {
		info.Title = sdk.Ptr(termsafe.Line(s.Title))
	}
	if s.UpdatedAt > 0 {
		info.UpdatedAt = sdk.Ptr(time.UnixMilli(s.UpdatedAt).UTC().Format(time.RFC3339))
	}
	return info
}
