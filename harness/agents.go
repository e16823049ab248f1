package harness

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

// children are the toolbox.Agents the subagent tools drive.
var _ toolbox.Agents = (*children)(nil)

// Start runs a child for the subagent tool: in the background when asked,
// else until it ends.
func (c *children) Start(ctx context.Context, call tools.Call, in toolbox.SubagentInput) (toolbox.ChildInfo, error) {
	if in.Background {
		return c.background(ctx, call, in)
	}
	return c.foreground(ctx, call, in)
}

// Output is agent_output: the child's state, once it has ended if wait.
func (c *children) Output(ctx context.Context, id string, wait bool) (toolbox.ChildInfo, error) {
	ch, err := c.lookup(id)
	if err != nil {
		return toolbox.ChildInfo{}, err
	}
	if wait {
		select {
		case <-ch.finished:
		case <-ctx.Done():
			return toolbox.ChildInfo{}, tools.Errorf(tools.CodeAborted, "stopped waiting for subagent %s", id)
		}
	}
	return c.info(ch), nil
}

// List is agent_list: every child, without its answer.
func (c *children) List() toolbox.AgentListOutput {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := toolbox.AgentListOutput{Agents: []toolbox.AgentSummary{}}
	for _, id := range c.order {
		info := c.byID[id].info()
		out.Agents = append(out.Agents, toolbox.AgentSummary{AgentID: info.AgentID, Description: info.Description,
			Status: info.Status, Background: info.Background, Failure: info.Failure})
	}
	return out
}

// Stop cancels a running child and waits until it has ended.
func (c *children) Stop(ctx context.Context, id string) (toolbox.ChildInfo, error) {
	ch, err := c.lookup(id)
	if err != nil {
		return toolbox.ChildInfo{}, err
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
		return toolbox.ChildInfo{}, errors.New("stopped waiting for the subagent to stop")
	}
	return c.info(ch), nil
}

// Hold keeps Close waiting until release (see toolbox.Agents).
func (c *children) Hold() (func(), error) {
	if !c.enter() {
		return nil, tools.Errorf(tools.CodeAborted, "the session is closing; nothing starts now")
	}
	return c.wg.Done, nil
}
