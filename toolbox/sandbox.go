package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// SandboxConfig is the sandbox policy the sandbox tools run under. It is
// copied by NewSandbox and never changes after.
type SandboxConfig struct {
	// Workspace is the absolute workspace directory; "" means the
	// Workspace of the tools.Env on each call's context.
	Workspace string
	// Mode is the sandbox mode in force ("" = sandbox.DefaultMode).
	Mode sandbox.Mode
	// Approval decides escalation requests (sandbox_permissions): under
	// tools.PolicyNever they are denied without asking. "" means ask.
	Approval tools.Policy
	// Network lets host programs the shell runs reach the network
	// (--network, or the preset's network option).
	Network bool
	// HostPrograms are the host programs the shell may run (the preset's
	// host_programs); nil means the sandbox host's default list.
	HostPrograms []string
}

// set is the shared state of one tool set: the host, the policy and the
// per-session record of file contents the model has read.
type set struct {
	host *sandbox.Host
	cfg  SandboxConfig

	mu     sync.Mutex
	seen   map[string]map[string]string // session → path → sha256 at last read/write
	shells map[string]*sandbox.Shell    // session and mode → persistent shell (minimal)
	undo   map[string][]undoEntry       // session+path → previous contents
	grants map[string]sandbox.Mode      // session → mode escalations were allowed to for the session
}

func newSet(host *sandbox.Host, cfg SandboxConfig) *set {
	if cfg.Mode == "" {
		cfg.Mode = sandbox.DefaultMode
	}
	if cfg.Approval == "" {
		cfg.Approval = tools.PolicyAsk
	}
	return &set{host: host, cfg: cfg, seen: map[string]map[string]string{},
		shells: map[string]*sandbox.Shell{}, undo: map[string][]undoEntry{}, grants: map[string]sandbox.Mode{}}
}

// Sandbox is one build's sandbox tool set: bash, read, write, edit, glob,
// grep, shell and str_replace_editor built from it share the host, the
// policy, the per-session record of what the model has read (write and
// edit check it), the persistent shells, the undo stacks and the
// escalation grants.
type Sandbox struct{ set *set }

// NewSandbox returns the sandbox tool set over host under cfg.
func NewSandbox(host *sandbox.Host, cfg SandboxConfig) *Sandbox {
	return &Sandbox{set: newSet(host, cfg)}
}

// Tool builds the sandbox tool called name from this set; false when name
// is not a sandbox tool.
func (sb *Sandbox) Tool(name string) (tools.Tool, bool) {
	if e, ok := Lookup(name); !ok || e.Needs&NeedsSandbox == 0 {
		return nil, false
	}
	t, err := Build(name, Deps{Sandbox: func() (*Sandbox, error) { return sb, nil }})
	return t, err == nil
}

func (s *set) workspace(ctx context.Context) (string, error) {
	ws := s.cfg.Workspace
	if ws == "" {
		ws = tools.EnvFrom(ctx).Workspace
	}
	if ws == "" || !filepath.IsAbs(ws) {
		return "", fmt.Errorf("toolbox: no absolute workspace configured (got %q)", ws)
	}
	return filepath.Clean(ws), nil
}

// abs resolves a model-given path against the workspace. Confinement is
// the guest mount's job; this only makes relative paths absolute.
func abs(ws, p string) string {
	if p == "" {
		return ws
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(ws, p)
}

// fileOp runs one file op in the guest and decodes its answer.
func (s *set) fileOp(ctx context.Context, mode sandbox.Mode, op string, req proto.FileRequest) (proto.FileResponse, error) {
	ws, err := s.workspace(ctx)
	if err != nil {
		return proto.FileResponse{}, err
	}
	req.Path = abs(ws, req.Path)
	o, err := s.host.RunIn(ctx, s.scope(ctx, ws, guestMode(mode)), proto.Request{Op: op, File: &req})
	if err != nil {
		return proto.FileResponse{}, err
	}
	if o.TimedOut {
		return proto.FileResponse{}, tools.Errorf(tools.CodeToolTimeout, "the %s of %s timed out", op, req.Path)
	}
	var resp proto.FileResponse
	if err := json.Unmarshal(o.Stdout, &resp); err != nil || o.ExitCode != 0 {
		return resp, &sandbox.GuestError{Err: fmt.Errorf("%s answered exit %d, %q: %v", op, o.ExitCode, clip.String(string(o.Stdout)+string(o.Stderr), 300), err)}
	}
	if resp.Error != nil {
		if resp.Error.Code == proto.ErrIO && o.QuotaHit {
			return resp, tools.Errorf(tools.CodeSandboxDenied, "%s: %s", req.Path, o.Note)
		}
		return resp, fileError(req.Path, resp.Error)
	}
	return resp, nil
}

// scope is where a call of the session on ctx runs: its quota, its spill
// directory, the network setting.
func (s *set) scope(ctx context.Context, ws string, mode sandbox.Mode) sandbox.Scope {
	env := tools.EnvFrom(ctx)
	sc := sandbox.Scope{Workspace: ws, Mode: mode, Session: env.SessionID, Network: s.cfg.Network, Programs: s.cfg.HostPrograms}
	if env.SpillDir != "" && filepath.IsAbs(env.SpillDir) {
		if _, err := os.Stat(env.SpillDir); err == nil {
			sc.Spill = env.SpillDir
		}
	}
	return sc
}

// guestMode is the mode of work that never leaves the guest (file ops and
// the minimal preset's shell): danger-full-access there means a writable
// workspace, since only the bash tool has a host shell to escalate to.
func guestMode(m sandbox.Mode) sandbox.Mode {
	if m == sandbox.DangerFullAccess {
		return sandbox.WorkspaceWrite
	}
	return m
}

// fileError turns a guest file error into a tool failure the model can act on.
func fileError(p string, e *proto.FileError) *tools.Error {
	switch e.Code {
	case proto.ErrStale:
		return tools.Errorf(tools.CodeToolFailed, "%s changed since you last read it; read it again before changing it", p)
	case proto.ErrNotUnique:
		return tools.Errorf(tools.CodeToolFailed, "old_string matches %d times in %s; add surrounding lines to make it unique, or set replace_all", e.Count, p)
	case proto.ErrExists:
		return tools.Errorf(tools.CodeToolFailed, "%s already exists; read it first, then write or edit it", p)
	case proto.ErrPermission:
		return tools.Errorf(tools.CodeSandboxDenied, "%s: %s (the sandbox does not allow this in its current mode)", p, e.Message)
	}
	return tools.Errorf(tools.CodeToolFailed, "%s", e.Message)
}

func (s *set) remember(ctx context.Context, p, sum string) {
	sid := tools.EnvFrom(ctx).SessionID
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.seen[sid]
	if m == nil {
		m = map[string]string{}
		s.seen[sid] = m
	}
	if sum == "" {
		delete(m, p)
		return
	}
	m[p] = sum
}

func (s *set) lastSeen(ctx context.Context, p string) (string, bool) {
	sid := tools.EnvFrom(ctx).SessionID
	s.mu.Lock()
	defer s.mu.Unlock()
	sum, ok := s.seen[sid][p]
	return sum, ok
}

// Escalation is the optional pair a bash, write or edit call may carry to
// run once in a wider sandbox mode.
type Escalation struct {
	SandboxPermissions string `json:"sandbox_permissions,omitempty"`
	Justification      string `json:"justification,omitempty"`
}

// mode decides the mode a call runs in, asking for approval when the call
// requests escalation. A refusal is a tool failure (INVALID_ARGS or
// SANDBOX_DENIED).
func (s *set) mode(ctx context.Context, call tools.Call, esc Escalation) (sandbox.Mode, error) {
	base, readOnly := s.base(ctx)
	if esc.SandboxPermissions == "" && esc.Justification == "" {
		return base, nil
	}
	if readOnly != "" {
		// The pipeline refuses these calls already (they Write); a tool
		// reached some other way must not escalate either.
		return "", tools.Errorf(tools.CodeSandboxDenied, "no wider sandbox while %s", readOnly)
	}
	if esc.SandboxPermissions == "" || strings.TrimSpace(esc.Justification) == "" {
		return "", tools.Errorf(tools.CodeInvalidArgs, "sandbox_permissions and justification go together: give both or neither")
	}
	want, err := sandbox.ParseMode(esc.SandboxPermissions)
	if err != nil {
		return "", tools.Errorf(tools.CodeInvalidArgs, "%v", err)
	}
	if !want.WiderThan(s.cfg.Mode) {
		return "", tools.Errorf(tools.CodeInvalidArgs, "sandbox_permissions %q is not wider than the current mode %q; drop it", want, s.cfg.Mode)
	}
	env := tools.EnvFrom(ctx)
	decided := func(decision, by, why string) {
		emit(env, session.TypeApprovalDecided, session.ApprovalDecided{CallID: call.ID, Name: call.Name, Decision: decision, By: by, Reason: why})
	}
	if s.granted(env.SessionID, want) {
		decided(tools.AnswerAllowSession, "grant", "allowed earlier for this session")
		emit(env, session.TypeSandboxMode, session.SandboxMode{Mode: string(want), Reason: "allowed for this session: " + esc.Justification, CallID: call.ID})
		return want, nil
	}
	if s.cfg.Approval == tools.PolicyNever {
		decided(tools.AnswerDeny, "policy", "approval policy is never")
		return "", tools.Errorf(tools.CodeSandboxDenied, "running in %s needs approval and the approval policy is never; do the task within %s", want, s.cfg.Mode)
	}
	reason := fmt.Sprintf("escalate to %s: %s", want, esc.Justification)
	emit(env, session.TypeApprovalAsked, session.ApprovalAsked{CallID: call.ID, Name: call.Name, Arguments: call.Raw, Reason: reason})
	if env.Answerer == nil {
		decided(tools.AnswerDeny, "policy", "no answerer")
		return "", tools.Errorf(tools.CodeSandboxDenied, "running in %s needs approval and nobody can be asked; do the task within %s", want, s.cfg.Mode)
	}
	answer, err := env.Answerer.Ask(ctx, tools.Question{Kind: "approval", CallID: call.ID, Tool: call.Name, Args: call.Raw,
		Text:    fmt.Sprintf("Allow this %s call to run in %s (current mode %s)? Reason given: %s", call.Name, want, s.cfg.Mode, esc.Justification),
		Options: []string{tools.AnswerAllowOnce, tools.AnswerAllowSession, tools.AnswerDeny}})
	if err != nil || answer != tools.AnswerAllowOnce && answer != tools.AnswerAllowSession {
		why := "user"
		if err != nil {
			why = err.Error()
		}
		decided(tools.AnswerDeny, "user", why)
		return "", tools.Errorf(tools.CodeSandboxDenied, "the escalation to %s was not approved; do the task within %s or ask the user", want, s.cfg.Mode)
	}
	decided(answer, "user", "")
	why := "approved for this call only: "
	if answer == tools.AnswerAllowSession {
		s.grant(env.SessionID, want)
		why = "approved for this session: "
	}
	emit(env, session.TypeSandboxMode, session.SandboxMode{Mode: string(want), Reason: why + esc.Justification, CallID: call.ID})
	return want, nil
}

// base is the mode a call runs in without escalation: read-only while the
// session is (plan mode, tools.Env.ReadOnly, whose reason is returned),
// else the configured mode. Read at each call, so every tier of every
// tool follows a switch at once.
func (s *set) base(ctx context.Context) (sandbox.Mode, string) {
	if ro := tools.EnvFrom(ctx).ReadOnly; ro != nil {
		if why := ro(); why != "" {
			return sandbox.ReadOnly, why
		}
	}
	return s.cfg.Mode, ""
}

// baseMode is base without the reason.
func (s *set) baseMode(ctx context.Context) sandbox.Mode {
	m, _ := s.base(ctx)
	return m
}

// escalates is the Writes predicate of a tool that takes an Escalation:
// asking for a wider sandbox counts as writing, so a read-only session
// refuses it in the pipeline.
func escalates(args json.RawMessage) bool {
	var esc Escalation
	return json.Unmarshal(args, &esc) == nil && (esc.SandboxPermissions != "" || esc.Justification != "")
}

// grant remembers that the session may escalate up to m without asking.
func (s *set) grant(sid string, m sandbox.Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.WiderThan(s.grants[sid]) {
		s.grants[sid] = m
	}
}

// granted reports whether the session was allowed m (or wider) before.
func (s *set) granted(sid string, m sandbox.Mode) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.grants[sid]
	return ok && !m.WiderThan(g)
}

func emit(env *tools.Env, typ string, data any) {
	if env.Sink != nil {
		_ = env.Sink.Emit(typ, data)
	}
}
