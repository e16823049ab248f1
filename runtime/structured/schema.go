package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// MaxSchemaBytes bounds a schema document: it is copied into the system
// prompt of every request of the session.
const MaxSchemaBytes = 32 << 10

// maxDepth bounds how deeply schemas nest (a hostile document could
// otherwise recurse the walk without end).
const maxDepth = 32

// Keywords are the JSON Schema keywords a structured-output schema may
// use. They are the ones every model family follows reliably and the
// validator checks exactly; $ref, format, conditionals and the like are
// refused with a clear error rather than half honoured.
var Keywords = []string{
	"$schema", "additionalProperties", "anyOf", "const", "default", "description", "enum",
	"exclusiveMaximum", "exclusiveMinimum", "items", "maxItems", "maxLength", "maximum",
	"minItems", "minLength", "minimum", "pattern", "properties", "required", "title", "type", "uniqueItems",
}

// Schema is a parsed, compiled structured-output schema.
type Schema struct {
	doc json.RawMessage // compact
	v   *tools.AnswerSchema
}

// Parse checks doc (a JSON Schema object using only Keywords, at most
// MaxSchemaBytes) and compiles it.
func Parse(doc []byte) (*Schema, error) {
	if len(doc) > MaxSchemaBytes {
		return nil, fmt.Errorf("the schema is %d bytes; keep it under %d", len(doc), MaxSchemaBytes)
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %v", err)
	}
	if _, ok := root.(map[string]any); !ok {
		return nil, fmt.Errorf("the schema must be a JSON object")
	}
	if err := walk(root, "(root)", 0); err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %v", err)
	}
	v, err := tools.CompileAnswerSchema(compact.Bytes())
	if err != nil {
		return nil, fmt.Errorf("the schema does not compile: %v", err)
	}
	return &Schema{doc: compact.Bytes(), v: v}, nil
}

// Doc is the schema document, compact.
func (s *Schema) Doc() json.RawMessage { return s.doc }

// walk refuses keywords outside Keywords anywhere in the schema.
func walk(node any, at string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("the schema nests more than %d levels deep", maxDepth)
	}
	m, ok := node.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: a schema must be a JSON object", at)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !allowed(k) {
			return fmt.Errorf("%s: keyword %q is not supported in a structured-output schema (allowed: %s)", at, clipName(k), strings.Join(Keywords, ", "))
		}
		if err := walkValue(k, m[k], at, depth); err != nil {
			return err
		}
	}
	return nil
}

// walkValue descends into the keywords whose values are schemas.
func walkValue(k string, v any, at string, depth int) error {
	switch k {
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: properties must be an object", at)
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if err := walk(props[n], at+"/properties/"+clipName(n), depth+1); err != nil {
				return err
			}
		}
	case "items":
		return walk(v, at+"/items", depth+1)
	case "additionalProperties":
		if _, isBool := v.(bool); isBool {
			return nil
		}
		return walk(v, at+"/additionalProperties", depth+1)
	case "anyOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("%s: anyOf must be a non-empty array of schemas", at)
		}
		for i, s := range list {
			if err := walk(s, fmt.Sprintf("%s/anyOf/%d", at, i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func allowed(k string) bool {
	i := sort.SearchStrings(Keywords, k)
	return i < len(Keywords) && Keywords[i] == k
}

func clipName(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
