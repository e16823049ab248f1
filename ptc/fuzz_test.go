package ptc

import (
	"testing"
)

// FuzzCompile checks that any code either compiles or fails with a
// positioned syntax/unknown-tool failure, and never panics.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"return 1", "let a = ;", "await tools.x({})", "tools['a-b']", "if (", "`${", "/*", "})(); (async () => {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		_, fail := compile(code, []string{"x"})
		if fail != nil && fail.Kind != KindSyntax && fail.Kind != KindUnknownTool {
			t.Fatalf("unexpected kind %q", fail.Kind)
		}
	})
}

// FuzzComparatorPlan checks that reading any comparator text ends in a
// plan or none, never a panic, and that a plan has levels.
func FuzzComparatorPlan(f *testing.F) {
	for _, s := range []string{"(a, b) => a.n - b.n", "(x, y) => x.t < y.t ? -1 : x.t > y.t ? 1 : y.s - x.s || x.id - y.id",
		"(a, b) => {\n  const d = a.n - b.n;\n  return d !== 0 ? d : a.id - b.id;\n}", "function(a, b) { if (a.x < b.x) return -1; return 0 }",
		"(a, b) => a['k'].localeCompare(b['k'])", "(a, b) => { { return 1 } }", "(a,b)=>a[0]-b[0]", `(a, b) => "\\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if p := planFor(src); p != nil && len(p.levels) == 0 {
			t.Fatalf("a plan without levels for %q", src)
		}
	})
}
