package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

// ptcRunner is a real Runner over run_code and an "add" tool under the
// ptc presentation.
func ptcRunner(t testing.TB, lim ptc.Limits) *tools.Runner {
	t.Helper()
	add := tools.New(tools.Spec{
		Name:         "add",
		Description:  "Adds two integers.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`),
	}, func(_ context.Context, _ tools.Call, in addIn) (addOut, error) {
		return addOut{Sum: in.A + in.B}, nil
	}, tools.Safe())
	reg, err := tools.NewRegistry(tools.PresentPTC, NewRunCode(RunCodeConfig{Limits: lim}), add)
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})
}

func runCodeCall(code, description string) tools.Call {
	raw, _ := json.Marshal(map[string]any{"code": code, "description": description})
	return tools.Call{ID: "call_9", Name: tools.RunCodeName, Raw: string(raw)}
}

func TestRunCodeThroughTheRunner(t *testing.T) {
	cases := []struct {
		name, code, desc string
		isError          bool
		want             string
	}{
		{"a program sees tool values and prints only its output", `const r = await tools.add({ a: 2, b: 3 }); console.log("sum is", r.sum); return { double: r.sum * 2 }`, "Add numbers",
			false, "sum is 5\n{\n  \"double\": 10\n}"},
		{"a returned string is shown as-is", `return "plain text"`, "Return text", false, "plain text"},
		{"a silent program says it had no output", `await tools.add({ a: 1, b: 1 })`, "Add quietly", false, ptc.NoOutput},
		{"nested calls are validated by the pipeline", `try { await tools.add({ a: "x" }) } catch (e) { return e.code }`, "Bad args", false, "INVALID_ARGS"},
		{"a blank description is invalid", `return 1`, "  ", true, "Error: invalid description"},
		{"a failure renders kind, line, output and calls", "await tools.add({ a: 1, b: 2 });\nconsole.log('partial');\nthrow new Error('stop')", "Fail late",
			true, "Error: code run failed (exception): Error: stop\nat line 3, column 7: throw new Error('stop')\nCaptured output:\npartial\nTool calls made before the failure (do not repeat their side effects):\n  call_9:ptc:1 add ok"},
	}
	r := ptcRunner(t, ptc.Limits{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := r.Dispatch(context.Background(), runCodeCall(c.code, c.desc))
			if res.IsError != c.isError {
				t.Fatalf("isError = %v: %s", res.IsError, res.Content)
			}
			if c.isError && !strings.HasPrefix(res.Content, c.want) || !c.isError && res.Content != c.want {
				t.Fatalf("content:\n%s\nwant:\n%s", res.Content, c.want)
			}
		})
	}
}

func TestRunCodeSchemasAreValidAndNotSafe(t *testing.T) {
	rc := NewRunCode(RunCodeConfig{})
	spec := rc.Spec()
	for _, s := range []json.RawMessage{spec.InputSchema, spec.OutputSchema} {
		if !json.Valid(s) {
			t.Fatalf("invalid schema %s", s)
		}
	}
	if rc.ConcurrencySafe(nil) {
		t.Fatal("run_code must run alone")
	}
	if !strings.Contains(spec.Description, "await tools.") {
		t.Fatal("description lacks the example")
	}
}

func TestRunCodeEmitsThroughTheEnvSink(t *testing.T) {
	r := ptcRunner(t, ptc.Limits{})
	sink := &toolstest.Sink{}
	ctx := tools.WithEnv(context.Background(), &tools.Env{Sink: sink})
	res := r.Dispatch(ctx, runCodeCall(`console.log("hi"); return (await tools.add({ a: 1, b: 2 })).sum`, "Log and add"))
	if res.IsError || res.Content != "hi\n3" {
		t.Fatalf("result %+v", res)
	}
	if sink.Count(session.TypePtcLog) != 1 || sink.Count(session.TypePtcDispatch) != 1 {
		t.Fatalf("events %v", sink.Types())
	}
}

func TestVisibleOutputIsCappedAndSpilled(t *testing.T) {
	dir := t.TempDir()
	r := ptcRunner(t, ptc.Limits{VisibleOutput: 1000})
	ctx := tools.WithEnv(context.Background(), &tools.Env{SpillDir: dir})
	res := r.Dispatch(ctx, runCodeCall(`for (let i = 0; i < 200; i++) console.log("line " + i)`, "Print lines"))
	if res.IsError || len(res.Content) > 1300 || !strings.Contains(res.Content, "line 199") || !strings.Contains(res.Content, "bytes omitted") {
		t.Fatalf("content (%d bytes):\n%s", len(res.Content), res.Content)
	}
	full, err := os.ReadFile(filepath.Join(dir, "call_9-output.txt"))
	if err != nil || !strings.Contains(string(full), "line 100\n") {
		t.Fatalf("spill file: %v", err)
	}
}
