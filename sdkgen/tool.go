package sdkgen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Tool is what the generator needs of one tool. InputSchema and
// OutputSchema are JSON Schema documents (drafts 4 to 2020-12); an empty
// OutputSchema means the tool's result is any JSON value.
type Tool struct {
	Name         string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// ParseTools reads tool definitions in the shapes tool authors already
// have: one tool object, an array of tools, or an MCP tools/list result
// ({"tools": [...]}, optionally wrapped in a JSON-RPC response's "result").
// A tool's input schema may be named inputSchema (MCP), input_schema
// (Anthropic) or parameters (OpenAI, also inside a {"function": {...}}
// wrapper); its output schema outputSchema or output_schema. source names
// the input (usually a file) in errors, which also name the tool and the
// JSON pointer of the problem.
func ParseTools(data []byte, source string) ([]Tool, error) {
	root, err := parseValue(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %v", source, err)
	}
	if r := root.get("result"); r != nil && r.get("tools") != nil {
		root = r
	}
	var list []*value
	ptr := ""
	switch {
	case root.kind == kArray:
		list = root.arr
	case root.kind == kObject && root.get("tools") != nil:
		ts := root.get("tools")
		if ts.kind != kArray {
			return nil, fmt.Errorf("%s: /tools must be an array of tools", source)
		}
		list, ptr = ts.arr, "/tools"
	case root.kind == kObject:
		return parseOne(root, source, "")
	default:
		return nil, fmt.Errorf("%s: expected a tool object, an array of tools or {\"tools\": [...]}", source)
	}
	out := make([]Tool, 0, len(list))
	for i, v := range list {
		ts, err := parseOne(v, source, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

func parseOne(v *value, source, ptr string) ([]Tool, error) {
	if v.kind != kObject {
		return nil, fmt.Errorf("%s: %s: a tool must be a JSON object", source, orRoot(ptr))
	}
	if f := v.get("function"); f != nil && f.kind == kObject && v.get("name") == nil {
		v, ptr = f, ptr+"/function"
	}
	name := v.get("name")
	if name == nil || name.kind != kString || name.s == "" {
		return nil, fmt.Errorf("%s: %s/name: a tool needs a non-empty string name", source, ptr)
	}
	t := Tool{Name: name.s, Description: v.str("description")}
	if d := v.get("description"); d != nil && d.kind != kString {
		return nil, fmt.Errorf("%s: tool %q: %s/description must be a string", source, t.Name, ptr)
	}
	for _, key := range []string{"inputSchema", "input_schema", "parameters"} {
		if s := v.get(key); s != nil {
			if err := checkSchema(s, ptr+"/"+key); err != nil {
				return nil, fmt.Errorf("%s: tool %q: %v", source, t.Name, err)
			}
			t.InputSchema = json.RawMessage(canonical(s))
			break
		}
	}
	for _, key := range []string{"outputSchema", "output_schema"} {
		if s := v.get(key); s != nil {
			if err := checkSchema(s, ptr+"/"+key); err != nil {
				return nil, fmt.Errorf("%s: tool %q: %v", source, t.Name, err)
			}
			t.OutputSchema = json.RawMessage(canonical(s))
			break
		}
	}
	return []Tool{t}, nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

var typeNames = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "integer": true, "string": true,
}

// schemaMaps are keywords whose value maps names to subschemas.
var schemaMaps = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}

// schemaLists are keywords whose value is a non-empty list of subschemas.
var schemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems"}

// schemaOnes are keywords whose value is one subschema.
var schemaOnes = []string{"additionalProperties", "additionalItems", "not", "if", "then", "else",
	"contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"}

// checkSchema reports the first structural error in a schema, named by its
// JSON pointer. It only checks what the generator relies on; unknown
// keywords are allowed. It walks with an explicit stack.
func checkSchema(root *value, rootPtr string) error {
	type item struct {
		v   *value
		ptr string
	}
	stack := []item{{root, rootPtr}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s, p := it.v, it.ptr
		if s.kind == kBool {
			continue
		}
		if s.kind != kObject {
			return fmt.Errorf("%s: a schema must be an object or a boolean", p)
		}
		if t := s.get("type"); t != nil {
			switch t.kind {
			case kString:
				if !typeNames[t.s] {
					return fmt.Errorf("%s/type: %q is not a JSON Schema type", p, t.s)
				}
			case kArray:
				for i, e := range t.arr {
					if e.kind != kString || !typeNames[e.s] {
						return fmt.Errorf("%s/type/%d: %s is not a JSON Schema type", p, i, canonical(e))
					}
				}
			default:
				return fmt.Errorf("%s/type: must be a string or an array of strings", p)
			}
		}
		if r := s.get("required"); r != nil && r.kind != kBool { // draft 3 used booleans
			if r.kind != kArray {
				return fmt.Errorf("%s/required: must be an array of property names", p)
			}
			for i, e := range r.arr {
				if e.kind != kString {
					return fmt.Errorf("%s/required/%d: must be a string", p, i)
				}
			}
		}
		if e := s.get("enum"); e != nil && e.kind != kArray {
			return fmt.Errorf("%s/enum: must be an array", p)
		}
		if r := s.get("$ref"); r != nil && r.kind != kString {
			return fmt.Errorf("%s/$ref: must be a string", p)
		}
		for _, k := range schemaMaps {
			m := s.get(k)
			if m == nil {
				continue
			}
			if m.kind != kObject {
				return fmt.Errorf("%s/%s: must be an object of schemas", p, k)
			}
			for i := len(m.keys) - 1; i >= 0; i-- {
				stack = append(stack, item{m.vals[i], p + "/" + k + "/" + escapePtr(m.keys[i])})
			}
		}
		for _, k := range schemaLists {
			l := s.get(k)
			if l == nil {
				continue
			}
			if l.kind != kArray {
				return fmt.Errorf("%s/%s: must be an array of schemas", p, k)
			}
			for i := len(l.arr) - 1; i >= 0; i-- {
				stack = append(stack, item{l.arr[i], p + "/" + k + "/" + strconv.Itoa(i)})
			}
		}
		for _, k := range schemaOnes {
			if o := s.get(k); o != nil {
				stack = append(stack, item{o, p + "/" + k})
			}
		}
		if it := s.get("items"); it != nil {
			if it.kind == kArray {
				for i := len(it.arr) - 1; i >= 0; i-- {
					stack = append(stack, item{it.arr[i], p + "/items/" + strconv.Itoa(i)})
				}
			} else {
				stack = append(stack, item{it, p + "/items"})
			}
		}
	}
	return nil
}

// escapePtr escapes one JSON pointer reference token (RFC 6901).
func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
