package compact

import (
	"fmt"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// PrunedText is s cut to its first head and last tail characters around a
// marker saying how much was cut and how to get it back. s must be longer
// than head+tail characters.
func PrunedText(s string, head, tail int) string {
	runes := []rune(s)
	cut := len(runes) - head - tail
	marker := fmt.Sprintf("\n\n[… %d characters cut from the middle of this tool result to save context; "+
		"run the tool again, more narrowly, if you need them …]\n\n", cut)
	return string(runes[:head]) + marker + string(runes[len(runes)-tail:])
}

// planPrune chooses the tool results to prune, oldest first, until the
// estimated saving reaches need (every candidate when need < 0). A
// candidate is a tool result on the surface longer than PruneAbove
// characters, not pruned yet, and older than the latest ProtectSteps
// assistant messages. It returns the replacement events and the saving.
func planPrune(items []session.SurfaceItem, cfg Config, need int) ([]session.ToolPruned, int) {
	var out []session.ToolPruned
	saved := 0
	for _, it := range items[:protectedFrom(items, cfg.ProtectSteps)] {
		if need >= 0 && saved >= need {
			break
		}
		m := it.Message
		if m.Role != llm.RoleTool || it.Pruned {
			continue
		}
		chars := Chars(m.Content)
		if chars <= cfg.PruneAbove {
			continue
		}
		text := PrunedText(m.Content, cfg.PruneHead, cfg.PruneTail)
		saved += Tokens(m.Content) - Tokens(text)
		out = append(out, session.ToolPruned{Replaces: it.Seq, CallID: m.ToolCallID, Name: m.Name,
			Content: session.TextBlocks(text), OriginalChars: chars})
	}
	return out, saved
}

// protectedFrom is the index of the first item of the latest steps
// steps: the steps-th assistant message from the end (0 when there are
// fewer, so that everything is protected).
func protectedFrom(items []session.SurfaceItem, steps int) int {
	seen := 0
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Message.Role == llm.RoleAssistant {
			if seen++; seen == steps {
				return i
			}
		}
	}
	return 0
}
