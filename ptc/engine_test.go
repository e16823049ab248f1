package ptc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// runCode runs code against d with the given limits and names every tool
// of d as declared.
func runCode(t *testing.T, d *fakeDispatcher, lim Limits, code string) *Outcome {
	t.Helper()
	return Run(context.Background(), lim, Request{CallID: "call_1", Code: code, Tools: d.names(), Dispatcher: d})
}

func echoTools() *fakeDispatcher {
	return newFakeDispatcher(
		&fakeTool{name: "echo", safe: true},
		&fakeTool{name: "fail", fn: func(map[string]any) (any, error) {
			return nil, tools.Errorf(tools.CodeInvalidArgs, "path must be relative")
		}},
	)
}

func TestLanguageFeatures(t *testing.T) {
	cases := []struct {
		name, code, want string
	}{
		{"async loops await each call in turn", `let s = 0; for (const i of [1, 2, 3]) { const r = await tools.echo({ i }); s += r.i } return s`, `6`},
		{"Promise.all collects results in order", `const rs = await Promise.all([1, 2, 3].map(i => tools.echo({ i }))); return rs.map(r => r.i)`, `[1,2,3]`},
		{"destructuring works on objects and arrays", `const { a, b: [x, ...rest] } = { a: 1, b: [2, 3, 4] }; return [a, x, rest]`, `[1,2,[3,4]]`},
		{"spread merges objects and arrays", `const o = { a: 1, ...{ b: 2 } }; return [...[1, 2], ...Object.keys(o)]`, `[1,2,"a","b"]`},
		{"classes with fields, private members and inheritance", `class A { #n = 1; x = 2; get n() { return this.#n } } class B extends A { static k = 3 } const b = new B(); return [b.n, b.x, B.k]`, `[1,2,3]`},
		{"generators yield lazily", `function* g() { yield 1; yield 2 } return [...g()]`, `[1,2]`},
		{"async generators and for await are lowered", `async function* g() { yield 1; yield 2 } let s = 0; for await (const v of g()) s += v; return s`, `3`},
		{"Map and Set keep insertion order", `const m = new Map([["a", 1]]); m.set("b", 2); const s = new Set([1, 1, 2]); return [[...m.keys()], s.size]`, `[["a","b"],2]`},
		{"regex named groups match", `const m = "v1.22.3".match(/v(?<major>\d+)\.(?<minor>\d+)/); return m.groups.minor`, `"22"`},
		{"regex matchAll and replace work", `return [..."a1b22".matchAll(/\d+/g)].map(m => m[0]).join(",") + "/" + "x-y".replace(/-/g, "_")`, `"1,22/x_y"`},
		{"template literals interpolate", "const n = 2; return `n=${n * 2}`", `"n=4"`},
		{"optional chaining and nullish coalescing", `const o: any = { a: null }; return [o.a?.b, o.x?.y ?? "d"]`, `[null,"d"]`},
		{"JSON round-trips", `return JSON.parse(JSON.stringify({ a: [1, "x", true, null] }))`, `{"a":[1,"x",true,null]}`},
		{"try/catch around a failing tool sees ToolCallError", `try { await tools.fail({}) } catch (e) { return [e instanceof ToolCallError, e.name, e.toolName, e.code, e.message] }`, `[true,"ToolCallError","fail","INVALID_ARGS","path must be relative"]`},
		{"TypeScript types, interfaces and casts are stripped", `interface P { x: number } type Q = P & { y?: string }; const p = { x: 1 } as Q; const f = (v: number): number => v + 1; return f(p.x)`, `2`},
		{"timers resolve within the run", `await new Promise(r => setTimeout(r, 5)); return "late"`, `"late"`},
		{"odd tool names are reachable with brackets", `const r = await tools["echo"]({ k: 1 }); return r.k`, `1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, echoTools(), Limits{}, c.code)
			if !o.OK() {
				t.Fatalf("failed: %+v", o.Failure)
			}
			if string(o.Result) != c.want {
				t.Fatalf("result = %s, want %s", o.Result, c.want)
			}
		})
	}
}

func TestFailures(t *testing.T) {
	cases := []struct {
		name, code, kind, msg string
		line                  int
	}{
		{"a thrown Error reports its TS line", "const a: number = 1;\n\nthrow new Error(`bad ${a}`)", KindException, "Error: bad 1", 3},
		{"a thrown string is reported as a value", "throw 'nope'", KindException, "Uncaught 'nope'", 0},
		{"a thrown object is inspected", "throw { code: 7 }", KindException, "Uncaught { code: 7 }", 0},
		{"an uncaught failing tool names the tool, the code and the line of the call", "const x = 1;\nawait tools.fail({})", KindException, "ToolCallError [INVALID_ARGS from fail]: path must be relative", 2},
		{"a failing call inside a helper names the helper's line", "async function go() {\n  return await tools.fail({});\n}\nawait go();", KindException, "from fail", 2},
		{"an unhandled rejection fails the run", "Promise.reject(new Error('stray'));\nreturn 1", KindException, "unhandled promise rejection: Error: stray", 1},
		{"a runtime TypeError maps to the TS line", "type T = { a?: { b: number } };\nconst t: T = {};\nreturn t.a.b", KindException, "TypeError", 3},
		{"a syntax error names line and column", "const a = 1;\nlet b = ;", KindSyntax, "Unexpected", 2},
		{"an unclosed block says so", "if (true) {\n  console.log(1)", KindSyntax, "ends before every block", 2},
		{"an undeclared tool is rejected before running", "console.log('side effect');\nawait tools.ecko({})", KindUnknownTool, "did you mean echo?", 2},
		{"an undeclared bracket name is rejected too", `await tools["my-tool"]({})`, KindUnknownTool, `tools["my-tool"] is not a declared tool`, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, echoTools(), Limits{}, c.code)
			if o.OK() {
				t.Fatalf("succeeded with %s", o.Result)
			}
			f := o.Failure
			if f.Kind != c.kind || !strings.Contains(f.Message, c.msg) {
				t.Fatalf("failure = %+v, want kind %s containing %q", f, c.kind, c.msg)
			}
			if c.line > 0 && f.Line != c.line {
				t.Fatalf("line = %d, want %d (%+v)", f.Line, c.line, f)
			}
			if c.kind == KindUnknownTool && len(o.Logs) > 0 {
				t.Fatalf("pre-flight ran the program: %v", o.Logs)
			}
		})
	}
}

func TestConsoleFormatting(t *testing.T) {
	code := `
console.log("plain", 1, true, null, undefined)
console.info({ a: 1, b: "x", c: [1, 2] })
console.warn(new Map([["k", { v: 1 }]]), new Set([1]))
console.error(new Error("oops"))
console.debug({ a: { b: { c: { d: { e: { f: 1 } } } } } })
console.log(Array.from({ length: 102 }, (_, i) => i).length, [1, [2, [3]]])
const cyc: any = { name: "c" }; cyc.self = cyc; console.log(cyc)
class Point { constructor(public x: number, public y: number) {} } console.log(new Point(1, 2))
console.log(Array.from({ length: 150 }, (_, i) => i))
`
	o := runCode(t, echoTools(), Limits{}, code)
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	want := []string{
		"plain 1 true null undefined",
		"{ a: 1, b: 'x', c: [ 1, 2 ] }",
		"Map(1) { 'k' => { v: 1 } } Set(1) { 1 }",
		"Error: oops",
		"{ a: { b: { c: { d: { e: [Object] } } } } }",
		"102 [ 1, [ 2, [ 3 ] ] ]",
		"{ name: 'c', self: [Circular] }",
		"Point { x: 1, y: 2 }",
	}
	for i, w := range want {
		if o.Logs[i] != w {
			t.Errorf("line %d = %q, want %q", i, o.Logs[i], w)
		}
	}
	last := o.Logs[len(o.Logs)-1]
	if !strings.Contains(last, "... 50 more items") || !strings.Contains(last, "\n  0,\n") {
		t.Errorf("long array not capped and wrapped: %q", last)
	}
}

func TestFreshRuntimePerRun(t *testing.T) {
	d := echoTools()
	if o := runCode(t, d, Limits{}, `globalThis.leak = 1; return 1`); !o.OK() {
		t.Fatal(o.Failure)
	}
	o := runCode(t, d, Limits{}, `return typeof leak`)
	if string(o.Result) != `"undefined"` {
		t.Fatalf("state survived between runs: %s", o.Result)
	}
}

func TestHostIsNotReachable(t *testing.T) {
	o := runCode(t, echoTools(), Limits{}, `return [typeof require, typeof process, typeof host, typeof fetch, Object.keys(globalThis).length]`)
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	var got []any
	_ = json.Unmarshal(o.Result, &got)
	for _, v := range got[:4] {
		if v != "undefined" {
			t.Fatalf("host binding reachable: %s", o.Result)
		}
	}
}
