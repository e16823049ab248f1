package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/ptc-dev/ptc/internal/clip"
)

// Limits that keep an INVALID_ARGS message readable whatever the model sent.
const (
	maxViolations      = 20
	maxViolationLength = 200
)

// MaxArgBytes caps one call's arguments (their JSON text). Past it the
// call is refused with INVALID_ARGS before anything is parsed, approved or
// run: a 100 MB argument otherwise travelled through validation, the
// event log, the sandbox's request and the guest's memory before failing
// somewhere with an unreadable error. 8 MiB holds any file an agent
// writes in one call.
const MaxArgBytes = 8 << 20

// compileSchema compiles one schema document of a tool. Remote and file
// references are refused: a tool schema must be self-contained.
func compileSchema(tool, which string, doc json.RawMessage) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, nil
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("schema reference %s is not allowed: tool schemas must be self-contained", s)
	}
	loc := "mem:///tools/" + url.PathEscape(tool) + "/" + which + ".json"
	if err := c.AddResource(loc, bytes.NewReader(doc)); err != nil {
		return nil, fmt.Errorf("tool %s: %s schema is not valid JSON: %v", tool, which, err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %s schema does not compile: %v", tool, which, err)
	}
	return s, nil
}

// CheckSchema reports whether a JSON Schema document compiles as a tool
// schema does in NewRegistry (self-contained; the draft its $schema
// names, 2020-12 by default). Tool sources that take schemas from
// elsewhere, such as MCP servers, use it to drop a schema that would make
// the whole registry fail.
func CheckSchema(doc json.RawMessage) error {
	_, err := compileSchema("check", "schema", doc)
	return err
}

// decodeJSON parses one JSON document with numbers kept exact (what the
// validator expects) and refuses trailing data.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// Checking the rest directly (not with dec.Token) spares the decoder a
	// buffer refill on every call.
	if len(bytes.TrimLeft(b[dec.InputOffset():], " \t\r\n")) != 0 {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// parseArgs turns the raw argument string into a JSON object: empty means
// {}; anything that is not one JSON object is an INVALID_ARGS failure.
func parseArgs(name string, raw []byte) (json.RawMessage, any, *Error) {
	if len(raw) > MaxArgBytes {
		return nil, nil, Errorf(CodeInvalidArgs, "invalid arguments for %s: %d bytes of arguments, past the limit of %d (8 MiB); send less per call, or write the data to a file first", name, len(raw), MaxArgBytes)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}"), map[string]any{}, nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, nil, Errorf(CodeInvalidArgs, "invalid arguments for %s: not valid JSON (%v); send one JSON object", name, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, nil, Errorf(CodeInvalidArgs, "invalid arguments for %s: expected a JSON object, got %s", name, jsonTypeName(v))
	}
	return json.RawMessage(raw), v, nil
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// validateValue checks v against s and returns the violations as one
// readable line ("/a: problem; /b: problem"), or "" when v is valid.
func validateValue(s *jsonschema.Schema, v any) string {
	if s == nil {
		return ""
	}
	err := s.Validate(v)
	if err == nil {
		return ""
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return clip.String(err.Error(), maxViolationLength)
	}
	var out []string
	seen := map[string]bool{}
	for _, leaf := range leaves(ve, nil) {
		for _, line := range describe(leaf) {
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	}
	sort.Strings(out)
	if len(out) > maxViolations {
		more := len(out) - maxViolations
		out = append(out[:maxViolations], fmt.Sprintf("and %d more", more))
	}
	return strings.Join(out, "; ")
}

func leaves(ve *jsonschema.ValidationError, acc []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return append(acc, ve)
	}
	for _, c := range ve.Causes {
		acc = leaves(c, acc)
	}
	return acc
}

// describe rewrites one leaf error of the validator into "pointer: problem"
// lines, one per property for required/additionalProperties errors so the
// model sees the exact pointer of each.
func describe(ve *jsonschema.ValidationError) []string {
	loc, msg := ve.InstanceLocation, ve.Message
	if rest, ok := strings.CutPrefix(msg, "missing properties: "); ok {
		var out []string
		for _, p := range splitQuoted(rest) {
			out = append(out, pointer(loc+"/"+escapePointer(p))+": missing required property")
		}
		return out
	}
	if rest, ok := strings.CutPrefix(msg, "additionalProperties "); ok {
		if names, ok := strings.CutSuffix(rest, " not allowed"); ok {
			var out []string
			for _, p := range splitQuoted(names) {
				out = append(out, pointer(loc+"/"+escapePointer(p))+": unknown property (not in the schema)")
			}
			return out
		}
	}
	msg = strings.Replace(msg, ", but got ", ", got ", 1)
	return []string{pointer(loc) + ": " + clip.String(msg, maxViolationLength)}
}

// splitQuoted splits the validator's "'a', 'b'" lists.
func splitQuoted(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "'"), "'")
	parts := strings.Split(s, "', '")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(p, `\'`, "'")
	}
	return parts
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func pointer(loc string) string {
	if loc == "" {
		return "(root)"
	}
	return clip.String(loc, maxViolationLength)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
