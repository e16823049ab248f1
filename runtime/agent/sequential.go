package agent

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Sequential is the smallest ToolRunner: it runs calls one at a time in
// model order, with no validation, approval or timeout. It stands in for
// the tool runtime's scheduler in tests and demos.
type Sequential []tools.Tool

// Specs returns the wire specs of the tools.
func (s Sequential) Specs() []llm.ToolSpec {
	out := make([]llm.ToolSpec, len(s))
	for i, t := range s {
		sp := t.Spec()
		out[i] = llm.ToolSpec{Name: sp.Name, Description: sp.Description, Parameters: sp.InputSchema}
	}
	return out
}

// RunStep runs each call after recording its start; once ctx ends it
// stops starting calls and leaves them to the loop's synthetic results.
func (s Sequential) RunStep(ctx context.Context, calls []tools.Call, obs StepObserver) error {
	for _, c := range calls {
		if ctx.Err() != nil {
			return nil
		}
		if err := obs.Started(c); err != nil {
			return err
		}
		if err := obs.Finished(s.run(ctx, c)); err != nil {
			return err
		}
	}
	return nil
}

func (s Sequential) run(ctx context.Context, c tools.Call) tools.Result {
	for _, t := range s {
		if t.Spec().Name != c.Name {
			continue
		}
		if c.Args == nil {
			return tools.Failure(c, tools.Errorf(tools.CodeInvalidArgs, "arguments are not valid JSON: %s", c.Raw))
		}
		v, err := t.Execute(ctx, c)
		if err != nil {
			te, ok := err.(*tools.Error)
			if !ok {
				te = tools.Errorf(tools.CodeToolFailed, "%s", err.Error())
			}
			return tools.Failure(c, te)
		}
		return tools.Result{CallID: c.ID, Name: c.Name, Value: v, Content: t.Render(v)}
	}
	return tools.Failure(c, tools.Errorf(tools.CodeUnknownTool, "unknown tool %q", c.Name))
}
