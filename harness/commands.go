package harness

import (
	"github.com/ptc-dev/ptc/runtime/slash"
)

// Commands are the custom slash commands of workspace ("" for none) and
// of the home's commands directory, read afresh (a new file works at
// once).
func (h *Home) Commands(workspace string) slash.Set { return slash.Load(workspace, h.dir) }

// Commands are the custom slash commands of the session's workspace and
// home, for a front end's / list and /help.
func (s *Session) Commands() slash.Set { return s.home.Commands(s.Settings().Workspace) }

// ExpandCommand turns input typed as "/name args" into the prompt of
// the custom command name (ptc run '/review main.go', the TUI): ok is
// false when input calls no custom command, and it is then sent as
// typed. The warnings are what reading the commands found wrong.
func (s *Session) ExpandCommand(input string) (prompt string, ok bool, warnings []string) {
	set := s.Commands()
	prompt, _, ok = set.Expand(input)
	return prompt, ok, set.Warnings
}

// Commands are the current session's custom slash commands.
func (f *Front) Commands() slash.Set { return f.cur().Commands() }
