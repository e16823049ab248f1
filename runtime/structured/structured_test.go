package structured

import (
	"errors"
	"strings"
	"testing"
)

const point = `{"type": "object", "properties": {"x": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["x"], "additionalProperties": false}`

func TestParseRefusesWhatItDoesNotSupport(t *testing.T) {
	for doc, want := range map[string]string{
		`{"$ref": "#/$defs/a"}`: `keyword "$ref" is not supported`,
		`{"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}`: `(root)/properties/d: keyword "format"`,
		`[1]`:                  "must be a JSON object",
		`{"type": `:            "not valid JSON",
		`{"anyOf": []}`:        "anyOf must be a non-empty array",
		`{"type": "nonsense"}`: "does not compile",
		`{"description": "` + strings.Repeat("x", MaxSchemaBytes) + `"}`: "keep it under",
	} {
		if _, err := Parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: %v, want %q", doc, err, want)
		}
	}
	deep := strings.Repeat(`{"items": `, maxDepth+2) + `{}` + strings.Repeat(`}`, maxDepth+2)
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nests more than") {
		t.Errorf("deep: %v", err)
	}
}

func TestCheckAcceptsOnlyValidJSON(t *testing.T) {
	s, err := Parse([]byte(point))
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Check("```json\n{\"x\": 1,\n \"tags\": [\"a\"]}\n```\n")
	if err != nil || string(v) != `{"x":1,"tags":["a"]}` {
		t.Fatalf("%s %v", v, err)
	}
	for answer, want := range map[string]string{
		"Here it is: {\"x\": 1}": "not valid JSON",
		`{"x": "one"}`:           "/x",
		`{"x": 1, "y": 2}`:       "/y: unknown property",
		`{}`:                     "/x: missing required property",
		"  ":                     "empty",
		`{"x": 1} {"x": 2}`:      "not valid JSON",
	} {
		_, err := s.Check(answer)
		var inv *Invalid
		if !errors.As(err, &inv) || !strings.Contains(inv.Problem, want) {
			t.Errorf("%q: %v, want %q", answer, err, want)
		}
		if err != nil && !strings.Contains(RetryPrompt(err), inv.Problem) {
			t.Errorf("the retry prompt must quote the problem: %q", RetryPrompt(err))
		}
	}
	if sec := s.Section(); sec.Name != SectionName || !strings.Contains(sec.Text, `"required":["x"]`) {
		t.Fatalf("%+v", sec)
	}
}
