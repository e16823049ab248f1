package presets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
	"gopkg.in/yaml.v3"
)

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Parse decodes and validates one preset file. source names it in errors.
// Unknown fields are errors (a typo must not silently change nothing);
// snapshots, compact and title default to true and sandbox to workspace-write
// when absent.
func Parse(source string, data []byte, knownTools []string) (*Preset, error) {
	p := &Preset{Snapshots: true, Compact: true, Title: true, Source: source}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty; a preset needs at least id, description, tools and presentation", source)
		}
		return nil, fmt.Errorf("%s: %v", source, cleanYAMLError(err))
	}
	if p.Sandbox == "" {
		p.Sandbox = "workspace-write"
	}
	if err := p.validate(knownTools); err != nil {
		return nil, err
	}
	return p, nil
}

// cleanYAMLError drops the library's "yaml: " prefixes so the message reads
// as one sentence after the file name.
func cleanYAMLError(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return strings.ReplaceAll(err.Error(), "yaml: ", "")
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		if before, _, ok := strings.Cut(m, " not found in type "); ok {
			m = strings.Replace(before, "field ", "unknown field ", 1) + " (check the spelling; see the embedded presets for the fields)"
		}
		msgs[i] = m
	}
	return strings.Join(msgs, "; ")
}

func (p *Preset) validate(knownTools []string) error {
	var errs []error
	fail := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", p.Source, field, fmt.Sprintf(format, args...)))
	}
	switch {
	case p.ID == "":
		fail("id", "missing; give the preset a short lowercase id")
	case !idPattern.MatchString(p.ID):
		fail("id", "%q must be lowercase letters, digits, '-' or '_'", p.ID)
	}
	if strings.TrimSpace(p.Description) == "" {
		fail("description", "missing; say in one line what the preset is for")
	}
	if _, err := tools.ParsePresentation(string(p.Presentation)); err != nil {
		fail("presentation", "%v", err)
	}
	if !slices.Contains(sandboxModes, p.Sandbox) {
		fail("sandbox", "unknown mode %q: use %s", p.Sandbox, strings.Join(sandboxModes, ", "))
	}
	if p.MaxSteps < 0 {
		fail("max_steps", "%d is negative; use 0 for no limit", p.MaxSteps)
	}
	for i, name := range p.HostPrograms {
		if name == "" || strings.ContainsAny(name, "/ \t\n") || name == "." || name == ".." {
			fail(fmt.Sprintf("host_programs[%d]", i), "%q is not a program name (give bare names such as go or npm, no paths)", name)
		}
	}
	p.validateTools(knownTools, fail)
	if p.Plan && !slices.Contains(p.Tools, plan.ExitName) {
		fail("plan", "plan mode needs %s among the tools, or the session could never leave it", plan.ExitName)
	}
	p.validateText(fail)
	return errors.Join(errs...)
}

func (p *Preset) validateTools(knownTools []string, fail func(string, string, ...any)) {
	if len(p.Tools) == 0 {
		fail("tools", "empty; list the tool names the preset offers")
	}
	seen := map[string]bool{}
	for i, name := range p.Tools {
		field := fmt.Sprintf("tools[%d]", i)
		switch {
		case seen[name]:
			fail(field, "%q is listed twice", name)
		case knownTools != nil && !slices.Contains(knownTools, name):
			fail(field, "unknown tool %q; known tools: %s", name, strings.Join(sorted(knownTools), ", "))
		}
		seen[name] = true
	}
	if p.Presentation == tools.PresentPTC && !seen[tools.RunCodeName] {
		fail("tools", "presentation ptc shows only %s on the wire, so the list must include it", tools.RunCodeName)
	}
}

func (p *Preset) validateText(fail func(string, string, ...any)) {
	vars := map[string]string{}
	for _, v := range Variables {
		vars[v] = v
	}
	if strings.TrimSpace(p.Persona) == "" {
		fail("persona", "missing; write at least one sentence saying who the agent is")
	} else if _, err := prompt.Expand(p.Persona, vars); err != nil {
		fail("persona", "%v", err)
	}
	names := map[string]bool{PersonaSection: true}
	for i, s := range p.Sections {
		field := fmt.Sprintf("sections[%d]", i)
		switch {
		case s.Name == "":
			fail(field+".name", "missing; every section needs a unique name")
		case names[s.Name]:
			fail(field+".name", "%q is used twice (the persona is the section %q)", s.Name, PersonaSection)
		}
		names[s.Name] = true
		if strings.TrimSpace(s.Text) == "" {
			fail(field+".text", "empty; remove the section or give it text")
		} else if _, err := prompt.Expand(s.Text, vars); err != nil {
			fail(field+".text", "%v", err)
		}
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
