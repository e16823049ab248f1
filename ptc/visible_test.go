package ptc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVisibleCapsLogsAndResultTogether(t *testing.T) {
	many := make([]string, 5000)
	for i := range many {
		many[i] = strings.Repeat("x", 90) + "-line"
	}
	big, _ := json.Marshal(strings.Repeat("y", 5000))
	cases := []struct {
		name      string
		o         *Outcome
		spills    []string
		keepsLogs bool
	}{
		{"output within the cap is unchanged", &Outcome{Logs: []string{"a", "b"}, Result: json.RawMessage(`{"k":1}`)}, nil, true},
		{"a flood of lines keeps a head and a tail", &Outcome{Logs: many, Result: json.RawMessage(`"done"`)}, []string{"exec-logs.txt"}, false},
		{"a result over its share becomes text with a note", &Outcome{Logs: []string{"a"}, Result: big}, []string{"exec-result.txt"}, true},
		{"both over", &Outcome{Logs: many, Result: big}, []string{"exec-logs.txt", "exec-result.txt"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			const limit = 4000
			v := Visible(c.o, limit, dir, "exec")
			size := len(v.Result)
			for _, l := range v.Logs {
				size += len(l) + 1
			}
			if size > limit+400 { // the notes
				t.Fatalf("%d bytes visible, cap %d", size, limit)
			}
			if !json.Valid(v.Result) {
				t.Fatalf("the result is not JSON: %.200s", v.Result)
			}
			if c.keepsLogs && len(v.Logs) != len(c.o.Logs) {
				t.Fatalf("lines cut: %d of %d", len(v.Logs), len(c.o.Logs))
			}
			for _, name := range c.spills {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Fatalf("no spill file %s: %v", name, err)
				}
				joined := strings.Join(v.Logs, "\n") + string(v.Result)
				if !strings.Contains(joined, filepath.Join(dir, name)) {
					t.Fatalf("the output does not point to %s", name)
				}
			}
		})
	}
}
