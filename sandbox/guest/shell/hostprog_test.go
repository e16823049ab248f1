package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// callPos finds the position of the call whose first word is name.
func callPos(t *testing.T, f *syntax.File, name string) syntax.Pos {
	t.Helper()
	var pos syntax.Pos
	syntax.Walk(f, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name && !pos.IsValid() {
			pos = ce.Pos()
		}
		return true
	})
	if !pos.IsValid() {
		t.Fatalf("no call to %s", name)
	}
	return pos
}

func TestAHostProgramOwnsItsStdinOnlyWhenNoLoopReadsIt(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   bool
	}{
		{"a command alone reads the script's stdin", "prog", true},
		{"a pipeline stage reads the pipe", "cat x | prog", true},
		{"the first stage reads the script's stdin", "prog | cat", true},
		{"a redirect gives it its own", "prog < in.txt", true},
		{"so does a here-document", "prog <<EOF\nhi\nEOF", true},
		{"and a here-string", "prog <<< hi", true},
		{"a block passes its pipe on", "cat x | { prog; }", true},
		{"a subshell too", "cat x | (echo; prog)", true},
		{"inside a loop fed by a pipe it must not eat the loop's input", "find . | while read f; do prog -l \"$f\"; done", false},
		{"nor inside a loop fed by a file", "while read f; do prog \"$f\"; done < list", false},
		{"nor in a for loop reading the script's stdin", "for f in a b; do prog; done", false},
		{"inside a loop with its own redirect it owns it", "while read f; do prog < \"$f\"; done < list", true},
		{"inside a loop as a pipe stage it owns it", "while read f; do cat \"$f\" | prog; done < list", true},
		{"inside a function it cannot tell and feeds it", "f() { prog; }; cat x | f", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := syntax.NewParser().Parse(strings.NewReader(tt.script), "")
			if err != nil {
				t.Fatal(err)
			}
			if got := stdinIsOwn(f, callPos(t, f, "prog")); got != tt.want {
				t.Fatalf("stdinIsOwn = %v, want %v", got, tt.want)
			}
		})
	}
}
