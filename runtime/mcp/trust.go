package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/ptc-dev/ptc/internal/trustfile"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// TrustFile is where approvals of project servers are kept, in $PTC_HOME.
const TrustFile = "mcp-trust.json"

// Trust remembers which project servers the user allowed to start, per
// workspace, by the fingerprint of their definition: editing a server in
// .mcp.json (another command, other args) needs a new approval.
type Trust struct{ file *trustfile.File[trustEntry] }

// trustEntry is one approval.
type trustEntry struct {
	Workspace   string `json:"workspace"`
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
}

// OpenTrust returns the trust store of a ptc home.
func OpenTrust(home string) *Trust {
	return &Trust{trustfile.Open[trustEntry](filepath.Join(home, TrustFile), "project servers")}
}

// Approved reports whether s, defined in workspace's project file, was
// approved as it is now written.
func (t *Trust) Approved(workspace string, s Server) (bool, error) {
	entries, err := t.file.Load()
	for _, e := range entries {
		if e.Workspace == workspace && e.Name == s.Name && e.Fingerprint == s.Fingerprint(workspace) {
			return true, nil
		}
	}
	return false, err
}

// Approve records that s may start in workspace (replacing an approval
// of an older definition). The file is replaced atomically.
func (t *Trust) Approve(workspace string, s Server) error {
	return t.update(func(es []trustEntry) []trustEntry {
		es = dropEntry(es, workspace, s.Name)
		return append(es, trustEntry{workspace, s.Name, s.Fingerprint(workspace)})
	})
}

// Revoke forgets the approval of the named server in workspace.
func (t *Trust) Revoke(workspace, name string) error {
	return t.update(func(es []trustEntry) []trustEntry { return dropEntry(es, workspace, name) })
}

func dropEntry(es []trustEntry, workspace, name string) []trustEntry {
	out := es[:0]
	for _, e := range es {
		if e.Workspace != workspace || e.Name != name {
			out = append(out, e)
		}
	}
	return out
}

// update changes the entries and keeps them sorted by workspace and name.
func (t *Trust) update(f func([]trustEntry) []trustEntry) error {
	return t.file.Update(func(es []trustEntry) []trustEntry {
		es = f(es)
		sort.Slice(es, func(i, j int) bool {
			if es[i].Workspace != es[j].Workspace {
				return es[i].Workspace < es[j].Workspace
			}
			return es[i].Name < es[j].Name
		})
		return es
	})
}

// Admit returns the servers that may start: every user and flag server,
// and the project servers the user approved. An unapproved project server
// is put to the session's approval service (env.Approvals, logging to
// env.Sink): an allow for the session is remembered in trust, an allow
// once is not; when nobody can answer (headless, --approval never, no
// env) it is skipped with a notice saying how to approve it. An admitted
// project server carries the fingerprint it was admitted with: it does
// not start, nor restart, once its definition or a file it names changed
// (see Pin).
func Admit(ctx context.Context, servers []Server, workspace string, trust *Trust, env *tools.Env) (admitted []Server, notices []string, err error) {
	for _, s := range servers {
		if s.Source != SourceProject {
			admitted = append(admitted, s)
			continue
		}
		s.workspace, s.admitted = workspace, s.Fingerprint(workspace)
		ok, err := trust.Approved(workspace, s)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			admitted = append(admitted, s)
			continue
		}
		answer := ""
		if env != nil && env.Approvals != nil {
			d, _ := env.Approvals.Decide(ctx, env, tools.Need{Remembered: true, Subject: "starting the MCP server " + printable(s.Name, 100),
				Question: tools.Question{Tool: "MCP server " + printable(s.Name, 100), Args: s.ApprovalText(workspace), Unconfined: !s.Confined(), Workspace: workspace,
					Text: fmt.Sprintf("This project's %s wants to start the MCP server %s, which runs %s. Start it? (Allowing for the session remembers it for this workspace, until the definition or a file it names changes.)",
						ProjectFile, printable(s.Name, 100), s.runsAs()),
				}})
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			answer = d.Answer
			if d.By != tools.ByUser {
				answer = ""
			}
		}
		switch answer {
		case tools.AnswerAllowSession:
			if err := trust.Approve(workspace, s); err != nil {
				return nil, nil, err
			}
			fallthrough
		case tools.AnswerAllowOnce:
			admitted = append(admitted, s)
		case tools.AnswerDeny:
			notices = append(notices, fmt.Sprintf("MCP server %s (from %s) was not started: you denied it.", printable(s.Name, 100), ProjectFile))
		default:
			notices = append(notices, fmt.Sprintf("MCP server %s (from %s) was not started: project servers need your approval, again whenever their definition or a file they name changes; run `ptc mcp approve %s` or start ptc interactively.", printable(s.Name, 100), ProjectFile, printable(s.Name, 100)))
		}
	}
	return admitted, notices, nil
}

// errChanged stops a project server whose definition or named files
// changed since it was admitted.
var errChanged = errors.New("changed since it was approved")

// stillAdmitted checks, before each start of a project server, that
// what it runs is what was approved.
func (s Server) stillAdmitted() error {
	if s.Source != SourceProject || s.admitted == "" {
		return nil
	}
	if s.Fingerprint(s.workspace) != s.admitted {
		return fmt.Errorf("%w (its definition in %s or a file its command line names); approve it again to start it (ptc mcp approve %s)",
			errChanged, ProjectFile, printable(s.Name, 100))
	}
	return nil
}
