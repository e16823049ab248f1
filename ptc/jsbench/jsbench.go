package jsbench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"time"
)

// Workload is one job, written once in plain JavaScript so that run_code
// and Node run the same text. Setup builds the input (not timed), Work is
// the body of the timed function, and Check, when set, is a function
// applied to Work's value after the clock stopped that makes it
// comparable (the order of a sorted array as a list of ids, say). Sizes
// are written as n(k): k at scale 1.
type Workload struct {
	Name, Setup, Work, Check string
}

// Program is the workload as the body of an async function, at the given
// scale: it returns {ms, result} with the work's time in milliseconds and
// the (checked) value.
func (w Workload) Program(scale float64) string {
	check := w.Check
	if check == "" {
		check = "x => x"
	}
	return "const SCALE = " + strconv.FormatFloat(scale, 'g', -1, 64) + ";\n" +
		"const n = k => Math.max(1, Math.round(k * SCALE));\n" +
		w.Setup + "\nconst t0 = Date.now();\nconst out = (() => { " + w.Work + "\n})();\n" +
		"const ms = Date.now() - t0;\nreturn { ms, result: (" + check + ")(out) };"
}

// Timing is what one run of a Program returned.
type Timing struct {
	Ms     float64         `json:"ms"`
	Result json.RawMessage `json:"result"`
}

// ParseTiming reads a Program's JSON return value.
func ParseTiming(raw []byte) (Timing, error) {
	var t Timing
	if err := json.Unmarshal(raw, &t); err != nil {
		return t, fmt.Errorf("not a {ms, result} object: %w (%.200q)", err, raw)
	}
	return t, nil
}

// Runner runs a program (the body of an async function) in run_code's
// engine and returns the JSON of its return value.
type Runner func(ctx context.Context, code string) ([]byte, error)

// FindNode is the path of node, or "" when it is not installed.
func FindNode() string {
	p, err := exec.LookPath("node")
	if err != nil {
		return ""
	}
	return p
}

// NodeRunner runs programs in Node (the binary at path), each in a fresh
// process, and returns what they return as JSON.
func NodeRunner(path string) Runner {
	return func(ctx context.Context, code string) ([]byte, error) {
		script := "(async () => {" + code + "\n})().then(r => process.stdout.write(JSON.stringify(r)), e => { console.error(String(e && e.stack || e)); process.exit(1) })"
		cmd := exec.CommandContext(ctx, path, "--max-old-space-size=4096", "-e", script)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("node: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
		}
		return out, nil
	}
}

// Row is one workload measured in both engines in the same run.
type Row struct {
	Name   string  `json:"name"`
	GojaMs float64 `json:"goja_ms"`
	// NodeMs and Ratio are 0 when node is not installed.
	NodeMs float64 `json:"node_ms"`
	Ratio  float64 `json:"ratio"`
	// Same is true when every run of both engines returned the same JSON.
	Same bool `json:"same_result"`
	// Samples is the number of runs of each engine.
	Samples int `json:"samples"`
	// Result is the SHA-256 of the first run's result JSON, and
	// ResultBytes its length: enough to see two runs agree.
	Result      string `json:"result_sha256"`
	ResultBytes int    `json:"result_bytes"`
}

// Measure runs w samples times in goja and, when node is not nil, as many
// times in Node, interleaved (goja, node, goja, node...) so that the load
// of the machine falls on both alike; each time is the best of its runs.
// When samples is more than one, a workload whose runs are quick gets more
// of them (up to quickMax times samples, while the pairs so far took less
// than quickBudget): a best of few samples of a 100 ms job is mostly the
// machine's load. One sample (ptc bench --quick, go test's first b.N) is
// one.
func Measure(ctx context.Context, w Workload, scale float64, samples int, goja, node Runner) (Row, error) {
	row := Row{Name: w.Name, Same: true}
	code := w.Program(scale)
	var first []byte
	record := func(run Runner, best *float64) error {
		raw, err := run(ctx, code)
		if err != nil {
			return err
		}
		t, err := ParseTiming(raw)
		if err != nil {
			return err
		}
		if first == nil {
			first = t.Result
			sum := sha256.Sum256(first)
			row.Result, row.ResultBytes = hex.EncodeToString(sum[:]), len(first)
		} else if !bytes.Equal(first, t.Result) {
			row.Same = false
		}
		if *best == 0 || t.Ms < *best {
			*best = max(t.Ms, 0.5) // Date.now() has millisecond steps
		}
		return nil
	}
	start := time.Now()
	for i := 0; i < max(samples, 1) || samples > 1 && i < quickMax*samples && time.Since(start) < quickBudget; i++ {
		row.Samples++
		if err := record(goja, &row.GojaMs); err != nil {
			return row, fmt.Errorf("%s in run_code: %w", w.Name, err)
		}
		if node == nil {
			continue
		}
		if err := record(node, &row.NodeMs); err != nil {
			return row, fmt.Errorf("%s in node: %w", w.Name, err)
		}
	}
	if row.NodeMs > 0 {
		row.Ratio = row.GojaMs / row.NodeMs
	}
	return row, nil
}

const (
	quickMax    = 4
	quickBudget = 3 * time.Second
)

// ErrDiffer is returned by Check when a workload's results differ.
var ErrDiffer = errors.New("run_code and node returned different results")

// Check returns ErrDiffer (wrapped with the workload's name) for the first
// row whose engines disagreed.
func Check(rows []Row) error {
	for _, r := range rows {
		if !r.Same {
			return fmt.Errorf("%s: %w", r.Name, ErrDiffer)
		}
	}
	return nil
}
