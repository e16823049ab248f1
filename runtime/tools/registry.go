package tools

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Presentation says how tools reach the model (DESIGN.md §8).
type Presentation string

// Presentations.
const (
	// PresentNative puts every tool on the wire: one model call per tool.
	PresentNative Presentation = "native"
	// PresentPTC puts only run_code on the wire; every other tool is
	// reachable only from a program (Call.Nested).
	PresentPTC Presentation = "ptc"
	// PresentBoth puts every tool on the wire and lets programs call them.
	PresentBoth Presentation = "both"
)

// RunCodeName is the tool that runs model-written programs. It is never
// visible to programs themselves.
const RunCodeName = "run_code"

// ParsePresentation accepts "native", "ptc" or "both".
func ParsePresentation(s string) (Presentation, error) {
	switch p := Presentation(s); p {
	case PresentNative, PresentPTC, PresentBoth:
		return p, nil
	}
	return "", fmt.Errorf("unknown presentation %q: use native, ptc or both", s)
}

// Registry is an immutable set of tools with their compiled schemas and the
// presentation that decides which of them the model sees on the wire.
// Build one per tool set; share it between Runners.
type Registry struct {
	presentation Presentation
	entries      map[string]*entry
	names        []string // sorted
	wire, prog   []string // sorted names on the wire / visible to programs
}

type entry struct {
	tool      Tool
	spec      Spec
	in, out   *jsonschema.Schema
	approver  ApprovalRequirer
	writer    Writer
	escalator Escalator
}

// NewRegistry compiles every tool's schemas once. A duplicate name, an
// empty name, a missing input schema or a schema that does not compile is
// an error naming the tool.
func NewRegistry(p Presentation, tools ...Tool) (*Registry, error) {
	if _, err := ParsePresentation(string(p)); err != nil {
		return nil, err
	}
	r := &Registry{presentation: p, entries: make(map[string]*entry, len(tools))}
	for _, t := range tools {
		spec := t.Spec()
		if spec.Name == "" {
			return nil, fmt.Errorf("a tool has an empty name (description %q)", spec.Description)
		}
		if _, dup := r.entries[spec.Name]; dup {
			return nil, fmt.Errorf("tool %s is registered twice", spec.Name)
		}
		if len(spec.InputSchema) == 0 {
			return nil, fmt.Errorf("tool %s has no input schema", spec.Name)
		}
		in, err := compileSchema(spec.Name, "input", spec.InputSchema)
		if err != nil {
			return nil, err
		}
		out, err := compileSchema(spec.Name, "output", spec.OutputSchema)
		if err != nil {
			return nil, err
		}
		e := &entry{tool: t, spec: spec, in: in, out: out}
		e.approver, _ = t.(ApprovalRequirer)
		e.writer, _ = t.(Writer)
		e.escalator, _ = t.(Escalator)
		r.entries[spec.Name] = e
		r.names = append(r.names, spec.Name)
	}
	sort.Strings(r.names)
	for _, n := range r.names {
		if r.OnWire(n) {
			r.wire = append(r.wire, n)
		}
		if r.InProgram(n) {
			r.prog = append(r.prog, n)
		}
	}
	return r, nil
}

// Presentation returns the registry's presentation.
func (r *Registry) Presentation() Presentation { return r.presentation }

// Lookup returns any registered tool, whatever the presentation.
func (r *Registry) Lookup(name string) (Tool, bool) {
	e, ok := r.entries[name]
	if !ok {
		return nil, false
	}
	return e.tool, true
}

// Names returns every registered tool name, sorted.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// OnWire reports whether the model may call name directly.
func (r *Registry) OnWire(name string) bool {
	if _, ok := r.entries[name]; !ok {
		return false
	}
	if r.presentation == PresentPTC {
		return name == RunCodeName
	}
	return true
}

// InProgram reports whether a run_code program may call name.
func (r *Registry) InProgram(name string) bool {
	_, ok := r.entries[name]
	return ok && name != RunCodeName
}

// WireSpecs returns the tools the model sees in the request's tools field,
// sorted by name.
func (r *Registry) WireSpecs() []llm.ToolSpec {
	var out []llm.ToolSpec
	for _, s := range r.WireToolSpecs() {
		out = append(out, llm.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.InputSchema})
	}
	return out
}

// WireToolSpecs is WireSpecs with the output schemas kept (for `ptc tools`).
func (r *Registry) WireToolSpecs() []Spec { return r.specs(r.wire) }

// ProgramSpecs returns the tools a run_code program may call (every tool
// but run_code), sorted by name: the input of the SDK generator.
func (r *Registry) ProgramSpecs() []Spec { return r.specs(r.prog) }

func (r *Registry) specs(names []string) []Spec {
	var out []Spec
	for _, n := range names {
		out = append(out, r.entries[n].spec)
	}
	return out
}

// validateInput checks parsed arguments against the tool's input schema.
func (e *entry) validateInput(v any) *Error {
	if line := validateValue(e.in, v); line != "" {
		return Errorf(CodeInvalidArgs, "invalid arguments for %s: %s", e.spec.Name, line)
	}
	return nil
}

// validateOutput checks a tool's value against its output schema. Go
// values are encoded and decoded once so the validator sees plain JSON;
// strings, booleans and nil already are.
func (e *entry) validateOutput(value any) *Error {
	if e.out == nil {
		return nil
	}
	v := value
	switch value.(type) {
	case nil, string, bool:
	default:
		b, err := json.Marshal(value)
		if err == nil {
			v, err = decodeJSON(b)
		}
		if err != nil {
			return Errorf(CodeInvalidToolOutput, "tool %s returned a value that cannot be encoded as JSON: %v", e.spec.Name, err)
		}
	}
	if line := validateValue(e.out, v); line != "" {
		return Errorf(CodeInvalidToolOutput, "tool %s returned a value that does not match its output schema: %s", e.spec.Name, line)
	}
	return nil
}
