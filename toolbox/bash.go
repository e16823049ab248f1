package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Bash timeouts.
const (
	DefaultBashTimeout = 120 * time.Second
	MaxBashTimeout     = 600 * time.Second
)

// BashIn is the bash tool's input.
type BashIn struct {
	Command     string `json:"command"`
	Description string `json:"description"`
	TimeoutMS   int    `json:"timeout_ms,omitempty"`
	Workdir     string `json:"workdir,omitempty"`
	// RunInBackground starts the command as a job of the session and
	// returns at once (see job.go).
	RunInBackground bool `json:"run_in_background,omitempty"`
	Escalation
}

// BashOut is the bash tool's value.
type BashOut struct {
	ExitCode  int    `json:"exit_code"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	Truncated bool   `json:"truncated"`
	TimedOut  bool   `json:"timed_out"`
	Host      bool   `json:"host,omitempty"`
	Note      string `json:"note,omitempty"`
	// JobID and OutputFile name the job a run_in_background call started
	// and the file its output goes to.
	JobID      string `json:"job_id,omitempty"`
	OutputFile string `json:"output_file,omitempty"`
}

const escalationProps = `,
    "sandbox_permissions": {"type": "string", "enum": ["read-only", "workspace-write", "git-write", "danger-full-access"], "description": "Run this call in a wider sandbox mode (needs the user's approval, once or for the session). git-write lets git commit, add, checkout and stash write the repository's .git while everything stays confined; danger-full-access runs on the host without a sandbox. Give together with justification."},
    "justification": {"type": "string", "description": "Why this call needs the wider mode; shown to the user."}`

var bashInSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "Shell command to run."},
    "description": {"type": "string", "description": "Five to ten words saying what the command does."},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 600000, "description": "Timeout in milliseconds (default 120000)."},
    "workdir": {"type": "string", "description": "Directory to run in (default: the workspace)."},
    "run_in_background": {"type": "boolean", "description": "Start the command as a background job and return at once with its job_id (for servers, watchers, long builds); read its output with job_output, stop it with job_kill. timeout_ms then caps its run (default: no cap)."}` + escalationProps + `
  },
  "required": ["command", "description"],
  "additionalProperties": false
}`

const bashOutSchema = `{
  "type": "object",
  "properties": {
    "exit_code": {"type": "integer"},
    "stdout": {"type": "string"},
    "stderr": {"type": "string"},
    "truncated": {"type": "boolean"},
    "timed_out": {"type": "boolean"},
    "host": {"type": "boolean", "description": "true when the command ran on the host, outside the sandbox"},
    "note": {"type": "string"},
    "job_id": {"type": "string", "description": "the background job started (run_in_background)"},
    "output_file": {"type": "string", "description": "the file the job's output goes to"}
  },
  "required": ["exit_code", "stdout", "stderr", "truncated", "timed_out"],
  "additionalProperties": false
}`

func (s *set) bash() tools.Tool {
	spec := tools.Spec{Name: "bash", Description: doc("bash"), InputSchema: []byte(bashInSchema), OutputSchema: []byte(bashOutSchema), Timeout: MaxBashTimeout + 10*time.Second}
	return tools.New(spec, s.runBash, tools.Writes(escalates), s.escalation(argString("command"), true), tools.WithRenderer(func(v any) string { return renderBash(v.(BashOut)) }))
}

func (s *set) runBash(ctx context.Context, call tools.Call, in BashIn) (BashOut, error) {
	mode, err := s.mode(ctx, call, in.Escalation)
	if err != nil {
		return BashOut{}, err
	}
	ws, err := s.workspace(ctx)
	if err != nil {
		return BashOut{}, err
	}
	if in.RunInBackground {
		return s.startJob(ctx, call, in, ws, mode)
	}
	timeout := DefaultBashTimeout
	if in.TimeoutMS > 0 {
		timeout = min(time.Duration(in.TimeoutMS)*time.Millisecond, MaxBashTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	o, err := RunCommand(ctx, s.host, s.scope(ctx, ws, mode), in.Command, abs(ws, in.Workdir))
	if err != nil {
		return BashOut{}, err
	}
	if o.Host {
		emit(tools.EnvFrom(ctx), session.TypeSandboxMode, session.SandboxMode{Mode: string(mode), Reason: "bash ran on the host: " + in.Description, CallID: call.ID})
	}
	return BashOut{ExitCode: o.ExitCode, Stdout: string(o.Stdout), Stderr: string(o.Stderr), Truncated: o.Truncated,
		TimedOut: o.TimedOut, Host: o.Host, Note: s.readOnlyNote(ctx, o.ExitCode, o.Note)}, nil
}

// readOnlyNote adds to a failed command's note that the session is
// read-only (plan mode), the likely reason a write in it failed.
func (s *set) readOnlyNote(ctx context.Context, exit int, note string) string {
	_, why := s.base(ctx)
	if why == "" || exit == 0 {
		return note
	}
	n := why + ": the workspace is read-only, so commands that change files fail"
	if note != "" {
		n = note + "; " + n
	}
	return n
}

// RunCommand runs one command in scope (workspace, mode, session, spill,
// network) exactly as the bash tool does: with the host's /bin/bash in
// danger-full-access, otherwise in a fresh guest shell in workdir.
// `ptc sh` uses it too.
func RunCommand(ctx context.Context, host *sandbox.Host, scope sandbox.Scope, command, workdir string) (sandbox.Outcome, error) {
	if scope.Mode == sandbox.DangerFullAccess {
		return host.HostShell(ctx, workdir, command)
	}
	return host.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: command, Cwd: workdir})
}

func renderBash(o BashOut) string {
	if o.JobID != "" {
		return renderJobStart(o)
	}
	var b strings.Builder
	note := o.Note
	if o.Host {
		// One marker, first: the note repeats it otherwise.
		b.WriteString("[" + sandbox.HostNote + "]\n")
		note = strings.TrimPrefix(strings.TrimPrefix(note, sandbox.HostNote), "; ")
	}
	b.WriteString(o.Stdout)
	if o.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n" + o.Stderr)
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	if o.ExitCode != 0 {
		fmt.Fprintf(&b, "[exit code %d]\n", o.ExitCode)
	}
	if note != "" {
		fmt.Fprintf(&b, "[%s]\n", note)
	}
	if b.Len() == 0 {
		return "(no output)"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
