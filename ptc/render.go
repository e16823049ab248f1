package ptc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// NoOutput is what the model reads when a program printed and returned
// nothing, so that silence is never mistaken for a lost result.
const NoOutput = "(run_code completed with no output)"

// maxListedCalls bounds the call list of a failure report.
const maxListedCalls = 50

// Render is the model-visible text of an outcome. Success: the log lines,
// then the return value (a string as-is, anything else as indented JSON),
// or NoOutput. Failure: "code run failed (<kind>): <message>", the TS
// position and line (taken from code when given), the captured output and
// the nested calls already made, so a retry does not repeat side effects.
func Render(o *Outcome, code string) string {
	if o.OK() {
		return renderSuccess(o)
	}
	var b strings.Builder
	f := o.Failure
	b.WriteString(f.Error())
	if f.Line > 0 {
		text := f.LineText
		if text == "" {
			text = sourceLine(code, f.Line)
		}
		fmt.Fprintf(&b, "\nat line %d, column %d", f.Line, f.Column)
		if strings.TrimSpace(text) != "" {
			b.WriteString(": " + strings.TrimSpace(text))
		}
	}
	if len(o.Logs) > 0 {
		b.WriteString("\nCaptured output:\n")
		b.WriteString(strings.Join(o.Logs, "\n"))
		if o.Truncated {
			b.WriteString("\n[output stopped at the limit]")
		}
	}
	if len(o.Calls) > 0 {
		b.WriteString("\nTool calls made before the failure (do not repeat their side effects):")
		for i, c := range o.Calls {
			if i == maxListedCalls {
				fmt.Fprintf(&b, "\n  … and %d more", len(o.Calls)-i)
				break
			}
			fmt.Fprintf(&b, "\n  %s %s %s", c.ID, c.Name, callState(c))
		}
	}
	return b.String()
}

func callState(c CallRecord) string {
	switch {
	case !c.Started:
		return "not started"
	case !c.Settled:
		return "cancelled"
	case c.IsError:
		return "failed (" + c.Code + ")"
	}
	return "ok"
}

func renderSuccess(o *Outcome) string {
	parts := append([]string(nil), o.Logs...)
	if len(o.Result) > 0 {
		var s string
		if json.Unmarshal(o.Result, &s) == nil {
			parts = append(parts, s)
		} else {
			var buf bytes.Buffer
			if json.Indent(&buf, o.Result, "", "  ") == nil {
				parts = append(parts, buf.String())
			} else {
				parts = append(parts, string(o.Result))
			}
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" {
		return NoOutput
	}
	return text
}

func sourceLine(code string, line int) string {
	lines := strings.Split(code, "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}
