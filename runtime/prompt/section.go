package prompt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
)

// Order bands of DESIGN.md §6, so section authors agree on placement.
const (
	OrderIdentity     = -1000
	OrderPersona      = 0
	OrderPlanPolicy   = 500
	OrderPTCRule      = 800
	OrderToolGuidance = 1000
	OrderSDK          = 5000
	OrderOutputRules  = 9000
)

// Section is one named part of the system prompt. Text may hold
// {{variables}}; Verbatim turns substitution off for text that may contain
// braces of its own (the generated SDK). A Complete section replaces every
// other section, for callers that supply a whole prompt.
type Section struct {
	Name     string
	Order    int
	Text     string
	Complete bool
	Verbatim bool
}

// Render builds the system text: sections by ascending Order (ties keep
// their given order), variables substituted, empty results dropped, joined
// by one blank line. It fails on a duplicate name, on two Complete
// sections, and on any variable not in vars, so a typo never ships an
// empty hole to the model.
func Render(sections []Section, vars map[string]string) (string, error) {
	seen := make(map[string]bool, len(sections))
	var complete *Section
	for i := range sections {
		s := &sections[i]
		if s.Name == "" {
			return "", fmt.Errorf("prompt section %d has no name; every section needs a unique name", i)
		}
		if seen[s.Name] {
			return "", fmt.Errorf("prompt section %q is defined twice; section names must be unique", s.Name)
		}
		seen[s.Name] = true
		if s.Complete {
			if complete != nil {
				return "", fmt.Errorf("prompt sections %q and %q are both marked complete; at most one section may replace the others", complete.Name, s.Name)
			}
			complete = s
		}
	}
	chosen := sections
	if complete != nil {
		chosen = []Section{*complete}
	}
	ordered := append([]Section(nil), chosen...)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].Order < ordered[j].Order })

	parts := make([]string, 0, len(ordered))
	for _, s := range ordered {
		text := s.Text
		if !s.Verbatim {
			var err error
			if text, err = Expand(text, vars); err != nil {
				return "", fmt.Errorf("prompt section %q: %w", s.Name, err)
			}
		}
		if text = strings.TrimSpace(text); text != "" {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}

// Expand substitutes {{name}} (spaces inside the braces allowed) with
// vars[name]. An unknown name, an empty name or an unclosed "{{" is an
// error naming the problem; text without "{{" is returned unchanged.
func Expand(text string, vars map[string]string) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	var b strings.Builder
	rest := text
	for {
		open := strings.Index(rest, "{{")
		if open < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:open])
		end := strings.Index(rest[open+2:], "}}")
		if end < 0 {
			return "", fmt.Errorf("unclosed \"{{\" at %q; close it with \"}}\"", clip.String(rest[open:], 24))
		}
		name := strings.TrimSpace(rest[open+2 : open+2+end])
		if name == "" {
			return "", fmt.Errorf("empty variable \"{{}}\"; name a variable between the braces")
		}
		val, ok := vars[name]
		if !ok {
			return "", fmt.Errorf("unknown variable {{%s}}; known variables: %s", name, knownNames(vars))
		}
		b.WriteString(val)
		rest = rest[open+2+end+2:]
	}
}

func knownNames(vars map[string]string) string {
	if len(vars) == 0 {
		return "(none)"
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
