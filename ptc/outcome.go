package ptc

import (
	"encoding/json"
	"fmt"
)

// Failure kinds. They appear in run_code results, in `ptc exec --output
// json` and in tests; add, never rename.
const (
	KindException   = "exception"    // the program threw (or rejected) and nothing caught it
	KindSyntax      = "syntax"       // the code does not parse
	KindTimeout     = "timeout"      // the wall-time budget ran out
	KindAborted     = "aborted"      // the caller cancelled the run
	KindOutputLimit = "output-limit" // logs + result exceeded the hard output cap
	KindMemoryLimit = "memory-limit" // heap growth during the run exceeded the budget
	KindCallLimit   = "call-limit"   // too many nested tool calls
	KindUnknownTool = "unknown-tool" // pre-flight: the code names a tool the SDK does not declare
	KindInternal    = "internal"     // the engine could not run the program (start-up or protocol failure)
)

// Failure says why a program stopped. Line and Column are 1-based positions
// in the model's TypeScript (0 when unknown); LineText is that source line.
type Failure struct {
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	LineText string `json:"lineText,omitempty"`
}

func (f *Failure) Error() string {
	return fmt.Sprintf("code run failed (%s): %s", f.Kind, f.Message)
}

// CallRecord is one nested tool call a program made. Started is false for
// a call the program made but that never began (the run ended first).
type CallRecord struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Started   bool   `json:"started"`
	Settled   bool   `json:"settled"`
	IsError   bool   `json:"isError"`
	Code      string `json:"code,omitempty"`
}

// Outcome is everything a run produced. Result is the JSON encoding of the
// program's return value (nil when it returned nothing); Failure is nil on
// success. Logs and Calls are filled in on failure too, so the model can
// see what already happened before retrying.
type Outcome struct {
	Logs    []string        `json:"logs"`
	Result  json.RawMessage `json:"result,omitempty"`
	Failure *Failure        `json:"failure,omitempty"`
	Calls   []CallRecord    `json:"calls"`
	// Truncated is set when logs were dropped after the hard output cap.
	Truncated bool `json:"truncated,omitempty"`
}

// OK reports whether the program completed.
func (o *Outcome) OK() bool { return o.Failure == nil }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
