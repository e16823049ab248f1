package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Names of the subagent tools.
const (
	SubagentName    = "subagent"
	AgentOutputName = "agent_output"
	AgentListName   = "agent_list"
	AgentStopName   = "agent_stop"
)

const subagentInSchema = `{
	"type": "object",
	"properties": {
		"description": {"type": "string", "description": "Three to five words."},
		"prompt": {"type": "string", "description": "The whole task: the subagent sees nothing else."},
		"preset": {"type": "string"},
		"run_in_background": {"type": "boolean", "description": "Return at once; you are told when it ends."}
	},
	"required": ["description", "prompt"],
	"additionalProperties": false
}`

const childInfoSchema = `{
	"type": "object",
	"properties": {
		"agent_id": {"type": "string"},
		"description": {"type": "string"},
		"status": {"type": "string", "enum": ["running", "completed", "failed", "stopped", "interrupted"]},
		"text": {"type": "string", "description": "The final answer (partial when failed)."},
		"failure": {"type": "string"}
	},
	"required": ["agent_id", "description", "status"],
	"additionalProperties": false
}`

const agentOutputSchema = `{
	"type": "object",
	"properties": {"agent_id": {"type": "string"}, "wait": {"type": "boolean", "description": "Wait until it ends."}},
	"required": ["agent_id"],
	"additionalProperties": false
}`

const agentStopSchema = `{
	"type": "object",
	"properties": {"agent_id": {"type": "string"}},
	"required": ["agent_id"],
	"additionalProperties": false
}`

// AgentRef names a child (agent_output, agent_stop).
type AgentRef struct {
	AgentID string `json:"agent_id"`
	Wait    bool   `json:"wait,omitempty"`
}

// AgentList is agent_list's value.
type AgentList struct {
	Agents []ChildInfo `json:"agents"`
}

// listSchema is agent_list's output: each child without its answer.
const listSchema = `{"type": "object", "properties": {"agents": {"type": "array", "items": {
	"type": "object",
	"properties": {"agent_id": {"type": "string"}, "description": {"type": "string"}, "status": {"type": "string"}, "failure": {"type": "string"}},
	"required": ["agent_id", "description", "status"], "additionalProperties": false}}},
	"required": ["agents"], "additionalProperties": false}`

const (
	subagentDoc = "Delegate a self-contained task to a fresh session with this workspace and sandbox; only its final answer comes back. Independent ones can run at once (Promise.all in a program). At most 3 deep."
	outputDoc   = "A subagent's status and, once it ended, its answer."
	listDoc     = "The subagents this session started."
	stopDoc     = "Stop a running subagent."
)

func childSpec(name, desc, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: desc, InputSchema: json.RawMessage(in), OutputSchema: json.RawMessage(out)}
}

// errNoSession is the failure of a subagent tool built without a session.
var errNoSession = tools.Errorf(tools.CodeToolFailed, "subagents need a running session (not available in ptc exec)")

// subagentTool is the subagent tool of the session whose children c are.
// It is concurrency-safe: every child is its own session.
func subagentTool(c *children) tools.Tool {
	return tools.New(childSpec(SubagentName, subagentDoc, subagentInSchema, childInfoSchema),
		func(ctx context.Context, call tools.Call, in SubagentInput) (ChildInfo, error) {
			if c == nil {
				return ChildInfo{}, errNoSession
			}
			if in.Background {
				return c.background(ctx, call, in)
			}
			return c.foreground(ctx, call, in)
		}, tools.Safe(), tools.WithRenderer(renderChild))
}

// renderChild shows a finished child's answer alone, a running one as a
// line saying how to follow it.
func renderChild(v any) string {
	info, ok := v.(ChildInfo)
	switch {
	case !ok:
		return tools.RenderValue(v)
	case info.Status == childRunning:
		return fmt.Sprintf("Subagent %s (%s) is running in the background; you will be told when it finishes (agent_output {\"agent_id\": %q}).", info.AgentID, info.Description, info.AgentID)
	case info.Status != "completed":
		s := fmt.Sprintf("Subagent %s (%s) %s", info.AgentID, info.Description, info.Status)
		if info.Failure != "" {
			s += ": " + info.Failure
		}
		if info.Text != "" {
			s += "\nIts partial answer:\n" + info.Text
		}
		return s
	case strings.TrimSpace(info.Text) == "":
		return "(the subagent finished without an answer)"
	}
	return info.Text
}

// agentTools are agent_output, agent_list and agent_stop over c.
func agentTools(c *children) map[string]tools.Tool {
	return map[string]tools.Tool{
		AgentOutputName: tools.New(childSpec(AgentOutputName, outputDoc, agentOutputSchema, childInfoSchema),
			func(ctx context.Context, _ tools.Call, in AgentRef) (ChildInfo, error) {
				if c == nil {
					return ChildInfo{}, errNoSession
				}
				ch, err := c.lookup(in.AgentID)
				if err != nil {
					return ChildInfo{}, err
				}
				if in.Wait {
					select {
					case <-ch.finished:
					case <-ctx.Done():
						return ChildInfo{}, tools.Errorf(tools.CodeAborted, "stopped waiting for subagent %s", in.AgentID)
					}
				}
				return c.info(ch), nil
			}, tools.Safe(), tools.WithRenderer(renderChild)),
		AgentListName: tools.New(childSpec(AgentListName, listDoc, `{"type":"object","properties":{},"additionalProperties":false}`, listSchema),
			func(context.Context, tools.Call, struct{}) (AgentList, error) {
				if c == nil {
					return AgentList{Agents: []ChildInfo{}}, nil
				}
				return c.list(), nil
			}, tools.Safe(), tools.WithRenderer(renderList)),
		AgentStopName: tools.New(childSpec(AgentStopName, stopDoc, agentStopSchema, childInfoSchema),
			func(ctx context.Context, _ tools.Call, in AgentRef) (ChildInfo, error) {
				if c == nil {
					return ChildInfo{}, errNoSession
				}
				return c.stop(ctx, in.AgentID)
			}, tools.WithRenderer(renderChild)),
	}
}

func (c *children) list() AgentList {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := AgentList{Agents: []ChildInfo{}}
	for _, id := range c.order {
		info := c.byID[id].info()
		info.Text = "" // the list is an overview; agent_output has the answers
		out.Agents = append(out.Agents, info)
	}
	return out
}

// stop cancels a running child and waits until it has ended.
func (c *children) stop(ctx context.Context, id string) (ChildInfo, error) {
	ch, err := c.lookup(id)
	if err != nil {
		return ChildInfo{}, err
	}
	c.mu.Lock()
	cancel := ch.cancel
	c.mu.Unlock()
	if cancel == nil {
		return c.info(ch), nil // already ended
	}
	cancel()
	select {
	case <-ch.finished:
	case <-ctx.Done():
		return ChildInfo{}, errors.New("stopped waiting for the subagent to stop")
	}
	return c.info(ch), nil
}

func renderList(v any) string {
	l, ok := v.(AgentList)
	if !ok {
		return tools.RenderValue(v)
	}
	if len(l.Agents) == 0 {
		return "This session has started no subagents."
	}
	var b strings.Builder
	for _, a := range l.Agents {
		fmt.Fprintf(&b, "%s  %-11s %s", a.AgentID, a.Status, a.Description)
		if a.Background {
			b.WriteString(" (background)")
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}
