package prompt

import (
	"encoding/json"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
)

// SnapshotPlugin names the source of runtime-context snapshots in
// user/message events (source kind "plugin", form "snapshot").
const SnapshotPlugin = "runtime-context"

// Context is the runtime context the model must know but that changes
// during a session, so it travels as a user message rather than as system
// text. Empty fields are left out of the text.
type Context struct {
	Sandbox   string // sandbox mode: read-only, workspace-write, git-write, danger-full-access
	Approval  string // approval policy: ask or never
	Workspace string // workspace root
	Date      string // today's date, YYYY-MM-DD
	// Plan is set while plan mode is on (runtime/plan): the model learns
	// it at the next step boundary, and that it ended.
	Plan bool
	// Jobs are the session's running background jobs, one line each
	// (id, command, start time: nothing that changes while a job runs,
	// so the snapshot changes only when a job starts or ends). The
	// "Pending jobs" section is left out when none runs.
	Jobs []string
}

// Text renders the snapshot: a header line saying it supersedes earlier
// snapshots, then one line per known fact. A zero Context renders "".
func (c Context) Text() string {
	var lines []string
	if c.Workspace != "" {
		lines = append(lines, "Workspace root: "+c.Workspace)
	}
	if c.Sandbox != "" {
		lines = append(lines, "Sandbox mode: "+c.Sandbox+" ("+sandboxNote(c.Sandbox)+")")
	}
	if c.Approval != "" {
		lines = append(lines, "Approval policy: "+c.Approval+" ("+approvalNote(c.Approval)+")")
	}
	if c.Plan {
		lines = append(lines, "Plan mode: on (the workspace is read-only for every tool until the user approves your plan; explore, then call exit_plan_mode with it)")
	}
	if len(c.Jobs) > 0 {
		lines = append(lines, "Pending jobs (running in the background; job_output reads their output, job_kill stops them):")
		for _, j := range c.Jobs {
			lines = append(lines, "- "+j)
		}
	}
	if c.Date != "" {
		lines = append(lines, "Date: "+c.Date)
	}
	if len(lines) == 0 {
		return ""
	}
	return "Runtime context (this replaces any earlier runtime context):\n" + strings.Join(lines, "\n")
}

func sandboxNote(mode string) string {
	switch mode {
	case "read-only":
		return "tools may read the workspace but not change it"
	case "workspace-write":
		return "tools may change files inside the workspace only"
	case "git-write":
		return "tools may change files inside the workspace only, and git may write the repository's .git (commit, add, checkout, stash)"
	case "danger-full-access":
		return "tools may run commands on the host without confinement"
	}
	return "custom mode"
}

func approvalNote(policy string) string {
	switch policy {
	case "ask":
		return "calls that need approval are put to the user"
	case "never":
		return "calls that need approval are denied; do not ask for wider sandbox permissions"
	}
	return "custom policy"
}

// SnapshotSource is the source of a runtime-context user/message.
func SnapshotSource() session.Source {
	return session.Source{Kind: "plugin", Name: SnapshotPlugin, Form: "snapshot"}
}

// LastSnapshot returns the text of the latest runtime-context snapshot in
// events, if it is still on the surface. A snapshot a compaction summary
// replaced no longer reaches the model, so it counts as absent and the
// next step sends the context again.
func LastSnapshot(events []session.Event) (string, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypeUserMessage {
			continue
		}
		var m session.UserMessage
		if json.Unmarshal(events[i].Data, &m) != nil {
			continue
		}
		if m.Source != SnapshotSource() {
			continue
		}
		if on, err := session.OnSurface(events, i); err != nil || !on {
			return "", false
		}
		return blocksText(m.Content), true
	}
	return "", false
}

// SnapshotDue reports whether text must be appended as a new snapshot: it
// is non-empty and differs from the last snapshot still on the surface.
func SnapshotDue(events []session.Event, text string) bool {
	if text == "" {
		return false
	}
	last, ok := LastSnapshot(events)
	return !ok || last != text
}

func blocksText(blocks []session.Block) string {
	if len(blocks) == 1 {
		return blocks[0].Text
	}
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}
