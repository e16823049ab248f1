package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// RunCodeConfig builds the run_code tool. It is copied by NewRunCode and
// never changes afterwards.
type RunCodeConfig struct {
	// Limits are the run budgets; zero fields take ptc.DefaultLimits.
	Limits ptc.Limits
	// Programs lists the tools a program may call. When nil, the tool asks
	// the context's Dispatcher (a *tools.Runner gives its registry's
	// ProgramSpecs).
	Programs func() []tools.Spec
}

// RunCode is run_code: it runs a model-written TypeScript program (the
// engine is package ptc) whose tools.x() calls go through the context's
// Dispatcher. It is never concurrency-safe (a program's calls may write).
type RunCode struct {
	cfg RunCodeConfig
}

// NewRunCode returns the run_code tool.
func NewRunCode(cfg RunCodeConfig) *RunCode {
	cfg.Limits = cfg.Limits.WithDefaults()
	return &RunCode{cfg: cfg}
}

// RunCodeArgs are run_code's arguments.
type RunCodeArgs struct {
	Code        string `json:"code"`
	Description string `json:"description"`
	TimeoutMs   int64  `json:"timeout_ms,omitempty"`
}

// RunCodeOutput is run_code's JSON value on success. Text is the
// model-visible rendering (capped at Limits.VisibleOutput); it is not part
// of the value.
type RunCodeOutput struct {
	Logs   []string        `json:"logs"`
	Result json.RawMessage `json:"result,omitempty"`
	Text   string          `json:"-"`
}

// Spec describes run_code for the wire.
func (t *RunCode) Spec() tools.Spec {
	return tools.Spec{
		Name:         tools.RunCodeName,
		Description:  doc(tools.RunCodeName),
		InputSchema:  json.RawMessage(t.inputSchema()),
		OutputSchema: json.RawMessage(runCodeOutputSchema),
		Timeout:      t.cfg.Limits.MaxTimeout + 5*time.Second,
	}
}

func (t *RunCode) inputSchema() string {
	l := t.cfg.Limits
	return fmt.Sprintf(`{"type":"object","properties":{`+
		`"code":{"type":"string","description":"The program: the body of an async TypeScript function."},`+
		`"description":{"type":"string","description":"What it does, in 5-10 words, shown to the user."},`+
		`"timeout_ms":{"type":"integer","minimum":1,"maximum":%d,"description":"Wall-time budget in ms, tool waits included (default %d)."}},`+
		`"required":["code","description"],"additionalProperties":false}`,
		l.MaxTimeout.Milliseconds(), l.Timeout.Milliseconds())
}

const runCodeOutputSchema = `{"type":"object","properties":{"logs":{"type":"array","items":{"type":"string"}},"result":{}},"required":["logs"],"additionalProperties":false}`

// ArgsType is RunCodeArgs, what Execute decodes the arguments into.
func (t *RunCode) ArgsType() reflect.Type { return reflect.TypeFor[RunCodeArgs]() }

// ValueType is RunCodeOutput, the value of a successful run.
func (t *RunCode) ValueType() reflect.Type { return reflect.TypeFor[RunCodeOutput]() }

// ConcurrencySafe is always false: run_code runs alone.
func (t *RunCode) ConcurrencySafe(json.RawMessage) bool { return false }

// Execute runs the program. A program that does not complete is a
// CODE_RUN_FAILED tool failure whose message is the rendered report.
func (t *RunCode) Execute(ctx context.Context, call tools.Call) (any, error) {
	var a RunCodeArgs
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid arguments for run_code: %v", err)
	}
	if strings.TrimSpace(a.Description) == "" {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid description: expected a non-empty string summarising the program")
	}
	env := tools.EnvFrom(ctx)
	o := ptc.Run(ctx, t.cfg.Limits, ptc.Request{
		CallID:     call.ID,
		Code:       a.Code,
		Tools:      t.programNames(env.Dispatcher),
		Dispatcher: env.Dispatcher,
		Sink:       env.Sink,
		Timeout:    t.cfg.Limits.TimeoutFor(a.TimeoutMs),
		Turn:       call.Turn,
		Step:       call.Step,
	})
	text := ptc.RenderVisible(o, a.Code, t.cfg.Limits.VisibleOutput, env.SpillDir, call.ID)
	if !o.OK() {
		return nil, &tools.Error{Code: tools.CodeCodeRunFailed, Message: text}
	}
	return &RunCodeOutput{Logs: o.Logs, Result: o.Result, Text: text}, nil
}

// MaxResultBytes lets run_code's text through the Runner's generic
// truncation: Execute already caps it at the visible-output budget and
// spills the rest, so the Runner only needs room for its "Error: " prefix.
func (t *RunCode) MaxResultBytes() int { return t.cfg.Limits.VisibleOutput + 1024 }

// Render returns the model-visible text of a successful run's value.
func (t *RunCode) Render(value any) string {
	switch v := value.(type) {
	case *RunCodeOutput:
		if v.Text != "" {
			return v.Text
		}
		return ptc.Render(&ptc.Outcome{Logs: v.Logs, Result: v.Result}, "")
	case map[string]any: // a value that went through JSON
		b, _ := json.Marshal(v)
		var out RunCodeOutput
		_ = json.Unmarshal(b, &out)
		return ptc.Render(&ptc.Outcome{Logs: out.Logs, Result: out.Result}, "")
	}
	return tools.RenderValue(value)
}

// programNames are the tools a program may call, sorted (run_code excluded).
func (t *RunCode) programNames(d tools.Dispatcher) []string {
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
