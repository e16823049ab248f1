package toolbox

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
)

// everyTool builds every tool of the catalog, detached (an idle host, no
// session), as `ptc tools` does.
func everyTool(t *testing.T) []tools.Tool {
	t.Helper()
	sb := NewSandbox(sandbox.NewHost(sandbox.Config{}), SandboxConfig{Workspace: "/w"})
	d := Deps{Sandbox: func() (*Sandbox, error) { return sb, nil }, Plan: plan.New(false), Goals: goal.NewKeeper(true)}
	var all []tools.Tool
	for _, e := range Catalog() {
		tool, err := Build(e.Name, d)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if tool.Spec().Name != e.Name {
			t.Fatalf("the entry %s builds %s", e.Name, tool.Spec().Name)
		}
		all = append(all, tool)
	}
	return all
}

// typesOf returns the Go types a tool's code works with.
func typesOf(t *testing.T, tool tools.Tool) tools.Typed {
	t.Helper()
	typed, ok := tool.(tools.Typed)
	if !ok {
		t.Fatalf("%s does not name the types it decodes into (tools.Typed)", tool.Spec().Name)
	}
	return typed
}

func TestEveryToolsSchemasMatchItsGoTypes(t *testing.T) {
	for _, tool := range everyTool(t) {
		spec := tool.Spec()
		t.Run(spec.Name+"'s schemas match the types its code uses", func(t *testing.T) {
			typed := typesOf(t, tool)
			if err := tools.SchemaMatches(spec.InputSchema, typed.ArgsType(), tools.ArgsSchema); err != nil {
				t.Errorf("input: %v", err)
			}
			if err := tools.SchemaMatches(spec.OutputSchema, typed.ValueType(), tools.ValueSchema); err != nil {
				t.Errorf("output: %v", err)
			}
		})
	}
}

// TestAOneSidedRenameFailsTheCheck renames each argument of every tool on
// one side only, schema or struct, and expects the check to fail: the test
// above cannot pass by accident.
func TestAOneSidedRenameFailsTheCheck(t *testing.T) {
	for _, tool := range everyTool(t) {
		spec := tool.Spec()
		typ := typesOf(t, tool).ArgsType()
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(spec.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		t.Run(spec.Name+" fails with a property renamed in its schema alone", func(t *testing.T) {
			if len(schema.Properties) == 0 {
				extra := strings.Replace(string(spec.InputSchema), `"properties":{}`, `"properties":{"x":{"type":"string"}}`, 1)
				extra = strings.Replace(extra, `"properties": {}`, `"properties": {"x": {"type": "string"}}`, 1)
				if tools.SchemaMatches(json.RawMessage(extra), typ, tools.ArgsSchema) == nil {
					t.Fatal("a property the type lacks passed")
				}
				return
			}
			for name := range schema.Properties {
				renamed := strings.ReplaceAll(string(spec.InputSchema), `"`+name+`"`, `"`+name+`_renamed"`)
				if tools.SchemaMatches(json.RawMessage(renamed), typ, tools.ArgsSchema) == nil {
					t.Errorf("renaming %q in the schema passed", name)
				}
			}
		})
		t.Run(spec.Name+" fails with a field renamed in its struct alone", func(t *testing.T) {
			for i := range typ.NumField() {
				if tools.SchemaMatches(spec.InputSchema, renameField(typ, i), tools.ArgsSchema) == nil {
					t.Errorf("renaming field %s of %s passed", typ.Field(i).Name, typ)
				}
			}
		})
	}
	t.Run("a deliberately mismatched pair is reported by name", func(t *testing.T) {
		type bashArgs struct {
			Cmd         string `json:"cmd"`
			Description string `json:"description"`
			TimeoutMS   int    `json:"timeout_ms,omitempty"`
			Workdir     string `json:"workdir,omitempty"`
			Escalation
		}
		err := tools.SchemaMatches(json.RawMessage(bashInSchema), reflect.TypeFor[bashArgs](), tools.ArgsSchema)
		if err == nil || !strings.Contains(err.Error(), `schema property "command" has no field`) || !strings.Contains(err.Error(), `field "cmd"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// renameField copies the struct typ with field i's JSON name changed (an
// embedded struct is replaced by a plain field, which renames all of its
// fields at once).
func renameField(typ reflect.Type, i int) reflect.Type {
	fields := make([]reflect.StructField, typ.NumField())
	for j := range fields {
		fields[j] = typ.Field(j)
	}
	f := &fields[i]
	name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	f.Anonymous = false
	f.Tag = reflect.StructTag(`json:"` + name + `_renamed,` + opts + `"`)
	return reflect.StructOf(fields)
}

func TestTheCatalog(t *testing.T) {
	t.Run("names are unique and every entry says what it needs", func(t *testing.T) {
		seen := map[string]bool{}
		for _, e := range Catalog() {
			if seen[e.Name] || e.New == nil {
				t.Fatalf("%s: duplicate or without a constructor", e.Name)
			}
			seen[e.Name] = true
		}
	})
	t.Run("presets may use every tool but the hidden ones", func(t *testing.T) {
		names := PresetNames()
		if slices.Contains(names, NoopName) || !slices.Contains(names, tools.RunCodeName) || !slices.IsSorted(names) || len(names) != len(Catalog())-1 {
			t.Fatalf("%v", names)
		}
	})
	t.Run("a build without what a tool needs fails with its name", func(t *testing.T) {
		for _, name := range []string{"bash", plan.ExitName, GetGoalName} {
			if _, err := Build(name, Deps{}); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := Build("nope", Deps{}); err == nil {
			t.Error("an unknown tool built")
		}
	})
	t.Run("the subagent tools build without a session and refuse to run", func(t *testing.T) {
		tool, err := Build(SubagentName, Deps{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tool.Execute(t.Context(), tools.Call{Name: SubagentName, Args: json.RawMessage(`{"description":"d","prompt":"p"}`)}); err != errNoSession {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a sandbox set builds only sandbox tools", func(t *testing.T) {
		sb := NewSandbox(sandbox.NewHost(sandbox.Config{}), SandboxConfig{Workspace: "/w"})
		if _, ok := sb.Tool("bash"); !ok {
			t.Fatal("no bash")
		}
		if _, ok := sb.Tool(TodoWriteName); ok {
			t.Fatal("todo_write came from the sandbox set")
		}
	})
}
