package sdkgen

import (
	"fmt"
	"strings"
	"testing"
)

// renderProp renders a one-property tool ({"x": schema}, required) and
// returns the TypeScript and Python texts.
func renderProp(t *testing.T, schema string) (string, string) {
	t.Helper()
	in := fmt.Sprintf(`{"type":"object","properties":{"x":%s},"required":["x"],"additionalProperties":false}`, schema)
	tools := []Tool{{Name: "t", InputSchema: []byte(in)}}
	ts, err := TypeScript(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	py, err := Python(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ts, py
}

func TestEachKeywordMapsFaithfully(t *testing.T) {
	cases := []struct {
		name, schema string
		ts, py       []string
	}{
		{"type string", `{"type":"string"}`, []string{"x: string;"}, []string{"x: str"}},
		{"type integer", `{"type":"integer"}`, []string{"x: number;"}, []string{"x: int"}},
		{"type number", `{"type":"number"}`, []string{"x: number;"}, []string{"x: float"}},
		{"type boolean", `{"type":"boolean"}`, []string{"x: boolean;"}, []string{"x: bool"}},
		{"type null", `{"type":"null"}`, []string{"x: null;"}, []string{"x: None"}},
		{"a type array keeps null", `{"type":["string","null"]}`, []string{"x: string | null;"}, []string{"x: str | None"}},
		{"an object-or-null type array keeps null", `{"type":["object","null"],"properties":{"a":{"type":"string"}}}`, []string{"} & Open | null;"}, []string{"x: TArgsX1 | None"}},
		{"nullable adds null", `{"type":"integer","nullable":true}`, []string{"x: number | null;"}, []string{"x: int | None"}},
		{"string enum with spaces and symbols", `{"enum":["a b","c\"d","e*/f"]}`, []string{`x: "a b" | "c\"d" | "e*/f";`}, []string{`x: Literal["a b", "c\"d", "e*/f"]`}},
		{"enum of numbers, booleans and null", `{"enum":[1,2.5,true,null]}`, []string{"x: 1 | 2.5 | true | null;"}, []string{"x: Literal[1, True] | float | None"}},
		{"const", `{"const":"v"}`, []string{`x: "v";`}, []string{`x: Literal["v"]`}},
		{"enum filtered by a type array", `{"type":["string","null"],"enum":["F","C"]}`, []string{`x: "F" | "C";`}, []string{`x: Literal["F", "C"]`}},
		{"anyOf is a union", `{"anyOf":[{"type":"string"},{"type":"number"}]}`, []string{"x: string | number;"}, []string{"x: str | float"}},
		{"oneOf is a union", `{"oneOf":[{"type":"string"},{"type":"boolean"}]}`, []string{"x: string | boolean;"}, []string{"x: str | bool"}},
		{"a union inside an array gets parentheses", `{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}}`, []string{"x: (string | number)[];"}, []string{"x: list[str | float]"}},
		{"allOf is an intersection", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"number"}}}]}`, []string{"} & {", "} & Open;"}, []string{"class TArgsX(TArgsXPart1, TArgsXPart2)"}},
		{"a default keeps a property optional", `{"type":"object","properties":{"a":{"type":"string","default":"z"}}}`, []string{"a?: string;", `@default "z"`}, []string{"a: NotRequired[str]", `# @default "z"`}},
		{"additionalProperties false closes the object", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, []string{"a?: string;\n    };"}, []string{"a: NotRequired[str]"}},
		{"absent additionalProperties leaves the object open", `{"type":"object","properties":{"a":{"type":"string"}}}`, []string{"a?: string;\n    } & Open;", "type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };"}, nil},
		{"a typed index of literals declares the keys named like Object's members", `{"type":"object","additionalProperties":{"enum":["a","b"]}}`, []string{"[key: string]: \"a\" | \"b\";\n    } & { [K in keyof Object]?: \"a\" | \"b\" | Object[K] };"}, nil},
		{"an object without a type is still any other kind of value", `{"properties":{"a":{"type":"string"}}}`, []string{"} & Open | string | number | boolean | null | JsonValue[];"}, nil},
		{"an array without a type is still any other kind of value", `{"items":{"type":"string"}}`, []string{"x: string[] | string | number | boolean | null | {\n      [key: string]: JsonValue;"}, nil},
		{"patternProperties on an open object types the keys its template names", `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"}}}`, []string{"a?: string;\n    } & {\n      [key: `x-${string}`]: number;\n    } & Open;"}, nil},
		{"a pattern no template names leaves an open object untyped there", `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^[a-z]+$":{"type":"integer"}}}`, []string{"a?: string;\n    } & Open;", "cannot name"}, nil},
		{"a closed object with an unnamed pattern keeps a union index", `{"type":"object","patternProperties":{"^[a-z]+$":{"type":"integer"}},"additionalProperties":false}`, []string{"[key: string]: number;", "pattern ^[a-z]+$"}, nil},
		{"a key named like an Object.prototype member admits the inherited function", `{"type":"object","properties":{"constructor":{"type":"string"}},"additionalProperties":false}`, []string{"constructor?: string | Function;"}, nil},
		{"not of a type removes that kind", `{"not":{"type":["null","object"]}}`, []string{"x: string | number | boolean | JsonValue[];"}, nil},
		{"not of everything is never", `{"not":{}}`, []string{"x: never;"}, nil},
		{"oneOf of two schemas that accept everything is never", `{"oneOf":[true,{}]}`, []string{"x: never;"}, nil},
		{"if/then/else is the union of its branches", `{"if":{"minimum":1},"then":{"type":"string"},"else":{"type":"boolean"}}`, []string{"x: string | boolean;"}, nil},
		{"dependentRequired makes the listed keys follow", `{"type":"object","properties":{"a":{"type":"string"}},"dependentRequired":{"a":["b"]},"additionalProperties":false}`, []string{"a?: never;", "a: JsonValue;\n      b: JsonValue;"}, nil},
		{"unevaluatedProperties false closes over the in-place properties", `{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"properties":{"b":{"type":"number"}}}],"unevaluatedProperties":false}`, []string{"b?: JsonValue;\n    } & {\n      b?: number;\n    };"}, nil},
		{"unevaluatedItems false closes the tuple", `{"type":"array","prefixItems":[{"type":"string"}],"unevaluatedItems":false}`, []string{"x: [string?];"}, nil},
		{"propertyNames enum lists the keys", `{"type":"object","propertyNames":{"enum":["a","b"]}}`, []string{"a?: JsonValue;\n      b?: JsonValue;\n    };"}, nil},
		{"additionalProperties schema is a typed index", `{"type":"object","additionalProperties":{"type":"integer"}}`, []string{"[key: string]: number;"}, []string{"x: dict[str, int]"}},
		{"additionalProperties with declared members widens the index", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`, []string{"[key: string]: number | string | undefined;"}, []string{"# Other keys hold: int"}},
		{"patternProperties on a closed object is a template index", `{"type":"object","patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, []string{"x: object & {\n      [key: `x-${string}`]: string;\n    };"}, []string{"x: dict[str, JsonValue]"}},
		{"a pattern anchored at both ends is one optional key", `{"type":"object","patternProperties":{"^id$":{"type":"string"}},"additionalProperties":false}`, []string{"id?: string;"}, nil},
		{"items", `{"type":"array","items":{"type":"string"}}`, []string{"x: string[];"}, []string{"x: list[str]"}},
		{"prefixItems closed", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":2}`, []string{"x: [string, number];"}, []string{"x: tuple[str, float]"}},
		{"prefixItems with a rest", `{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number"},"minItems":1}`, []string{"x: [string, ...number[]];"}, []string{"x: list[str | float]"}},
		{"prefixItems with optional tail", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":1}`, []string{"x: [string, number?];"}, nil},
		{"draft-4 items array with additionalItems", `{"type":"array","items":[{"type":"integer"}],"additionalItems":{"type":"string"},"minItems":1}`, []string{"x: [number, ...string[]];"}, nil},
		{"readOnly", `{"type":"object","properties":{"a":{"type":"string","readOnly":true}}}`, []string{"readonly a?: string;"}, []string{"# Read-only."}},
		{"deprecated", `{"type":"string","deprecated":true}`, []string{"@deprecated"}, []string{"# @deprecated"}},
		{"description, title, examples, format, minimum, maximum, pattern", `{"type":"string","title":"T","description":"D","examples":["e"],"format":"uri","minimum":1,"maximum":2,"pattern":"^a"}`,
			[]string{" * T\n", " * D\n", `@example "e"`, "Format: uri.", "Minimum: 1.", "Maximum: 2.", "Pattern: ^a"}, []string{"# D", "# Format: uri."}},
		{"*/ in a description is escaped", `{"type":"string","description":"a */ b"}`, []string{"a *\\/ b"}, []string{"# a */ b"}},
		{"$ref to $defs is a named type", `{"$ref":"#/$defs/N"}`, nil, nil},
		{"a non-identifier key is quoted", `{"type":"object","properties":{"a-b":{"type":"string"}},"required":["a-b"]}`, []string{`"a-b": string;`}, []string{`TArgsX = TypedDict("TArgsX", {`, `"a-b": str,`}},
		{"a Python keyword key uses the functional form", `{"type":"object","properties":{"from":{"type":"string"}},"required":["from"]}`, []string{"from: string;"}, []string{`"from": str,`}},
		{"not degrades to a wider type with a note", `{"not":{"minimum":3}}`, []string{"The not keyword is not expressed", "x: JsonValue;"}, []string{"x: JsonValue"}},
		{"an unresolvable $ref degrades only its node", `{"$ref":"other.json#/x"}`, []string{"is not a local reference", "x: JsonValue;"}, []string{"x: JsonValue"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, py := renderProp(t, c.schema)
			for _, w := range c.ts {
				if !strings.Contains(ts, w) {
					t.Errorf("TypeScript lacks %q:\n%s", w, ts)
				}
			}
			for _, w := range c.py {
				if !strings.Contains(py, w) {
					t.Errorf("Python lacks %q:\n%s", w, py)
				}
			}
		})
	}
}

func TestRefsBecomeNamedTypes(t *testing.T) {
	cases := []struct {
		name, schema string
		want         []string
	}{
		{"a $defs reference", `{"type":"object","properties":{"n":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`,
			[]string{"export type Node = {", "kids?: Node[];", "n?: ToolTypes.Node;"}},
		{"a definitions reference", `{"type":"object","properties":{"n":{"$ref":"#/definitions/Leaf"}},"definitions":{"Leaf":{"type":"string"}}}`,
			[]string{"export type Leaf = string;"}},
		{"a # self reference", `{"type":"object","properties":{"self":{"$ref":"#"}}}`,
			[]string{"export type TArgs = {", "self?: TArgs;", "t(args: ToolArgsMap[\"t\"])"}},
		{"a #/properties pointer", `{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}}}`,
			[]string{"export type TArgsA = string;", "a?: ToolTypes.TArgsA;", "b?: ToolTypes.TArgsA;"}},
		{"a root $ref", `{"$ref":"#/$defs/Q","$defs":{"Q":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`,
			[]string{"t: ToolTypes.Q;"}},
		{"a draft-07 $ref that ignores its siblings", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"x":{"$ref":"#/definitions/s","type":"number"}},"definitions":{"s":{"type":"string"}}}`,
			[]string{"x?: ToolTypes.S;"}},
		{"a 2020-12 $ref that applies with its siblings", `{"type":"object","properties":{"x":{"$ref":"#/$defs/s","maxLength":3,"type":"string"}},"$defs":{"s":{"type":"string"}}}`,
			[]string{"x?: ToolTypes.S & string;"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, err := TypeScript([]Tool{{Name: "t", InputSchema: []byte(c.schema)}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(ts, w) {
					t.Errorf("lacks %q:\n%s", w, ts)
				}
			}
		})
	}
}

func TestSharedDefinitionsAreWrittenOnceAndNeverCollide(t *testing.T) {
	node := `"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"}}}`
	tools := []Tool{
		{Name: "a", InputSchema: []byte(`{"type":"object","properties":{"n":{"$ref":"#/$defs/Node"},"l":{"$ref":"#/$defs/Leaf"}},"$defs":{` + node + `,"Leaf":{"type":"string"}}}`)},
		{Name: "b", InputSchema: []byte(`{"type":"object","properties":{"n":{"$ref":"#/$defs/Node"},"l":{"$ref":"#/$defs/Leaf"}},"$defs":{` + node + `,"Leaf":{"type":"number"}}}`)},
	}
	ts, err := TypeScript(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(ts, "export type Node =") != 1 {
		t.Errorf("the identical Node definition should be written once:\n%s", ts)
	}
	for _, w := range []string{"export type Leaf = string;", "export type BLeaf = number;"} {
		if !strings.Contains(ts, w) {
			t.Errorf("lacks %q:\n%s", w, ts)
		}
	}
}

func TestToolNamesAreNeverRewritten(t *testing.T) {
	tools := []Tool{{Name: "my-tool"}, {Name: "my_tool"}, {Name: "class"}, {Name: "a b"}}
	ts, err := TypeScript(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"my-tool"(args?:`, "my_tool(args?:", "class(args?:", `"a b"(args?:`} {
		if !strings.Contains(ts, w) {
			t.Errorf("TypeScript lacks %q:\n%s", w, ts)
		}
	}
	py, err := Python(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"async def my_tool(", `name: Literal["my-tool"]`, `name: Literal["class"]`, `name: Literal["a b"]`} {
		if !strings.Contains(py, w) {
			t.Errorf("Python lacks %q:\n%s", w, py)
		}
	}
	if strings.Contains(py, "async def class(") {
		t.Error("a keyword tool name must be reachable only by subscript")
	}
}

func TestCompactOmitsTheMapsButKeepsTheTypes(t *testing.T) {
	tools := loadTools(t, "testdata/schemas/builtin.json")
	ts, err := TypeScript(tools, Options{Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"ToolArgsMap", "ToolOutputMap", "ToolName", "DO NOT EDIT"} {
		if strings.Contains(ts, absent) {
			t.Errorf("compact output mentions %s", absent)
		}
	}
	for _, w := range []string{"declare const tools: {", "read(args: {", "declare class ToolCallError", "ToolTypes.Match"} {
		if !strings.Contains(ts, w) {
			t.Errorf("compact output lacks %q", w)
		}
	}
}

func TestBadInputIsAnError(t *testing.T) {
	cases := []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"an empty name", []Tool{{Name: ""}}, "empty name"},
		{"a duplicate name", []Tool{{Name: "a"}, {Name: "a"}}, `tool "a" is defined twice`},
		{"a bad type", []Tool{{Name: "a", InputSchema: []byte(`{"properties":{"x":{"type":"strin"}}}`)}}, `tool "a": /inputSchema/properties/x/type: "strin" is not a JSON Schema type`},
		{"invalid JSON", []Tool{{Name: "a", InputSchema: []byte(`{`)}}, `tool "a": /inputSchema: not valid JSON`},
	}
	for _, c := range cases {
		t.Run(c.name+" is reported", func(t *testing.T) {
			_, err := TypeScript(c.tools, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestParseToolsAcceptsTheCommonShapes(t *testing.T) {
	cases := []struct{ name, data string }{
		{"one tool", `{"name":"a","inputSchema":{"type":"object"}}`},
		{"an array", `[{"name":"a","input_schema":{"type":"object"}}]`},
		{"an MCP tools/list result", `{"tools":[{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}}]}`},
		{"a JSON-RPC response", `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{}}]}}`},
		{"an OpenAI function", `[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]`},
	}
	for _, c := range cases {
		t.Run(c.name+" is read", func(t *testing.T) {
			tools, err := ParseTools([]byte(c.data), "f.json")
			if err != nil || len(tools) != 1 || tools[0].Name != "a" {
				t.Fatalf("got %v, %v", tools, err)
			}
		})
	}
}

func TestParseToolsErrorsNameFileToolAndPointer(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"a bad type deep inside", `{"tools":[{"name":"a","inputSchema":{"properties":{"x":{"items":{"type":5}}}}}]}`,
			`f.json: tool "a": /tools/0/inputSchema/properties/x/items/type: must be a string or an array of strings`},
		{"properties that are not an object", `[{"name":"b","inputSchema":{"properties":[]}}]`, `f.json: tool "b": /0/inputSchema/properties: must be an object of schemas`},
		{"a missing name", `[{"inputSchema":{}}]`, `f.json: /0/name: a tool needs a non-empty string name`},
		{"broken JSON", `[{"name":`, `f.json: not valid JSON`},
		{"a schema that is a string", `{"name":"c","inputSchema":"x"}`, `f.json: tool "c": /inputSchema: a schema must be an object or a boolean`},
	}
	for _, c := range cases {
		t.Run(c.name+" is reported precisely", func(t *testing.T) {
			_, err := ParseTools([]byte(c.data), "f.json")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestDeepAndHugeSchemasDoNotOverflow(t *testing.T) {
	deep := func(n int, open, close string, leaf string) []byte {
		return []byte(strings.Repeat(open, n) + leaf + strings.Repeat(close, n))
	}
	cases := []struct {
		name   string
		schema []byte
	}{
		{"objects nested 5000 deep", deep(5000, `{"type":"object","properties":{"a":`, `}}`, `{"type":"string"}`)},
		{"arrays nested 9000 deep", deep(9000, `{"items":`, `}`, `true`)},
		{"anyOf nested 5000 deep", deep(5000, `{"anyOf":[{"type":"null"},`, `]}`, `{"type":"string"}`)},
		{"20000 properties", []byte(`{"type":"object","properties":{` + manyProps(20000) + `}}`)},
		{"allOf under unevaluatedProperties nested 3000 deep", deep(3000, `{"unevaluatedProperties":false,"properties":{"a":{}},"allOf":[`, `]}`, `true`)},
		{"if/then/else nested 3000 deep", deep(3000, `{"if":{"type":"string"},"then":`, `,"else":{"not":{"type":"null"}}}`, `true`)},
		{"dependentSchemas nested 3000 deep", deep(3000, `{"dependentSchemas":{"a":`, `},"unevaluatedProperties":false}`, `{"properties":{"b":{}}}`)},
		{"untyped objects nested 3000 deep", deep(3000, `{"properties":{"a":`, `},"not":{"type":"array"}}`, `{"items":{}}`)},
	}
	for _, c := range cases {
		t.Run(c.name+" render", func(t *testing.T) {
			tools := []Tool{{Name: "t", InputSchema: c.schema}}
			ts, err := TypeScript(tools, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Python(tools, Options{}); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(c.name, "objects") && !strings.Contains(ts, "Nested deeper than") {
				t.Error("a cut-off branch should say so")
			}
		})
	}
}

func manyProps(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"p%d":{"type":"integer"}`, i)
	}
	return strings.Join(parts, ",")
}
