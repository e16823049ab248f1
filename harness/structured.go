package harness

import (
	"context"
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/structured"
)

// retrySource marks the follow-up turn that quotes a structured answer's
// validation error back to the model.
var retrySource = session.Source{Kind: "plugin", Name: structured.SectionName, Form: "notice"}

// RunStructured runs input as a turn whose final answer must be a JSON
// value valid against schema (the session should be opened with it as
// Options.OutputSchema, so the model is told): when the completed turn's
// answer does not match, one more turn quotes the validation error, and
// that answer is checked again. result is the answer's value; a turn that
// did not complete returns its outcome with no result and no error, as
// Run does; an answer still invalid after the retry returns the last
// outcome and a *structured.Invalid.
func (s *Session) RunStructured(ctx context.Context, input string, schema *structured.Schema) (agent.Outcome, json.RawMessage, error) {
	out, err := s.Run(ctx, input)
	if err != nil || out.Reason != session.ReasonCompleted {
		return out, nil, err
	}
	result, bad := schema.Check(out.Text)
	if bad == nil {
		return out, result, nil
	}
	usage := out.Usage
	out, err = s.RunInput(ctx, agent.Input{Text: structured.RetryPrompt(bad), Source: retrySource})
	usage.Add(out.Usage)
	out.Usage = usage
	if err != nil || out.Reason != session.ReasonCompleted {
		return out, nil, err
	}
	result, bad = schema.Check(out.Text)
	if bad != nil {
		return out, nil, bad
	}
	return out, result, nil
}
