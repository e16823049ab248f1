package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ptc-dev/ptc/harness"
)

// Options chooses how much to measure.
type Options struct {
	// Quick takes fewer samples, a 100 k-event session instead of 1 M and
	// the run_code workloads at 1/20 of their size.
	Quick bool
	// SkipTokens leaves out the token comparison (the scripted sessions).
	SkipTokens bool
	// Scratch is a directory for the fixture, scripts and stores; it must
	// exist and is left for the caller to remove.
	Scratch string
}

// Report is everything one run measured, against its baselines.
type Report struct {
	Quick  bool          `json:"quick"`
	Tokens []TokenResult `json:"tokens"`
	Total  TokenTotal    `json:"tokens_total"`
	// Long is the long-session comparison (with the token comparison).
	Long     *LongSessionResult `json:"long_session,omitempty"`
	Bash     []BashResult       `json:"bash"`
	RunCode  RunCodeResult      `json:"run_code"`
	JS       JSResult           `json:"run_code_vs_node"`
	EventLog EventLogResult     `json:"event_log"`
	Seconds  float64            `json:"seconds"`
	Notes    []string           `json:"notes"`
}

// TokenTotal sums the token comparison over all tasks.
type TokenTotal struct {
	Standard   int     `json:"standard_input_tokens"`
	PTC        int     `json:"ptc_input_tokens"`
	SavingPct  float64 `json:"saving_pct"`
	AllAnswers bool    `json:"all_answers_match"`
}

// sizes are the sample counts of one run.
type sizes struct {
	bash, runCode, nested, events, longSteps int
	jsScale                                  float64 // of the jsbench workloads
	jsSamples                                int
}

func (o Options) sizes() sizes {
	if o.Quick {
		return sizes{bash: 40, runCode: 40, nested: 200, events: 100_000, longSteps: 60, jsScale: 0.05, jsSamples: 1}
	}
	return sizes{bash: 200, runCode: 200, nested: 1000, events: 1_000_000, longSteps: 200, jsScale: 1, jsSamples: 3}
}

// Run measures everything and returns the report.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	n := o.sizes()
	rep := &Report{Quick: o.Quick, Notes: []string{
		"tokens: the scripted provider's estimate, request JSON bytes / 4 (system prompt with the SDK section, tool specs, messages), summed over every request of the session",
		"bash: sandboxed bash tool through the tools Runner, warm pool, 15 ms between calls (back to back: none, instances reused); host: /bin/bash -c of the same command in the same directory",
		"run_code: through the tools Runner; nested call = (N no-op calls - N awaited promises) / N",
		"run_code vs node: each workload timed inside the program (not the engine's start), goja and node interleaved, best of the samples; results compared byte for byte; --quick runs them at 1/20 of their size",
		"long session: standard preset, one 20 KB read per step, 32 k window, with automatic pruning/compaction and with --no-compact; tokens are the provider's input counts summed over every request (summary requests included); cacheable = estimated share repeating the previous request from its start",
	}}
	workspace := filepath.Join(o.Scratch, "workspace")
	fx := NewFixture()
	if err := fx.Write(workspace); err != nil {
		return nil, fmt.Errorf("writing the fixture workspace: %w", err)
	}
	// Resolve symlinks (macOS /tmp) so the sandbox and the scripts agree.
	if ws, err := filepath.EvalSymlinks(workspace); err == nil {
		workspace = ws
	}
	if !o.SkipTokens {
		if err := tokens(ctx, rep, fx, workspace, o.Scratch, n.longSteps); err != nil {
			return nil, err
		}
	}
	var err error
	if rep.Bash, err = runBash(ctx, workspace, n.bash); err != nil {
		return nil, err
	}
	if rep.RunCode, err = runRunCode(ctx, n.runCode, n.nested); err != nil {
		return nil, err
	}
	if rep.JS, err = runJS(ctx, n.jsScale, n.jsSamples); err != nil {
		return nil, err
	}
	if rep.EventLog, err = runEventLog(ctx, filepath.Join(o.Scratch, "store"), n.events); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// tokens runs the scripted sessions in a private home under scratch, so
// the user's sessions are left alone.
func tokens(ctx context.Context, rep *Report, fx *Fixture, workspace, scratch string, longSteps int) error {
	scripts := filepath.Join(scratch, "scripts")
	if err := os.MkdirAll(scripts, 0o755); err != nil {
		return err
	}
	home, err := harness.OpenHome(filepath.Join(scratch, "home"))
	if err != nil {
		return err
	}
	defer home.Close()
	if rep.Tokens, err = runTokens(ctx, home, fx, workspace, scripts); err != nil {
		return err
	}
	rep.Total = total(rep.Tokens)
	long, err := runLongSession(ctx, home, scratch, longSteps)
	if err != nil {
		return fmt.Errorf("long session: %w", err)
	}
	rep.Long = &long
	return nil
}

func total(rs []TokenResult) TokenTotal {
	t := TokenTotal{AllAnswers: len(rs) > 0}
	for _, r := range rs {
		t.Standard += r.Standard.InputTokens
		t.PTC += r.PTC.InputTokens
		t.AllAnswers = t.AllAnswers && r.SameAnswer && r.ProgramOK
	}
	if t.Standard > 0 {
		t.SavingPct = 100 * (1 - float64(t.PTC)/float64(t.Standard))
	}
	return t
}
