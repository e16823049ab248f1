package toolbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/jobs"
)

// jobRunner is a pipeline over the sandbox and job tools of a session
// whose read-only switch is readOnly.
func jobRunner(t *testing.T, m *jobs.Manager, readOnly func() string) (func(name, args string) tools.Result, string) {
	t.Helper()
	ws := t.TempDir()
	sb := NewSandbox(testHost(), SandboxConfig{Workspace: ws, Mode: sandbox.WorkspaceWrite, Jobs: m})
	var all []tools.Tool
	for _, name := range []string{"bash", JobListName, JobOutputName, JobKillName} {
		tool, _ := sb.Tool(name)
		all = append(all, tool)
	}
	reg, err := tools.NewRegistry(tools.PresentNative, all...)
	if err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{SessionID: "s-" + t.Name(), Workspace: ws, SpillDir: t.TempDir(), ReadOnly: readOnly}
	r := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever), Env: env})
	return func(name, args string) tools.Result {
		return r.Dispatch(context.Background(), tools.Call{ID: "c", Name: name, Raw: args})
	}, ws
}

func newJobs(t *testing.T) *jobs.Manager {
	t.Helper()
	m, err := jobs.New(jobs.Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func TestJobToolsDriveAGuestJobThroughThePipeline(t *testing.T) {
	run, _ := jobRunner(t, newJobs(t), nil)
	start := run("bash", `{"command":"echo one; sleep 600","description":"wait","run_in_background":true}`)
	if start.IsError || !strings.Contains(start.Content, "Started background job job-1") {
		t.Fatalf("start: %q", start.Content)
	}
	if out := run(JobOutputName, `{"job_id":"job-1","wait_ms":60000}`); out.IsError || !strings.Contains(out.Content, "[job-1: running]\none") {
		t.Fatalf("job_output: %q", out.Content)
	}
	if list := run(JobListName, `{}`); !strings.Contains(list.Content, "job-1  running") {
		t.Fatalf("job_list: %q", list.Content)
	}
	if kill := run(JobKillName, `{"job_id":"job-1"}`); kill.IsError || !strings.Contains(kill.Content, "job-1 killed by model") {
		t.Fatalf("job_kill: %q", kill.Content)
	}
	if bad := run(JobOutputName, `{"job_id":"job-7"}`); !bad.IsError || !strings.Contains(bad.Content, "job-1") {
		t.Fatalf("an unknown job: %q", bad.Content)
	}
}

func TestInPlanModeAJobRunsReadOnlyAndOneAskingForMoreIsRefused(t *testing.T) {
	run, ws := jobRunner(t, newJobs(t), func() string { return "plan mode is on" })
	wider := run("bash", `{"command":"touch x","description":"x","run_in_background":true,"sandbox_permissions":"danger-full-access","justification":"need it"}`)
	if !wider.IsError || wider.Error.Code != tools.CodeDenied {
		t.Fatalf("an escalated job in plan mode: %q", wider.Content)
	}
	if start := run("bash", `{"command":"echo x > e.txt","description":"write","run_in_background":true}`); start.IsError {
		t.Fatalf("start: %q", start.Content)
	}
	out := run(JobOutputName, `{"job_id":"job-1","wait_ms":60000}`)
	for strings.Contains(out.Content, "running]") {
		out = run(JobOutputName, `{"job_id":"job-1","wait_ms":60000}`)
	}
	if !strings.Contains(strings.ToLower(out.Content), "read-only") || strings.Contains(out.Content, "exited 0") {
		t.Fatalf("the job's end: %q", out.Content)
	}
	if _, err := os.Stat(filepath.Join(ws, "e.txt")); err == nil {
		t.Fatal("a job wrote the workspace in plan mode")
	}
}

func TestJobToolsOutsideASessionRefuse(t *testing.T) {
	run, _ := jobRunner(t, nil, nil)
	for _, c := range [][2]string{{"bash", `{"command":"true","description":"x","run_in_background":true}`}, {JobListName, `{}`}, {JobKillName, `{"job_id":"job-1"}`}} {
		if res := run(c[0], c[1]); !res.IsError || !strings.Contains(res.Content, "belong to a session") {
			t.Fatalf("%s: %q", c[0], res.Content)
		}
	}
}
