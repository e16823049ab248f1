package toolbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/jobs"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Names of the job tools.
const (
	JobListName   = "job_list"
	JobOutputName = "job_output"
	JobKillName   = "job_kill"
)

// errNoJobs is the failure of a job tool built without a session.
var errNoJobs = tools.Errorf(tools.CodeToolFailed, "background jobs belong to a session, and this tool runs outside one")

// startJob starts a bash call with run_in_background as a job of the
// session: the same command in the same scope (mode, protection, quota,
// network) as in the foreground, its output streamed to the job's log
// instead of collected, and no time limit unless timeout_ms sets one.
func (s *set) startJob(ctx context.Context, call tools.Call, in BashIn, ws string, mode sandbox.Mode) (BashOut, error) {
	if s.cfg.Jobs == nil {
		return BashOut{}, errNoJobs
	}
	env := tools.EnvFrom(ctx)
	if env.SpillDir != "" {
		// The job's log goes there, and the sandbox mounts it (read-only)
		// only when it exists, so the model can read the log.
		_ = os.MkdirAll(env.SpillDir, 0o700)
	}
	scope := s.scope(ctx, ws, mode)
	workdir := abs(ws, in.Workdir)
	run := func(ctx context.Context, w io.Writer) (int, string, error) {
		var o sandbox.Outcome
		var err error
		if mode == sandbox.DangerFullAccess {
			o, err = s.host.HostShellStream(ctx, workdir, in.Command, w)
		} else {
			o, err = s.host.RunStream(ctx, scope, proto.Request{Op: proto.OpShell, Command: in.Command, Cwd: workdir}, w)
		}
		return o.ExitCode, o.Note, err
	}
	timeout := time.Duration(in.TimeoutMS) * time.Millisecond
	info, err := s.cfg.Jobs.Start(jobs.Spec{Command: in.Command, Description: in.Description, CallID: call.ID, Mode: string(mode), Timeout: timeout, Run: run})
	if err != nil {
		return BashOut{}, err
	}
	out := BashOut{JobID: info.ID, OutputFile: info.Output, Host: mode == sandbox.DangerFullAccess}
	if out.Host {
		out.Note = sandbox.HostNote
		emit(env, session.TypeSandboxMode, session.SandboxMode{Mode: string(mode), Reason: "a background job runs on the host: " + in.Description, CallID: call.ID})
	}
	return out, nil
}

func renderJobStart(o BashOut) string {
	var b strings.Builder
	if o.Host {
		b.WriteString("[" + sandbox.HostNote + "]\n")
	}
	fmt.Fprintf(&b, "Started background job %s; its output goes to %s.\nRead it with job_output {\"job_id\": %q}, stop it with job_kill; you will be told when it ends.", o.JobID, o.OutputFile, o.JobID)
	return b.String()
}

// JobInfo is one job as the job tools show it.
type JobInfo struct {
	JobID       string `json:"job_id"`
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status"`
	ExitCode    *int   `json:"exit_code,omitempty"`
	EndedBy     string `json:"ended_by,omitempty"`
	Note        string `json:"note,omitempty"`
	Started     string `json:"started"`
	OutputBytes int64  `json:"output_bytes"`
	OutputFile  string `json:"output_file,omitempty"`
}

const jobInfoProps = `"job_id": {"type": "string"},
	"command": {"type": "string"},
	"description": {"type": "string"},
	"status": {"type": "string", "enum": ["running", "exited", "killed"]},
	"exit_code": {"type": "integer", "description": "set once the job ended"},
	"ended_by": {"type": "string", "description": "who killed it: model, user, timeout, session, ptc-exit"},
	"note": {"type": "string"},
	"started": {"type": "string", "description": "RFC 3339 start time"},
	"output_bytes": {"type": "integer"},
	"output_file": {"type": "string", "description": "the file holding the job's output"}`

const jobInfoRequired = `"job_id", "command", "status", "started", "output_bytes"`

func jobInfo(i jobs.Info) JobInfo {
	return JobInfo{JobID: i.ID, Command: i.Command, Description: i.Description, Status: i.Status, ExitCode: i.ExitCode,
		EndedBy: i.By, Note: i.Note, Started: i.Started.Format(time.RFC3339), OutputBytes: i.OutputBytes, OutputFile: i.Output}
}

// status is a job's state in a few words ("running", "exited 0",
// "killed by model").
func (j JobInfo) status() string {
	switch {
	case j.Status == session.JobRunning:
		return "running"
	case j.EndedBy != "":
		return "killed by " + j.EndedBy
	case j.ExitCode != nil:
		return fmt.Sprintf("exited %d", *j.ExitCode)
	}
	return j.Status
}

func jobSpec(name, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: doc(name), InputSchema: []byte(in), OutputSchema: []byte(out)}
}
