package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestNewAppliesItsOptions(t *testing.T) {
	writeLike := func(args json.RawMessage) bool { return strings.Contains(string(args), "write") }
	tool := New(Spec{Name: "t", InputSchema: looseSpec},
		func(context.Context, Call, struct{}) (string, error) { return "", nil },
		SafeWhen(func(args json.RawMessage) bool { return !writeLike(args) }),
		NeedsApproval(writeLike),
		WithTimeout(time.Second))
	ar := tool.(ApprovalRequirer)
	cases := []struct {
		args           string
		safe, approval bool
	}{
		{`{"op":"read"}`, true, false},
		{`{"op":"write"}`, false, true},
	}
	for _, c := range cases {
		t.Run("arguments "+c.args+" decide safety and approval", func(t *testing.T) {
			if got := tool.ConcurrencySafe(json.RawMessage(c.args)); got != c.safe {
				t.Errorf("safe = %v", got)
			}
			if got := ar.RequiresApproval(json.RawMessage(c.args)); got != c.approval {
				t.Errorf("approval = %v", got)
			}
		})
	}
	if tool.Spec().Timeout != time.Second {
		t.Errorf("timeout %v", tool.Spec().Timeout)
	}
	plain := New(Spec{Name: "p", InputSchema: looseSpec}, func(context.Context, Call, struct{}) (int, error) { return 0, nil })
	if plain.ConcurrencySafe(nil) || plain.(ApprovalRequirer).RequiresApproval(nil) {
		t.Error("defaults must be unsafe and need no approval")
	}
}

func TestSchemaMatchesStruct(t *testing.T) {
	type Base struct {
		Workdir string `json:"workdir"`
	}
	type In struct {
		Base
		Command string `json:"command"`
		Timeout int    `json:"timeout_ms,omitempty"`
		Skip    string `json:"-"`
		hidden  int
	}
	_ = In{}.hidden
	cases := []struct {
		name, schema, want string
	}{
		{"matching fields pass", `{"properties":{"command":{},"timeout_ms":{},"workdir":{}},"required":["command"]}`, ""},
		{"an extra schema property is reported", `{"properties":{"command":{},"timeout_ms":{},"workdir":{},"env":{}}}`, `schema property "env" has no field`},
		{"a missing schema property is reported", `{"properties":{"command":{},"workdir":{}}}`, `field "timeout_ms" of tools.In is not in the schema`},
		{"an undeclared required name is reported", `{"properties":{"command":{},"timeout_ms":{},"workdir":{}},"required":["cmd"]}`, `required property "cmd"`},
		{"a broken schema is reported", `[`, "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SchemaMatchesStruct[In](json.RawMessage(c.schema))
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	if err := SchemaMatchesStruct[int](json.RawMessage(`{}`)); err == nil {
		t.Error("a non-struct passed")
	}
	if err := SchemaMatchesStruct[readIn](readSpec.InputSchema); err != nil {
		t.Error(err)
	}
}

func TestRenderValue(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"strings are shown as-is", "a\tb", "a\tb"},
		{"nil is null", nil, "null"},
		{"raw JSON is indented", json.RawMessage(`{"a":[1,2]}`), "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{"structs are indented JSON", readOut{Text: "x"}, "{\n  \"text\": \"x\"\n}"},
		{"unencodable values fall back to Go syntax", func() {}, "0x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := RenderValue(c.v); !strings.HasPrefix(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestHostileNestingNeverCrashes(t *testing.T) {
	run := NewRunner(mustRegistry(t, PresentNative, funcTool("t", func(context.Context, Call) (any, error) { return "ok", nil })), RunnerConfig{})
	for _, depth := range []int{9_999, 10_000, 10_001, 100_000} {
		t.Run(fmt.Sprintf("arrays nested %d deep are handled", depth), func(t *testing.T) {
			raw := `{"a":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
			res := run.Dispatch(context.Background(), Call{Name: "t", Raw: raw})
			if res.IsError && code(res) != CodeInvalidArgs {
				t.Fatalf("depth %d: %q", depth, res.Content)
			}
		})
	}
}

func TestNestedCallsMayCarryParsedArgs(t *testing.T) {
	run := NewRunner(mustRegistry(t, PresentPTC, readTool()), RunnerConfig{})
	res := run.Dispatch(context.Background(), Call{ID: "r:ptc:1", Name: "read", Args: json.RawMessage(`{"file_path":"x"}`), Nested: true})
	if res.IsError || !strings.Contains(res.Content, "contents of x") {
		t.Fatalf("%q", res.Content)
	}
	if _, ok := run.Lookup("read"); !ok {
		t.Error("Lookup misses a program tool")
	}
}
