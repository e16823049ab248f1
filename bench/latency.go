package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// Percentiles are latencies in milliseconds.
type Percentiles struct {
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

func percentiles(d []time.Duration) Percentiles {
	if len(d) == 0 {
		return Percentiles{}
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	at := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000 }
	return Percentiles{P50: at(0.50), P99: at(0.99)}
}

// BashResult compares one command through the sandboxed bash tool with
// the host's /bin/bash -c.
type BashResult struct {
	Command string      `json:"command"`
	Samples int         `json:"samples"`
	Sandbox Percentiles `json:"sandbox"`
	Host    Percentiles `json:"host"`
	// RatioP50 is sandbox p50 / host p50: below 1 means faster than
	// starting a host shell.
	RatioP50 float64 `json:"ratio_p50"`
}

// benchCall is one command timed with a pause before each call.
type benchCall struct {
	label, command string
	think          time.Duration
}

// benchCalls are the commands DESIGN §12 names, as between a model's calls
// (thinkTime apart), and echo hi back to back, as a program's loop calls it.
var benchCalls = []benchCall{
	{"echo hi", "echo hi", thinkTime},
	{"grep -rn foo .", "grep -rn foo .", thinkTime},
	{"echo hi, back to back", "echo hi", 0},
}

// thinkTime separates calls the way a model thinking between them does.
const thinkTime = 15 * time.Millisecond

// runBash times the bash tool through a tools.Runner over a warm pool.
func runBash(ctx context.Context, workspace string, samples int) ([]BashResult, error) {
	host := sandbox.NewHost(sandbox.Config{})
	defer host.Close(context.Background())
	if err := host.Ready(ctx); err != nil {
		return nil, err
	}
	bash, ok := toolbox.NewSandbox(host, toolbox.SandboxConfig{Workspace: workspace, Mode: sandbox.WorkspaceWrite}).Tool("bash")
	if !ok {
		return nil, fmt.Errorf("the sandbox tool set has no bash tool")
	}
	reg, err := tools.NewRegistry(tools.PresentNative, bash)
	if err != nil {
		return nil, err
	}
	runner := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})
	ctx = tools.WithEnv(ctx, &tools.Env{Workspace: workspace})
	if err := host.Prewarm(workspace, sandbox.WorkspaceWrite); err != nil {
		return nil, err
	}
	var out []BashResult
	for _, bc := range benchCalls {
		command := bc.command
		raw, _ := json.Marshal(map[string]string{"command": command, "description": "bench"})
		call := tools.Call{ID: "bench", Name: "bash", Raw: string(raw)}
		var guest, native []time.Duration
		for i := range samples + 3 { // three warm-up calls
			time.Sleep(bc.think)
			start := time.Now()
			res := runner.Dispatch(ctx, call)
			took := time.Since(start)
			if res.IsError {
				return nil, fmt.Errorf("bash %q failed in the sandbox: %v", command, res.Content)
			}
			if i >= 3 {
				guest = append(guest, took)
			}
		}
		for i := range samples + 3 {
			cmd := exec.CommandContext(ctx, "/bin/bash", "-c", command)
			cmd.Dir = workspace
			start := time.Now()
			if b, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("host bash %q: %v: %s", command, err, b)
			}
			if i >= 3 {
				native = append(native, time.Since(start))
			}
		}
		r := BashResult{Command: bc.label, Samples: samples, Sandbox: percentiles(guest), Host: percentiles(native)}
		if r.Host.P50 > 0 {
			r.RatioP50 = r.Sandbox.P50 / r.Host.P50
		}
		out = append(out, r)
	}
	return out, nil
}
