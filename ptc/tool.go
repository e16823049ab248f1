package ptc

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

//go:embed run_code.md
var runCodeDescription string

// Config builds the run_code tool. It is copied by NewTool and never
// changes afterwards.
type Config struct {
	// Limits are the run budgets; zero fields take DefaultLimits.
	Limits Limits
	// Programs lists the tools a program may call. When nil, the tool asks
	// the context's Dispatcher (a *tools.Runner gives its registry's
	// ProgramSpecs).
	Programs func() []tools.Spec
}

// Tool is run_code: it runs a model-written TypeScript program whose
// tools.x() calls go through the context's Dispatcher. It is never
// concurrency-safe (a program's calls may write).
type Tool struct {
	cfg Config
}

// NewTool returns the run_code tool.
func NewTool(cfg Config) *Tool {
	cfg.Limits = cfg.Limits.withDefaults()
	return &Tool{cfg: cfg}
}

// Args are run_code's arguments.
type Args struct {
	Code        string `json:"code"`
	Description string `json:"description"`
	TimeoutMs   int64  `json:"timeout_ms,omitempty"`
}

// Output is run_code's JSON value on success. Text is the model-visible
// rendering (capped at Limits.VisibleOutput); it is not part of the value.
type Output struct {
	Logs   []string        `json:"logs"`
	Result json.RawMessage `json:"result,omitempty"`
	Text   string          `json:"-"`
}

// Spec describes run_code for the wire.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name:         tools.RunCodeName,
		Description:  strings.TrimSpace(runCodeDescription),
		InputSchema:  json.RawMessage(t.inputSchema()),
		OutputSchema: json.RawMessage(outputSchema),
		Timeout:      t.cfg.Limits.MaxTimeout + 5*time.Second,
	}
}

func (t *Tool) inputSchema() string {
	l := t.cfg.Limits
	return fmt.Sprintf(`{"type":"object","properties":{`+
		`"code":{"type":"string","description":"The program: the body of an async TypeScript function."},`+
		`"description":{"type":"string","description":"What it does, in 5-10 words, shown to the user."},`+
		`"timeout_ms":{"type":"integer","minimum":1,"maximum":%d,"description":"Wall-time budget in ms, tool waits included (default %d)."}},`+
		`"required":["code","description"],"additionalProperties":false}`,
		l.MaxTimeout.Milliseconds(), l.Timeout.Milliseconds())
}

const outputSchema = `{"type":"object","properties":{"logs":{"type":"array","items":{"type":"string"}},"result":{}},"required":["logs"],"additionalProperties":false}`

// ConcurrencySafe is always false: run_code runs alone.
func (t *Tool) ConcurrencySafe(json.RawMessage) bool { return false }

// Execute runs the program. A program that does not complete is a
// CODE_RUN_FAILED tool failure whose message is the rendered report.
func (t *Tool) Execute(ctx context.Context, call tools.Call) (any, error) {
	var a Args
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid arguments for run_code: %v", err)
	}
	if strings.TrimSpace(a.Description) == "" {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid description: expected a non-empty string summarising the program")
	}
	env := tools.EnvFrom(ctx)
	o := Run(ctx, t.cfg.Limits, Request{
		CallID:     call.ID,
		Code:       a.Code,
		Tools:      t.programNames(env.Dispatcher),
		Dispatcher: env.Dispatcher,
		Sink:       env.Sink,
		Timeout:    t.cfg.Limits.timeoutFor(a.TimeoutMs),
		Turn:       call.Turn,
		Step:       call.Step,
	})
	text := RenderVisible(o, a.Code, t.cfg.Limits.VisibleOutput, env.SpillDir, call.ID)
	if !o.OK() {
		return nil, &tools.Error{Code: tools.CodeCodeRunFailed, Message: text}
	}
	return &Output{Logs: o.Logs, Result: o.Result, Text: text}, nil
}

// MaxResultBytes lets run_code's text through the Runner's generic
// truncation: Execute already caps it at the visible-output budget and
// spills the rest, so the Runner only needs room for its "Error: " prefix.
func (t *Tool) MaxResultBytes() int { return t.cfg.Limits.VisibleOutput + 1024 }

// Render returns the model-visible text of a successful run's value.
func (t *Tool) Render(value any) string {
	switch v := value.(type) {
	case *Output:
		if v.Text != "" {
			return v.Text
		}
		return Render(&Outcome{Logs: v.Logs, Result: v.Result}, "")
	case map[string]any: // a value that went through JSON
		b, _ := json.Marshal(v)
		var out Output
		_ = json.Unmarshal(b, &out)
		return Render(&Outcome{Logs: out.Logs, Result: out.Result}, "")
	}
	return tools.RenderValue(value)
}

// programNames are the tools a program may call, sorted (run_code excluded).
func (t *Tool) programNames(d tools.Dispatcher) []string {
	var specs []tools.Spec
	if t.cfg.Programs != nil {
		specs = t.cfg.Programs()
	} else if r, ok := d.(interface{ Registry() *tools.Registry }); ok {
		specs = r.Registry().ProgramSpecs()
	}
	names := make([]string, 0, len(specs))
	for _, s := range specs {
		if s.Name != tools.RunCodeName {
			names = append(names, s.Name)
		}
	}
	return names
}
