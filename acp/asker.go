package acp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// permissioner is the client side of session/request_permission (the
// SDK's AgentSideConnection).
type permissioner interface {
	RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
}

// asker is a session's tools.Answerer: each approval, plan
// (exit_plan_mode) and question (ask_user_question) with choices becomes
// a session/request_permission on the call it is about. A client that
// cannot answer (an error, no such method) means no user: the approval
// is denied, the question fails (tools.ErrNoAnswerer).
type asker struct {
	conv   *conv
	client permissioner
}

// Option ids of a permission request.
const (
	optAllowOnce    = "allow-once"
	optAllowSession = "allow-session"
	optReject       = "reject"
	optApprovePlan  = "approve-plan"
	optKeepPlanning = "keep-planning"
)

// Ask puts q to the client and waits for its answer.
func (a asker) Ask(ctx context.Context, q tools.Question) (tools.Reply, error) {
	c := a.conv
	// The call the request is about must be on the client first.
	if err := c.out.flush(ctx); err != nil {
		return tools.Reply{}, err
	}
	req, answers, ok := a.request(q)
	if !ok {
		return tools.Reply{}, tools.ErrNoAnswerer
	}
	resp, err := a.client.RequestPermission(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Reply{}, ctx.Err()
		}
		c.logf("session %s: the client did not answer a permission request: %v", c.id, err)
		return tools.Reply{}, tools.ErrNoAnswerer
	}
	if sel := resp.Outcome.Selected; sel != nil {
		if ans, ok := answers[string(sel.OptionId)]; ok {
			if ans == "" {
				return tools.Reply{}, tools.ErrNoAnswerer
			}
			return tools.Reply{Answer: ans, Via: "acp"}, nil
		}
		c.logf("session %s: the client chose an option it was not offered: %q", c.id, sel.OptionId)
	}
	// Cancelled (the turn is being cancelled) or an unknown option: the
	// safe answer.
	switch q.Kind {
	case tools.KindApproval:
		return tools.Reply{Answer: tools.AnswerDeny, Via: "acp"}, nil
	case tools.KindPlan:
		return tools.Reply{Answer: tools.AnswerKeepPlanning, Via: "acp"}, nil
	}
	return tools.Reply{}, tools.ErrNoAnswerer
}

// request builds the permission request for q and what each option id
// answers ("" for none: a question skipped). ok is false for a question
// without choices, which this protocol cannot put.
func (a asker) request(q tools.Question) (sdk.RequestPermissionRequest, map[string]string, bool) {
	c := a.conv
	id, info, known := c.tr.lookup(q.CallID)
	if !known {
		id = q.CallID
		if id == "" {
			id = "request-" + q.ID
		}
		info = callInfo{name: q.Tool, title: titleOf(q.Tool, parseArgs(q.Args)), kind: kindOf(q.Tool), input: rawInput(q.Args, parseArgs(q.Args))}
	}
	tc := sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(id), Status: sdk.Ptr(sdk.ToolCallStatusPending), Title: sdk.Ptr(info.title)}
	if !known {
		tc.Kind, tc.RawInput = sdk.Ptr(info.kind), info.input
	}
	var opts []sdk.PermissionOption
	answers := map[string]string{}
	add := func(optID, name string, kind sdk.PermissionOptionKind, answer string) {
		opts = append(opts, sdk.PermissionOption{OptionId: sdk.PermissionOptionId(optID), Name: name, Kind: kind})
		answers[optID] = answer
	}
	var content []sdk.ToolCallContent
	if info.diff != nil {
		content = append(content, *info.diff)
	}
	switch q.Kind {
	case tools.KindApproval:
		set := c.sess.Settings()
		title, fields := tools.DescribeApproval(q, set.Workspace, set.Sandbox)
		content = append(content, textContent(describe(title, fields)))
		add(optAllowOnce, "Allow once", sdk.PermissionOptionKindAllowOnce, tools.AnswerAllowOnce)
		if q.Grant != nil {
			add(optAllowSession, "Allow for this session", sdk.PermissionOptionKindAllowAlways, tools.AnswerAllowSession)
		}
		add(optReject, "Reject", sdk.PermissionOptionKindRejectOnce, tools.AnswerDeny)
	case tools.KindPlan:
		title, plan := tools.DescribePlan(q)
		content = append(content, textContent(title+"\n\n"+plan))
		add(optApprovePlan, "Approve the plan and start", sdk.PermissionOptionKindAllowOnce, tools.AnswerApprovePlan)
		add(optKeepPlanning, "Keep planning", sdk.PermissionOptionKindRejectOnce, tools.AnswerKeepPlanning)
	default:
		if len(q.Options) == 0 {
			return sdk.RequestPermissionRequest{}, nil, false
		}
		content = append(content, textContent("The agent asks: "+termsafe.String(q.Text)))
		for i, o := range q.Options {
			add(fmt.Sprintf("option-%d", i+1), termsafe.Clip(o, titleMax), sdk.PermissionOptionKindAllowOnce, o)
		}
		add(optReject, "Skip the question", sdk.PermissionOptionKindRejectOnce, "")
	}
	tc.Content = content
	return sdk.RequestPermissionRequest{SessionId: sdk.SessionId(c.id), ToolCall: tc, Options: opts}, answers, true
}

// describe is an approval's dialog as text: its title, then one line per
// field (already sanitised by tools.DescribeApproval).
func describe(title string, fields []tools.Field) string {
	var b strings.Builder
	b.WriteString(title)
	for _, f := range fields {
		fmt.Fprintf(&b, "\n%s: %s", f.Label, f.Value)
	}
	return b.String()
}

var _ tools.Answerer = asker{}
