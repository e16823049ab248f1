package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/checkpoint"
)

// RewindBackend is the part of a Backend that reaches the session's
// checkpoints (/diff, /rewind). A Backend without it (a remote session)
// has neither.
type RewindBackend interface {
	// History is what the session's turns changed in the workspace, and
	// the store holding the bytes.
	History(ctx context.Context) (checkpoint.History, checkpoint.Store, error)
	// Rewind puts the workspace (and unless filesOnly the conversation)
	// back to before turn toTurn; force overwrites files changed outside
	// ptc since. The plan says what was done or, on a refusal, why not.
	Rewind(ctx context.Context, toTurn int, filesOnly, force bool) (checkpoint.Plan, error)
}

// maxDiffLines bounds the diff /diff shows in the transcript.
const maxDiffLines = 400

// cmdDiff shows the session's changes to the workspace as a diff.
func (m *Model) cmdDiff(arg string) tea.Cmd {
	rb, ok := m.be.(RewindBackend)
	if !ok {
		m.tr.notice(toneWarn, "this session's changes are not reachable from here (ptc session diff ID)")
		return nil
	}
	h, store, err := rb.History(context.Background())
	if err != nil {
		m.tr.notice(toneError, "/diff: "+err.Error())
		return nil
	}
	turns := h.Turns
	if arg != "" {
		n, err := strconv.Atoi(arg)
		t, ok := h.Find(n)
		if err != nil || !ok {
			m.tr.notice(toneWarn, "/diff takes a turn number of this session (/rewind lists them)")
			return nil
		}
		turns = []checkpoint.Turn{t}
	}
	out := checkpoint.Unified(checkpoint.Net(turns), store)
	if out == "" {
		m.tr.notice(toneInfo, "no changes to the workspace")
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > maxDiffLines {
		lines = append(lines[:maxDiffLines], fmt.Sprintf("… %d more line(s): ptc session diff %s", len(lines)-maxDiffLines, m.be.ID()))
	}
	for i, l := range lines {
		lines[i] = termsafe.Line(l)
	}
	m.tr.notice(toneInfo, strings.Join(lines, "\n"))
	return nil
}

// cmdRewind lists the turns that changed files (no argument) or rewinds
// to before turn N: "/rewind N" the files and the conversation, "/rewind
// N files" the files only, "force" overwriting hand edits after a
// refusal named them.
func (m *Model) cmdRewind(arg string) tea.Cmd {
	rb, ok := m.be.(RewindBackend)
	if !ok {
		m.tr.notice(toneWarn, "this session cannot be rewound from here (ptc rewind ID)")
		return nil
	}
	fields := strings.Fields(arg)
	if len(fields) == 0 {
		h, _, err := rb.History(context.Background())
		if err != nil {
			m.tr.notice(toneError, "/rewind: "+err.Error())
			return nil
		}
		m.tr.notice(toneInfo, turnListing(h))
		return nil
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		m.tr.notice(toneWarn, "/rewind N [files] [force]: N is a turn number (/rewind lists them)")
		return nil
	}
	var filesOnly, force bool
	for _, f := range fields[1:] {
		switch f {
		case "files":
			filesOnly = true
		case "force":
			force = true
		default:
			m.tr.notice(toneWarn, "/rewind N [files] [force]: unknown word "+termsafe.Line(f))
			return nil
		}
	}
	plan, err := rb.Rewind(context.Background(), n, filesOnly, force)
	if err != nil {
		msg := "/rewind: " + termsafe.String(err.Error())
		if len(plan.Conflicts) > 0 && !force {
			msg += fmt.Sprintf("\n/rewind %s force overwrites them", strings.Join(fields, " "))
		}
		m.tr.notice(toneError, msg)
		return nil
	}
	what := "files and conversation"
	if filesOnly {
		what = "files"
	}
	if !filesOnly {
		m.load() // the session as it now stands (the rewind is an event)
	}
	m.tr.notice(toneInfo, fmt.Sprintf("rewound %s to before turn %d: %d path(s) put back", what, n, len(plan.Actions)))
	return nil
}

// turnListing names the turns that changed files and the files.
func turnListing(h checkpoint.History) string {
	turns := h.Changed()
	if len(turns) == 0 {
		return "no turn of this session changed files"
	}
	var b strings.Builder
	for _, t := range turns {
		fmt.Fprintf(&b, "turn %d: %s\n", t.Turn, termsafe.Clip(strings.ReplaceAll(t.Prompt, "\n", " "), 70))
		for _, f := range t.Files {
			fmt.Fprintf(&b, "  %s\n", termsafe.Line(f.Path))
		}
	}
	b.WriteString("/rewind N puts the files and the conversation back to before turn N (/rewind N files: the files only; /diff N shows a turn's changes)")
	return b.String()
}
