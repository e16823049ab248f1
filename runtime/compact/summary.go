package compact

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// SummarySource is the source of the user/message that carries a summary.
func SummarySource() session.Source {
	return session.Source{Kind: "plugin", Name: "compaction", Form: "summary"}
}

// Sections are the headings a summary must have, in order.
var Sections = []string{
	"Task and intent",
	"Key decisions",
	"Files and code",
	"Errors and fixes",
	"Open work and todos",
	"Current step",
	"Next step",
}

// instruction is the user message that ends a summary side request.
// merge is set when the replayed conversation opens with an earlier
// summary; shorter when the previous attempt did not shrink its span.
func instruction(merge, shorter bool, maxTokens int) string {
	var b strings.Builder
	b.WriteString(llm.SummaryRequestTag + "\n")
	b.WriteString("The context of this session is nearly full. Write a summary of the conversation above; " +
		"it will take the place of the earlier messages, and the latest ones stay verbatim after it. " +
		"Do not call any tool. Answer with the summary only, in Markdown, inside <summary> and </summary>, " +
		"with exactly these sections:\n\n")
	notes := []string{
		"The user's requests, quoted in their own words, and the result they expect.",
		"Choices made, with the reason for each, and constraints agreed on.",
		"Every file read, created or changed, by its exact path, and what was done to it; short code excerpts where the detail matters.",
		"Each error met, with its exact message, its cause and how it was fixed (or that it is still open).",
		"What remains to be done, including every todo item that is not completed; leave out finished work.",
		"What was being done right before this summary.",
		"The next action, precise enough to take without rereading the conversation.",
	}
	for i, s := range Sections {
		fmt.Fprintf(&b, "## %s\n%s\n\n", s, notes[i])
	}
	b.WriteString("Keep paths, commands, identifiers, error messages and numbers exactly as they appear. " +
		"Leave out greetings and tool output that no longer matters.")
	if merge {
		b.WriteString("\n\nThe conversation opens with an earlier summary. Merge it into this one section by section: " +
			"keep what still holds, drop what is finished or superseded, and do not copy it as a block.")
	}
	if shorter {
		fmt.Fprintf(&b, "\n\nYour previous answer was not shorter than the part of the conversation it stands for. "+
			"Write a much shorter summary, well under %d tokens.", maxTokens/2)
	}
	return b.String()
}

// extractSummary is the summary inside the model's answer: the text
// between <summary> and </summary> when both are there, else the whole
// answer, trimmed.
func extractSummary(raw string) string {
	s := raw
	if i := strings.Index(s, "<summary>"); i >= 0 {
		if j := strings.LastIndex(s, "</summary>"); j > i {
			s = s[i+len("<summary>") : j]
		}
	}
	return strings.TrimSpace(s)
}

// summaryMessage is the text of the user/message that replaces a span:
// a note saying what it is, the summary, and the latest todo list, which
// is state the runtime holds and must not depend on the model copying it.
func summaryMessage(summary string, todos *session.TodoWrite) string {
	var b strings.Builder
	b.WriteString("[Summary of the earlier part of this session]\n" +
		"The conversation before this point was condensed to save context (the full record stays in the session log). " +
		"The messages after this one are verbatim. Continue the work from here.\n\n<summary>\n")
	b.WriteString(summary)
	b.WriteString("\n</summary>")
	if todos != nil {
		b.WriteString("\n\nThe todo list as last written with todo_write (still current):")
		if len(todos.Todos) == 0 {
			b.WriteString("\n(empty)")
		}
		for _, t := range todos.Todos {
			fmt.Fprintf(&b, "\n- [%s] %s", t.Status, t.Content)
		}
	}
	return b.String()
}

// latestTodos is the last todo/write of events (nil when there is none).
func latestTodos(events []session.Event) *session.TodoWrite {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypeTodoWrite {
			continue
		}
		var d session.TodoWrite
		if json.Unmarshal(events[i].Data, &d) == nil {
			return &d
		}
	}
	return nil
}
