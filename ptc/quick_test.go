package ptc

import (
	"context"
	"encoding/json"
	"testing"
)

func TestQuick(t *testing.T) {
	d := newFakeDispatcher(&fakeTool{name: "echo", safe: true})
	for _, code := range []string{
		"const a = 1;\n  await tools.nope({})",
		"let x: number = 1;\nthrow new Error(\"boom\")",
		"const a: string = 'x';\nlet b = ;",
		"const a = 1;\nnull.foo",
		"function f(n: number): number { return f(n+1) }\nf(0)",
		"interface A { x: number }\nconst a: A = {x: 1};\nfor (;;) {}",
		"if (true) {\n  console.log(1)\n",
		"type T = {a: number}\nconst t = {a: 1} as T\nthrow new ToolCallError('x', 'Y', 'msg')",
	} {
		o := Run(context.Background(), Limits{Timeout: 200e6}, Request{CallID: "c1", Code: code, Tools: []string{"echo"}, Dispatcher: d})
		b, _ := json.Marshal(o)
		t.Logf("%q\n  -> %s", code, b)
	}
}
