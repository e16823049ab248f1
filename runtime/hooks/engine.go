package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// maxReason caps a hook's reason or context as the model and events see it.
const maxReason = 4000

// Config is what an Engine needs besides its hooks.
type Config struct {
	Workspace string
	SessionID string
	// Trust remembers approved project hooks; nil remembers none.
	Trust *Trust
	// User runs user hooks (nil: HostExec); Project runs approved
	// project hooks confined (nil: project hooks never run).
	User, Project Exec
	// Memo keeps this session's answers about project hooks across the
	// engines a settings change rebuilds (nil: the engine's own).
	Memo *Memo
}

// Memo is a session's answer per project hook definition, so the user
// is asked once per session. Its zero value is ready.
type Memo struct {
	mu      sync.Mutex
	decided map[string]bool
}

// Engine runs a session's hooks at its events.
type Engine struct {
	set *Set
	cfg Config
}

// New returns the engine of set under cfg.
func New(set *Set, cfg Config) *Engine {
	if cfg.User == nil {
		cfg.User = HostExec
	}
	if cfg.Memo == nil {
		cfg.Memo = &Memo{}
	}
	return &Engine{set: set, cfg: cfg}
}

// Len is how many hooks the engine has.
func (e *Engine) Len() int { return e.set.Len() }

// ErrRefused wraps a UserPromptSubmit refusal.
var ErrRefused = errors.New("the prompt was refused by a hook")

// answer is what a hook's stdout may say when it is JSON.
type answer struct {
	Decision          string          `json:"decision"`
	Reason            string          `json:"reason"`
	AdditionalContext string          `json:"additionalContext"`
	UpdatedInput      json.RawMessage `json:"updatedInput"`
	Specific          *struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// parseAnswer reads stdout as JSON when it is an object; plain text is
// no answer (ok false, err nil).
func parseAnswer(stdout string) (answer, bool, error) {
	var a answer
	s := strings.TrimSpace(stdout)
	if !strings.HasPrefix(s, "{") {
		return a, false, nil
	}
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		return a, false, fmt.Errorf("its stdout starts like JSON but is not: %v", err)
	}
	if sp := a.Specific; sp != nil {
		a.Decision = or(sp.PermissionDecision, a.Decision)
		a.Reason = or(sp.PermissionDecisionReason, a.Reason)
		a.AdditionalContext = or(sp.AdditionalContext, a.AdditionalContext)
		if sp.UpdatedInput != nil {
			a.UpdatedInput = sp.UpdatedInput
		}
	}
	return a, true, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// clean makes a hook's text safe to show and log: terminal controls
// escaped, capped.
func clean(s string) string { return clip.String(termsafe.String(strings.TrimSpace(s)), maxReason) }

// run runs h if it may run (a project hook only once approved) and
// returns the run and its hook/run event for the caller to complete with
// the decision and emit; ran false means skipped (the event is emitted).
func (e *Engine) run(ctx context.Context, env *tools.Env, h Hook, payload map[string]any) (Run, session.HookRun, bool) {
	ev := session.HookRun{Event: string(h.Event), Hook: h.Name(), Source: h.Source, Command: clip.String(termsafe.Line(h.Command), 300)}
	if t, ok := payload["tool_name"].(string); ok {
		ev.Tool = t
	}
	if id, ok := payload["tool_use_id"].(string); ok {
		ev.CallID = id
	}
	if why := e.admit(ctx, env, h); why != "" {
		ev.Decision, ev.Reason = session.HookSkipped, why
		emit(env, ev)
		return Run{}, ev, false
	}
	payload["session_id"], payload["cwd"], payload["hook_event_name"] = e.cfg.SessionID, e.cfg.Workspace, string(h.Event)
	stdin, _ := json.Marshal(payload)
	exec := e.cfg.User
	if h.Source == SourceProject {
		exec = e.cfg.Project
	}
	rctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	r := exec(rctx, Spec{Hook: h, Stdin: stdin, Dir: e.cfg.Workspace, Env: []string{
		"PTC_PROJECT_DIR=" + e.cfg.Workspace, "CLAUDE_PROJECT_DIR=" + e.cfg.Workspace, "PTC_SESSION_ID=" + e.cfg.SessionID, "PTC_HOOK_EVENT=" + string(h.Event)}})
	ev.ExitCode, ev.TimedOut, ev.DurationMs = r.ExitCode, r.TimedOut, r.Duration.Milliseconds()
	return r, ev, true
}

// emit logs a hook/run event to env's Sink.
func emit(env *tools.Env, ev session.HookRun) {
	if env != nil && env.Sink != nil {
		_ = env.Sink.Emit(session.TypeHookRun, ev)
	}
}

// failure says why a run that did not exit normally failed, or "".
func failure(h Hook, r Run) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("hook %s timed out after %d ms", h.Name(), h.Timeout.Milliseconds())
	case r.Err != nil:
		return fmt.Sprintf("hook %s could not run: %s", h.Name(), clean(r.Err.Error()))
	}
	return ""
}
