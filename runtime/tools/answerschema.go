package tools

import (
	"encoding/json"
	"errors"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// AnswerSchema is a compiled JSON Schema that values other than tool
// arguments are checked against (a structured answer, a workflow agent's
// result). It is the validator tool schemas use, so a value is judged and
// its problems are worded exactly as a tool call's arguments would be.
type AnswerSchema struct {
	s *jsonschema.Schema
}

// CompileAnswerSchema compiles doc (self-contained: no remote or file
// references; 2020-12 unless its $schema names another draft).
func CompileAnswerSchema(doc json.RawMessage) (*AnswerSchema, error) {
	s, err := compileSchema("value", "schema", doc)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("the schema is empty")
	}
	return &AnswerSchema{s: s}, nil
}

// Check parses raw as one JSON document and validates it. problem is ""
// when raw is valid; otherwise it says what is wrong in one readable line
// ("not valid JSON: ...", or "/a: problem; /b: problem").
func (v *AnswerSchema) Check(raw []byte) (problem string) {
	val, err := decodeJSON(raw)
	if err != nil {
		return "not valid JSON: " + err.Error()
	}
	return validateValue(v.s, val)
}
