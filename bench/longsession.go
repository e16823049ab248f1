package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Long-session sizes: every step reads a file of longResultBytes into a
// window of longWindow tokens.
const (
	longResultBytes = 20_000
	longWindow      = 32768
)

// LongRun is what one long session sent.
type LongRun struct {
	// InputTokens sums the provider's input count over every request,
	// summary requests included.
	InputTokens int `json:"input_tokens"`
	Requests    int `json:"requests"`
	// LargestRequest is the largest input count of one request.
	LargestRequest int `json:"largest_request"`
	// CacheableShare is the part of the estimated input that repeats the
	// request before it from the start (what a prefix cache can serve).
	CacheableShare float64 `json:"cacheable_share"`
	Pruned         int     `json:"pruned_results"`
	Compactions    int     `json:"compactions"`
}

// LongSessionResult compares one long scripted session with automatic
// pruning and compaction against the same session without.
type LongSessionResult struct {
	Steps       int     `json:"steps"`
	Window      int     `json:"window"`
	Compacted   LongRun `json:"compacted"`
	Uncompacted LongRun `json:"uncompacted"`
	// SentRatio is compacted input tokens / uncompacted ones.
	SentRatio float64 `json:"sent_ratio"`
	// SummaryPrefixShare is, for each summary request, the share that is
	// an exact prefix of the request before it; Min and Mean over them.
	SummaryPrefixShare    []float64 `json:"summary_prefix_share"`
	SummaryPrefixShareMin float64   `json:"summary_prefix_share_min"`
	SummaryPrefixShareAvg float64   `json:"summary_prefix_share_mean"`
}

// runLongSession runs steps reads of 20 KB files in a 32 k window, once
// with compaction and once with --no-compact, through the same
// composition as `ptc run --preset standard`.
func runLongSession(ctx context.Context, home *harness.Home, scratch string, steps int) (LongSessionResult, error) {
	res := LongSessionResult{Steps: steps, Window: longWindow}
	dir := filepath.Join(scratch, "long")
	script, err := writeLongSession(dir, steps)
	if err != nil {
		return res, err
	}
	for _, noCompact := range []bool{false, true} {
		sent, events, err := longRun(ctx, home, script, dir, noCompact)
		if err != nil {
			return res, err
		}
		run := measureLong(sent, events)
		if noCompact {
			res.Uncompacted = run
			continue
		}
		res.Compacted = run
		for i, s := range sent {
			if s.Summary && i > 0 {
				res.SummaryPrefixShare = append(res.SummaryPrefixShare,
					float64(compact.PrefixTokens(sent[i-1].Request, s.Request))/float64(compact.RequestTokens(s.Request)))
			}
		}
	}
	if res.Uncompacted.InputTokens > 0 {
		res.SentRatio = float64(res.Compacted.InputTokens) / float64(res.Uncompacted.InputTokens)
	}
	if n := len(res.SummaryPrefixShare); n > 0 {
		res.SummaryPrefixShareMin = 1
		for _, s := range res.SummaryPrefixShare {
			res.SummaryPrefixShareMin = min(res.SummaryPrefixShareMin, s)
			res.SummaryPrefixShareAvg += s / float64(n)
		}
	}
	return res, nil
}

// writeLongSession writes the workspace (three 20 KB files) and the
// script (steps reads, a final answer, a summary rule) under dir.
func writeLongSession(dir string, steps int) (string, error) {
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return "", err
	}
	for n := 1; n <= 3; n++ {
		var b strings.Builder
		for i := 0; b.Len() < longResultBytes; i++ {
			fmt.Fprintf(&b, "file %d line %d: the quick brown fox jumps over the lazy dog\n", n, i)
		}
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("big%d.txt", n)), []byte(b.String()[:longResultBytes]), 0o644); err != nil {
			return "", err
		}
	}
	var replies []map[string]any
	for i := 1; i <= steps; i++ {
		replies = append(replies, map[string]any{"text": fmt.Sprintf("Reading file %d.", i),
			"tool_calls": []map[string]any{{"name": "read", "arguments": map[string]any{"file_path": fmt.Sprintf("big%d.txt", i%3+1)}}}})
	}
	replies = append(replies, map[string]any{"text": "All files read."})
	summary := map[string]any{"text": "<summary>\n## Task and intent\nRead every file.\n## Next step\nRead the next file.\n</summary>"}
	data, err := json.Marshal(map[string]any{"replies": replies, "summary": summary})
	if err != nil {
		return "", err
	}
	script := filepath.Join(dir, "long.json")
	return script, os.WriteFile(script, data, 0o644)
}

func longRun(ctx context.Context, home *harness.Home, script, dir string, noCompact bool) ([]compact.Sent, []session.Event, error) {
	sess, err := harness.Open(ctx, home, harness.Options{Settings: session.Settings{
		Preset: "standard", Model: backend.ScriptPrefix + script, Workspace: filepath.Join(dir, "workspace"),
		Approval: string(tools.PolicyNever), MaxSteps: 100_000, ContextWindow: longWindow, NoCompact: noCompact,
	}})
	if err != nil {
		return nil, nil, err
	}
	defer sess.Close()
	res, err := sess.Run(ctx, "Read the files one by one.")
	if err != nil {
		return nil, nil, err
	}
	if res.Reason != session.ReasonCompleted {
		return nil, nil, fmt.Errorf("the long session ended %s %s", res.Reason, res.Failure)
	}
	events := sess.Events()
	sent, err := compact.SentRequests(events)
	return sent, events, err
}

func measureLong(sent []compact.Sent, events []session.Event) LongRun {
	var r LongRun
	prefix, total := 0, 0
	for i, s := range sent {
		r.Requests++
		r.InputTokens += s.Usage.InputTokens
		r.LargestRequest = max(r.LargestRequest, s.Usage.InputTokens)
		total += compact.RequestTokens(s.Request)
		if i > 0 {
			prefix += compact.PrefixTokens(sent[i-1].Request, s.Request)
		}
	}
	if total > 0 {
		r.CacheableShare = float64(prefix) / float64(total)
	}
	for _, e := range events {
		switch e.Type {
		case session.TypeToolPruned:
			r.Pruned++
		case session.TypeCompactionStart:
			r.Compactions++
		}
	}
	return r
}
