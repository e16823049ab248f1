package tui

import (
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// Custom slash commands (.ptc/commands/NAME.md, $PTC_HOME/commands) are
// prompts: /NAME args sends the file's text with the arguments put in.
// A built-in command of the same name wins.

// customCommand is the prompt of the custom command name with arg, and
// whether there is such a command. What was wrong with the command files
// is shown as notices.
func (m *Model) customCommand(name, arg string) (string, bool) {
	set := m.be.Commands()
	for _, w := range set.Warnings {
		m.tr.notice(toneWarn, termsafe.String(w))
	}
	c, ok := set.Lookup(name)
	if !ok {
		return "", false
	}
	return c.Expand(arg), true
}

// customCompletions are the custom commands starting with prefix ("/re")
// that no built-in command shadows, for the / popup.
func (m *Model) customCompletions(prefix string) []string {
	var out []string
	for _, c := range m.be.Commands().Commands {
		if _, builtin := lookupCommand(c.Name); builtin {
			continue
		}
		if name := "/" + c.Name; strings.HasPrefix(name, prefix) && name != prefix {
			out = append(out, name)
		}
	}
	return out
}

// customHelp lists the custom commands for /help ("" without any).
func (m *Model) customHelp() string {
	var b strings.Builder
	for _, c := range m.be.Commands().Commands {
		if _, builtin := lookupCommand(c.Name); builtin {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Custom commands (prompts from .ptc/commands and $PTC_HOME/commands; they are sent to the model):\n")
		}
		desc := c.Description
		if desc == "" {
			desc = "(" + c.Source + ")"
		}
		fmt.Fprintf(&b, "  /%-9s %-9s %s\n", termsafe.Line(c.Name), termsafe.Clip(c.ArgumentHint, 20), termsafe.Clip(desc, 80))
	}
	return b.String()
}
