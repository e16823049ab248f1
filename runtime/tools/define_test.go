package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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

func TestSchemaMatches(t *testing.T) {
	type Base struct {
		Workdir string `json:"workdir,omitempty"`
	}
	type Item struct {
		Name string `json:"name"`
	}
	type In struct {
		Base
		Command string            `json:"command"`
		Timeout int               `json:"timeout_ms,omitempty"`
		Items   []Item            `json:"items,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		Next    *Item             `json:"next,omitempty"`
		Any     json.RawMessage   `json:"any,omitempty"`
		Skip    string            `json:"-"`
		hidden  int
	}
	_ = In{}.hidden
	const item = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`
	schema := func(edits ...string) string {
		s := `{"type":"object","properties":{"command":{"type":"string"},"timeout_ms":{"type":"integer"},"workdir":{"type":"string"},` +
			`"items":{"type":"array","items":` + item + `},"env":{"type":"object","additionalProperties":{"type":"string"}},` +
			`"next":{"anyOf":[{"type":"null"},` + item + `]},"any":{}},"required":["command"],"additionalProperties":false}`
		for i := 0; i+1 < len(edits); i += 2 {
			s = strings.Replace(s, edits[i], edits[i+1], 1)
		}
		return s
	}
	cases := []struct {
		name, schema, want string
		role               SchemaRole
	}{
		{"a matching schema passes", schema(), "", ArgsSchema},
		{"a property renamed in the schema alone is caught from both sides", schema(`"command":{`, `"cmd":{`, `["command"]`, `["cmd"]`),
			`schema property "cmd" has no field`, ArgsSchema},
		{"a field the schema lacks is reported", schema(`"workdir":{"type":"string"},`, ``), `field "workdir" of tools.In is not in the schema`, ArgsSchema},
		{"an undeclared required name is reported", schema(`["command"]`, `["command","cwd"]`), `required property "cwd"`, ArgsSchema},
		{"a required omitempty field is reported", schema(`["command"]`, `["command","timeout_ms"]`), `"timeout_ms" is required but its field is omitempty`, ArgsSchema},
		{"an optional field the encoder always writes is reported", schema(`["command"]`, `[]`), `"command" is optional`, ArgsSchema},
		{"a wrong type is reported", schema(`"timeout_ms":{"type":"integer"}`, `"timeout_ms":{"type":"string"}`), `/timeout_ms: the schema says string but the Go type is int`, ArgsSchema},
		{"null for a field that cannot hold it is reported", schema(`"command":{"type":"string"}`, `"command":{"type":["string","null"]}`), `cannot hold it`, ArgsSchema},
		{"a renamed property inside array items is reported", schema(`"name":{"type":"string"}},"required":["name"]`, `"title":{"type":"string"}},"required":["title"]`),
			`/items[]: schema property "title" has no field in tools.Item`, ArgsSchema},
		{"a renamed property inside an anyOf branch is reported", schema(`"next":{"anyOf":[{"type":"null"},{"type":"object","properties":{"name"`, `"next":{"anyOf":[{"type":"null"},{"type":"object","properties":{"label"`),
			`/next(anyOf 1): schema property "label"`, ArgsSchema},
		{"a wrong map value type is reported", schema(`"additionalProperties":{"type":"string"}`, `"additionalProperties":{"type":"integer"}`), `/env{}: the schema says integer`, ArgsSchema},
		{"arguments without additionalProperties false are reported", schema(`"required":["command"],"additionalProperties":false}`, `"required":["command"]}`),
			`additionalProperties is not false`, ArgsSchema},
		{"a value schema may leave additionalProperties open", schema(`"required":["command"],"additionalProperties":false}`, `"required":["command"]}`), "", ValueSchema},
		{"a broken schema is reported", `[`, "not a JSON object", ArgsSchema},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SchemaMatches(json.RawMessage(c.schema), reflect.TypeFor[In](), c.role)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	t.Run("a field renamed in the struct alone is caught", func(t *testing.T) {
		type renamed struct {
			FilePath string `json:"path"`
			Limit    int    `json:"limit,omitempty"`
		}
		err := SchemaMatches(readSpec.InputSchema, reflect.TypeFor[renamed](), ArgsSchema)
		if err == nil || !strings.Contains(err.Error(), `schema property "file_path" has no field`) || !strings.Contains(err.Error(), `field "path"`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("arguments that are not a struct are reported", func(t *testing.T) {
		if err := SchemaMatches(json.RawMessage(`{}`), reflect.TypeFor[int](), ArgsSchema); err == nil {
			t.Error("a non-struct passed")
		}
	})
	t.Run("a value that is not a struct has its type checked", func(t *testing.T) {
		if err := SchemaMatches(json.RawMessage(`{"type":"string"}`), reflect.TypeFor[string](), ValueSchema); err != nil {
			t.Error(err)
		}
		if err := SchemaMatches(json.RawMessage(`{"type":"string"}`), reflect.TypeFor[int](), ValueSchema); err == nil {
			t.Error("a string schema passed for an int")
		}
	})
	t.Run("a tool declared with New names its types", func(t *testing.T) {
		typed := readTool().(Typed)
		if err := SchemaMatches(readSpec.InputSchema, typed.ArgsType(), ArgsSchema); err != nil {
			t.Error(err)
		}
		if err := SchemaMatches(readSpec.OutputSchema, typed.ValueType(), ValueSchema); err != nil {
			t.Error(err)
		}
	})
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
