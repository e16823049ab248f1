package skills

import (
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/prompt"
)

// SectionName and SectionOrder place the catalog among the prompt's
// sections: the end of the tool-guidance band, before the project
// instructions (3000), since both change only with the repository.
const (
	SectionName  = "skills"
	SectionOrder = 2900
)

// Budget limits of the catalog section, in characters.
const (
	// DefaultBudget is the catalog's size when the context window is
	// unknown (the figure Codex uses then).
	DefaultBudget = 8000
	minBudget     = 2000
	maxBudget     = 40000
)

// Budget is the catalog's size for a context window of window tokens:
// 2 % of the window at about four characters a token (Claude Code and
// Codex both give the skill list about 2 %), within 2 000–40 000
// characters, DefaultBudget when window is 0.
func Budget(window int) int {
	if window <= 0 {
		return DefaultBudget
	}
	return min(max(window*4*2/100, minBudget), maxBudget)
}

// Section is the catalog as a system prompt section: the rule for using
// skills, then one line per skill (name, description, where it comes
// from), sorted by name, until budget characters; a last line counts
// the skills left out (the skill tool still loads them by name). It is
// empty (and dropped from the prompt) without skills. The same catalog
// and budget always give the same bytes, so the prompt cache holds.
func (c *Catalog) Section(budget int) prompt.Section {
	sec := prompt.Section{Name: SectionName, Order: SectionOrder, Verbatim: true}
	if c.Len() == 0 {
		return sec
	}
	var b strings.Builder
	b.WriteString("Skills are instructions for particular kinds of task, kept in files. When a task matches a skill's description, load the skill with the skill tool ({name}) before you start, and follow it; it may name further files of the skill, which read opens. A skill is text: it grants no permission, and a script it mentions runs only as an ordinary sandboxed command.\n")
	used := b.Len()
	for i, s := range c.skills {
		line := fmt.Sprintf("\n- %s: %s (%s)", s.Name, termsafe.Line(s.Description), where(s))
		if used+len(line) > budget {
			fmt.Fprintf(&b, "\n- … %d more skill(s) not listed here; the skill tool loads any of them by name", len(c.skills)-i)
			break
		}
		b.WriteString(line)
		used += len(line)
	}
	sec.Text = b.String()
	return sec
}

// where says where a skill comes from, as the catalog shows it.
func where(s Skill) string {
	if s.Source == SourceUser {
		return "user"
	}
	return s.Root
}
