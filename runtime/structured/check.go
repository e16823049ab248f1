package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/prompt"
)

// SectionName and SectionOrder place the structured_output section last
// in the system prompt, after the output rules it overrides.
const (
	SectionName  = "structured_output"
	SectionOrder = prompt.OrderOutputRules + 100
)

// Section is the structured_output system prompt section for s.
func (s *Schema) Section() prompt.Section {
	text := "Structured output: your final answer (the last message of the turn, after any tool use) must be exactly one JSON value valid against the JSON Schema below, and nothing else: no prose before or after it, no Markdown code fence. It is parsed by a program, not read by a person. If it does not match, you are told why and get one more chance.\n\nSchema: " + string(s.doc)
	return prompt.Section{Name: SectionName, Order: SectionOrder, Text: text, Verbatim: true}
}

// Invalid is an answer that does not match the schema.
type Invalid struct {
	Problem string
}

func (e *Invalid) Error() string {
	return "the answer does not match the output schema: " + e.Problem
}

// maxProblem bounds the validation error quoted back to the model.
const maxProblem = 2000

// Check returns the answer's JSON value, compact, or an *Invalid saying
// why it is not one valid against s. Surrounding white space and one
// Markdown code fence around the whole answer are forgiven: models add
// them even when told not to, and they carry no meaning.
func (s *Schema) Check(answer string) (json.RawMessage, error) {
	raw := []byte(unfence(answer))
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, &Invalid{Problem: "the answer is empty; expected a JSON value"}
	}
	if p := s.v.Check(raw); p != "" {
		return nil, &Invalid{Problem: clip.String(p, maxProblem)}
	}
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		return nil, &Invalid{Problem: "not valid JSON: " + err.Error()}
	}
	return out.Bytes(), nil
}

// unfence strips white space and one code fence (```json ... ```) that
// encloses the whole text.
func unfence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	body := strings.TrimSuffix(t, "```")
	_, rest, ok := strings.Cut(body, "\n") // drop the opening fence and its language tag
	if !ok {
		return t
	}
	return strings.TrimSpace(rest)
}

// RetryPrompt is the follow-up that gives the model its one more chance:
// the validation error and the rule again.
func RetryPrompt(err error) string {
	problem := err.Error()
	if inv, ok := err.(*Invalid); ok {
		problem = inv.Problem
	}
	return fmt.Sprintf("Your final answer is not valid against the required JSON Schema: %s\n\nAnswer again with only the corrected JSON value: no other text, no code fence.", problem)
}
