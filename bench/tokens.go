package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// SessionSpec is one headless turn to run: a preset, a script file for
// `--model script:FILE`, the workspace and the prompt.
type SessionSpec struct {
	Preset    string
	Script    string
	Workspace string
	Prompt    string
}

// runSession runs one scripted turn through the same composition as `ptc
// run` (package harness: preset loading, system prompt, toolset, agent,
// store) in the private home, and returns the session's events and the
// turn's final text.
func runSession(ctx context.Context, home *harness.Home, s SessionSpec) ([]session.Event, string, error) {
	sess, err := harness.Open(ctx, home, harness.Options{Settings: session.Settings{
		Preset: s.Preset, Model: backend.ScriptPrefix + s.Script, Workspace: s.Workspace, Approval: string(tools.PolicyNever),
	}})
	if err != nil {
		return nil, "", err
	}
	defer sess.Close()
	res, err := sess.Run(ctx, s.Prompt)
	if err != nil {
		return nil, "", err
	}
	if res.Reason != session.ReasonCompleted {
		return nil, "", fmt.Errorf("the turn ended %s %s", res.Reason, res.Failure)
	}
	return sess.Events(), res.Text, nil
}

// PresetRun is what one preset spent on a task.
type PresetRun struct {
	InputTokens int    `json:"input_tokens"`
	Requests    int    `json:"requests"`
	ToolCalls   int    `json:"tool_calls"`
	Answer      string `json:"answer"`
}

// TokenResult compares the presets on one task.
type TokenResult struct {
	Task       string    `json:"task"`
	Standard   PresetRun `json:"standard"`
	PTC        PresetRun `json:"ptc"`
	SavingPct  float64   `json:"saving_pct"`
	SameAnswer bool      `json:"same_answer"`
	ProgramOK  bool      `json:"program_computed_answer"`
	Expected   string    `json:"expected"`
}

// runTokens runs every task with both presets in workspace, writing the
// scripts under scratch.
func runTokens(ctx context.Context, home *harness.Home, fx *Fixture, workspace, scratch string) ([]TokenResult, error) {
	var out []TokenResult
	for _, t := range Tasks {
		r := TokenResult{Task: t.Name, Expected: t.Answer(fx)}
		std, err := t.StandardScript(fx)
		if err != nil {
			return nil, err
		}
		prog, err := t.PTCScript(fx)
		if err != nil {
			return nil, err
		}
		var ptcEvents []session.Event
		for _, p := range []struct {
			preset string
			body   []byte
			dst    *PresetRun
			events *[]session.Event
		}{{"standard", std, &r.Standard, nil}, {"ptc", prog, &r.PTC, &ptcEvents}} {
			file := filepath.Join(scratch, t.Name+"."+p.preset+".json")
			if err := os.WriteFile(file, p.body, 0o644); err != nil {
				return nil, err
			}
			events, text, err := runSession(ctx, home, SessionSpec{Preset: p.preset, Script: file, Workspace: workspace, Prompt: t.Prompt})
			if err != nil {
				return nil, fmt.Errorf("task %s, preset %s: %w", t.Name, p.preset, err)
			}
			*p.dst, err = summarise(events, text)
			if err != nil {
				return nil, fmt.Errorf("task %s, preset %s: %w", t.Name, p.preset, err)
			}
			if p.events != nil {
				*p.events = events
			}
		}
		r.SameAnswer = r.Standard.Answer == r.Expected && r.PTC.Answer == r.Expected
		r.ProgramOK = programReturned(ptcEvents, r.Expected)
		if r.Standard.InputTokens > 0 {
			r.SavingPct = 100 * (1 - float64(r.PTC.InputTokens)/float64(r.Standard.InputTokens))
		}
		out = append(out, r)
	}
	return out, nil
}

// summarise sums the prompt tokens of every model request of a session
// and checks that no tool call failed.
func summarise(events []session.Event, text string) (PresetRun, error) {
	usage := session.SumUsage(events)
	run := PresetRun{Answer: text, InputTokens: usage.All.InputTokens, Requests: usage.Requests}
	for _, ev := range events {
		if ev.Type != session.TypeToolResult {
			continue
		}
		var d session.ToolResult
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return run, err
		}
		run.ToolCalls++
		if d.IsError {
			return run, fmt.Errorf("tool %s failed: %s", d.Name, firstText(d.Content))
		}
	}
	return run, nil
}

// programReturned reports whether a run_code result carries the answer,
// i.e. the program computed it through the tools rather than the script
// knowing it.
func programReturned(events []session.Event, answer string) bool {
	quoted, _ := json.Marshal(answer)
	for _, ev := range events {
		if ev.Type != session.TypeToolResult {
			continue
		}
		var d session.ToolResult
		if json.Unmarshal(ev.Data, &d) != nil || d.Name != "run_code" {
			continue
		}
		text := firstText(d.Content)
		if strings.Contains(text, answer) || strings.Contains(text, string(quoted)) {
			return true
		}
	}
	return false
}

func firstText(blocks []session.Block) string {
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}
