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
