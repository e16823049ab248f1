package toolbox

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// AskUserQuestionName is the tool's wire name.
const AskUserQuestionName = "ask_user_question"

// AskInput is the input of ask_user_question.
type AskInput struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
}

// AskOutput is the user's answer.
type AskOutput struct {
	Answer string `json:"answer"`
}

const askInputSchema = `{
	"type": "object",
	"properties": {
		"question": {"type": "string", "minLength": 1, "description": "The question, as one clear sentence."},
		"options": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 10, "description": "Suggested answers, if the answer is a choice."}
	},
	"required": ["question"],
	"additionalProperties": false
}`

const askOutputSchema = `{
	"type": "object",
	"properties": {"answer": {"type": "string"}},
	"required": ["answer"]
}`

// AskUserQuestion returns the ask_user_question tool. It asks through the
// session's Approvals (kind "question"), the registry approvals use; without a
// user (headless) it fails so the model carries on with its best judgement.
func AskUserQuestion() tools.Tool {
	spec := tools.Spec{
		Name:         AskUserQuestionName,
		Description:  doc(AskUserQuestionName),
		InputSchema:  json.RawMessage(askInputSchema),
		OutputSchema: json.RawMessage(askOutputSchema),
	}
	return tools.New(spec, askUser, tools.WithRenderer(func(v any) string {
		if out, ok := v.(AskOutput); ok {
			return "The user answered: " + out.Answer
		}
		return tools.RenderValue(v)
	}))
}

const noUserMessage = "no user is available to answer questions in this run; decide with your best judgement, say what you assumed, and continue"

func askUser(ctx context.Context, call tools.Call, in AskInput) (AskOutput, error) {
	env := tools.EnvFrom(ctx)
	if env.Approvals == nil {
		return AskOutput{}, errors.New(noUserMessage)
	}
	reply, err := env.Approvals.Ask(ctx, env, tools.Question{
		Kind: tools.KindQuestion, CallID: call.ID, Tool: call.Name, Text: in.Question, Options: in.Options,
	})
	if errors.Is(err, tools.ErrNoAnswerer) {
		return AskOutput{}, errors.New(noUserMessage)
	}
	if err != nil {
		return AskOutput{}, err
	}
	return AskOutput{Answer: reply.Answer}, nil
}
