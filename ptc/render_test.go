package ptc

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestRenderGolden(t *testing.T) {
	cases := map[string]*Outcome{
		"success": {Logs: []string{"a", "b"}, Result: json.RawMessage(`{"k":[1,2]}`)},
		"empty":   {},
		"timeout": {Logs: []string{"working"}, Failure: &Failure{Kind: KindTimeout, Message: "the program did not finish within 2s", Line: 2, Column: 1},
			Calls: []CallRecord{
				{ID: "c:ptc:1", Name: "write", Started: true, Settled: true},
				{ID: "c:ptc:2", Name: "bash", Started: true, Settled: true, IsError: true, Code: "ABORTED"},
				{ID: "c:ptc:3", Name: "read", IsError: true, Code: "ABORTED_BEFORE_DISPATCH"},
			}},
		"syntax": {Failure: &Failure{Kind: KindSyntax, Message: `Unexpected ";"`, Line: 1, Column: 9, LineText: "let a = ;"}},
	}
	code := "await tools.write({});\nfor (;;) {}"
	for name, o := range cases {
		t.Run(name+" renders as its golden file", func(t *testing.T) {
			got := Render(o, code) + "\n"
			path := filepath.Join("testdata", "render-"+name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
