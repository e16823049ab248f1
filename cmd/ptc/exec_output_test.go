package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/ptc"
)

// TestExecJSONCapsCallArguments: a program that passed a huge argument to
// a tool printed it whole in calls[]; the calls share the visible budget.
func TestExecJSONCapsCallArguments(t *testing.T) {
	huge := `{"command":"` + strings.Repeat("a", 100<<20) + `"}`
	o := &ptc.Outcome{Result: json.RawMessage(`1`), Calls: []ptc.CallRecord{
		{ID: "c1", Name: "bash", Arguments: huge, IsError: true},
		{ID: "c2", Name: "read", Arguments: `{"file_path":"go.mod"}`},
	}}
	var out bytes.Buffer
	if err := printExec(&out, "json", o, "", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 2<<20 {
		t.Fatalf("printed %d bytes", out.Len())
	}
	var j execJSON
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Calls) != 2 || !strings.HasSuffix(j.Calls[0].Arguments, "…") || j.Calls[1].Arguments != `{"file_path":"go.mod"}` {
		t.Errorf("calls %.200v", j.Calls)
	}
}
