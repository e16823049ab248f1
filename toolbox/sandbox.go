package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/jobs"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// SandboxConfig is the sandbox policy the sandbox tools run under. It is
// copied by NewSandbox and never changes after.
type SandboxConfig struct {
	// Workspace is the absolute workspace directory; "" means the
	// Workspace of the tools.Env on each call's context.
	Workspace string
	// Mode is the sandbox mode in force ("" = sandbox.DefaultMode).
	Mode sandbox.Mode
	// Network lets host programs the shell runs reach the network
	// (--network, or the preset's network option).
	Network bool
	// HostPrograms are the host programs the shell may run (the preset's
	// host_programs); nil means the sandbox host's default list.
	HostPrograms []string
	// Jobs are the session's background jobs (bash run_in_background,
	// job_list, job_output, job_kill) and Terminals its terminals
	// (terminal_*); nil outside a session, where those tools refuse.
	Jobs      *jobs.Manager
	Terminals *term.Manager
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
}

func newSet(host *sandbox.Host, cfg SandboxConfig) *set {
	if cfg.Mode == "" {
		cfg.Mode = sandbox.DefaultMode
	}
	return &set{host: host, cfg: cfg, seen: map[string]map[string]string{},
		shells: map[string]*sandbox.Shell{}, undo: map[string][]undoEntry{}}
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

// fileOp runs one file op on the host over the guest's confining mounts
// (sandbox.Host.File: the same answers as the guest's, without a guest
// call) and decodes its answer.
func (s *set) fileOp(ctx context.Context, mode sandbox.Mode, op string, req proto.FileRequest) (proto.FileResponse, error) {
	ws, err := s.workspace(ctx)
	if err != nil {
		return proto.FileResponse{}, err
	}
	req.Path = abs(ws, req.Path)
	resp, res, err := s.host.File(ctx, s.scope(ctx, ws, guestMode(mode)), op, req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return proto.FileResponse{}, tools.Errorf(tools.CodeToolTimeout, "the %s of %s timed out", op, req.Path)
		}
		return proto.FileResponse{}, err
	}
	if resp.Error != nil {
		if resp.Error.Code == proto.ErrIO && res.QuotaHit {
			return resp, tools.Errorf(tools.CodeSandboxDenied, "%s: %s", req.Path, res.Note)
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

// wanted is the mode an escalation asks for, "" when the call asks for
// none. A malformed request is INVALID_ARGS; one made while the session
// is read-only is DENIED (the pipeline refuses such calls already, since
// they Write; a tool reached some other way must not escalate either).
func (s *set) wanted(ctx context.Context, esc Escalation) (sandbox.Mode, error) {
	if esc.SandboxPermissions == "" && esc.Justification == "" {
		return "", nil
	}
	if _, readOnly := s.base(ctx); readOnly != "" {
		return "", tools.Errorf(tools.CodeDenied, "no wider sandbox while %s", readOnly)
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
	return want, nil
}

// escalation declares a tool's escalation to the pipeline (see
// tools.Escalator): what the call asks beyond the mode in force, and what
// a session grant for it covers — covers(args) is the command or path
// the user is shown. unconfined says whether the wider mode leaves every
// sandbox (only the bash tool's danger-full-access does: file tools stay
// in the guest).
func (s *set) escalation(covers func(args json.RawMessage) string, unconfined bool) tools.Option {
	return tools.Escalates(func(ctx context.Context, call tools.Call) (*tools.Escalation, error) {
		var esc Escalation
		if err := json.Unmarshal(call.Args, &esc); err != nil {
			return nil, tools.Errorf(tools.CodeInvalidArgs, "%v", err)
		}
		want, err := s.wanted(ctx, esc)
		if err != nil || want == "" {
			return nil, err
		}
		return &tools.Escalation{Mode: string(want), Current: string(s.cfg.Mode), Unconfined: unconfined && want == sandbox.DangerFullAccess,
			Justification: esc.Justification, Covers: covers(call.Args)}, nil
	})
}

// argString is the string field key of args ("" if absent): what an
// escalation's grant covers.
func argString(key string) func(json.RawMessage) string {
	return func(args json.RawMessage) string {
		var m map[string]any
		_ = json.Unmarshal(args, &m)
		v, _ := m[key].(string)
		return v
	}
}

// mode is the mode a call runs in: the mode in force, or the wider mode
// its escalation asked for once the pipeline approved exactly that
// (tools.Approved). Approval itself is the pipeline's: this only checks
// it happened, so a body reached without the pipeline never escalates.
func (s *set) mode(ctx context.Context, call tools.Call, esc Escalation) (sandbox.Mode, error) {
	want, err := s.wanted(ctx, esc)
	if err != nil {
		return "", err
	}
	if want == "" {
		return s.baseMode(ctx), nil
	}
	if got, ok := tools.Approved(ctx); !ok || got.Mode != string(want) {
		return "", tools.Errorf(tools.CodeDenied, "running %s in %s was not approved; do the task within %s", call.Name, want, s.cfg.Mode)
	}
	emit(tools.EnvFrom(ctx), session.TypeSandboxMode, session.SandboxMode{Mode: string(want), Reason: "approved for this call: " + esc.Justification, CallID: call.ID})
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

func emit(env *tools.Env, typ string, data any) {
	if env.Sink != nil {
		_ = env.Sink.Emit(typ, data)
	}
}
