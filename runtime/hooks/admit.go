package hooks

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// admit says why h may not run now, or "" when it may: user hooks always
// may; a project hook once the user approved its definition, through the
// session's approval service (env.Approvals) — an allow for the session
// is remembered per workspace in Trust, an allow once for this session.
// Without anyone to answer it is skipped, and not asked again this session.
func (e *Engine) admit(ctx context.Context, env *tools.Env, h Hook) string {
	if h.Source != SourceProject {
		return ""
	}
	if e.cfg.Project == nil {
		return "project hooks cannot run here (no sandbox)"
	}
	m := e.cfg.Memo
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.decided == nil {
		m.decided = map[string]bool{}
	}
	fp := h.Fingerprint()
	if ok, seen := m.decided[fp]; seen {
		return notApproved(ok)
	}
	if e.cfg.Trust != nil {
		if ok, err := e.cfg.Trust.Approved(e.cfg.Workspace, h); err != nil {
			return err.Error()
		} else if ok {
			m.decided[fp] = true
			return ""
		}
	}
	if env == nil || env.Approvals == nil {
		m.decided[fp] = false
		return notApproved(false)
	}
	cmd := clip.String(termsafe.Visible(h.Command), 2000)
	d, _ := env.Approvals.Decide(ctx, env, tools.Need{Remembered: true, Subject: "running the project hook " + h.Name(),
		Question: tools.Question{Tool: "project hook " + h.Name(), Args: cmd, Workspace: e.cfg.Workspace,
			Text: fmt.Sprintf("This project's .ptc/settings.json wants to run a %s hook (matcher %q): %s. It would run confined in the sandbox. Allow it? (Allowing for the session remembers it for this workspace until the definition changes.)",
				h.Event, termsafe.Line(h.Matcher), cmd)}})
	ok := d.By == tools.ByUser && (d.Answer == tools.AnswerAllowOnce || d.Answer == tools.AnswerAllowSession)
	if ok && d.Answer == tools.AnswerAllowSession && e.cfg.Trust != nil {
		if err := e.cfg.Trust.Approve(e.cfg.Workspace, h); err != nil {
			return err.Error()
		}
	}
	if ctx.Err() == nil {
		m.decided[fp] = ok
	}
	return notApproved(ok)
}

func notApproved(ok bool) string {
	if ok {
		return ""
	}
	return "a project hook runs only once you approve it (start ptc interactively in this workspace to be asked)"
}
