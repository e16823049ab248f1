package sandbox

import "fmt"

// Mode is how much of the host a sandboxed command may touch.
type Mode string

// Modes, narrowest first.
const (
	// ReadOnly mounts the workspace read-only: every mutation fails.
	ReadOnly Mode = "read-only"
	// WorkspaceWrite mounts the workspace read-write except protected
	// paths (every .git, .ptc, .mcp.json, ...). It is the default.
	WorkspaceWrite Mode = "workspace-write"
	// GitWrite is WorkspaceWrite with the top-level .git writable for
	// git's own writes (add, commit, checkout, stash), except the files
	// that decide what git runs (rootfs.GitWriteKept). Still confined,
	// still no network.
	GitWrite Mode = "git-write"
	// DangerFullAccess lets the bash tool run commands with the host's
	// /bin/bash in the workspace: no confinement at all.
	DangerFullAccess Mode = "danger-full-access"
)

// DefaultMode is the mode used when none is given.
const DefaultMode = WorkspaceWrite

func (m Mode) rank() int {
	switch m {
	case ReadOnly:
		return 0
	case WorkspaceWrite:
		return 1
	case GitWrite:
		return 2
	case DangerFullAccess:
		return 3
	}
	return -1
}

// ParseMode accepts the mode names ("" means DefaultMode).
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return DefaultMode, nil
	}
	m := Mode(s)
	if m.rank() < 0 {
		return "", fmt.Errorf("unknown sandbox mode %q: use read-only, workspace-write, git-write or danger-full-access", s)
	}
	return m, nil
}

// WiderThan reports whether m grants strictly more than other, which is
// what an escalation request must ask for.
func (m Mode) WiderThan(other Mode) bool { return m.rank() > other.rank() }
