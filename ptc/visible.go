package ptc

import (
	"encoding/json"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// RenderVisible is the text the model reads for an outcome: Render cut to
// limit bytes, the whole text saved under spillDir (as
// <callID>-output.txt) and pointed to when it does not fit.
func RenderVisible(o *Outcome, code string, limit int, spillDir, callID string) string {
	text, _ := tools.Truncate(Render(o, code), limit, spillDir, callID+"-output")
	return text
}

// Visible is the outcome with the same cap for structured output (`ptc
// exec --output json`): its console lines and result together hold about
// limit bytes. A result over its share (at least half of limit) becomes a
// string with its head, tail and a note; the lines keep their head and
// tail around a note line. The full text of whatever was cut is saved
// under spillDir (<callID>-result.txt, <callID>-logs.txt) and the notes
// say where. The outcome itself is not changed.
func Visible(o *Outcome, limit int, spillDir, callID string) *Outcome {
	logBytes := 0
	for _, l := range o.Logs {
		logBytes += len(l) + 1
	}
	if logBytes+len(o.Result) <= limit {
		return o
	}
	v := *o
	if room := limit - min(logBytes, limit/2); len(o.Result) > room {
		text, _ := tools.Truncate(string(o.Result), room, spillDir, callID+"-result")
		v.Result, _ = json.Marshal(text)
	}
	if room := limit - len(v.Result); logBytes > room {
		text, _ := tools.Truncate(strings.Join(o.Logs, "\n"), max(room, 0), spillDir, callID+"-logs")
		v.Logs = strings.Split(text, "\n")
	}
	return &v
}
