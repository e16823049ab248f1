package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// showTranscript prints a session as a person reads it: the prompts, the
// answers and the tool activity as ptc run prints them, each turn's end,
// and the usage. ptc session show --events prints the rows instead.
func showTranscript(w io.Writer, h session.Header, events []session.Event) error {
	created := time.UnixMilli(h.CreatedAt).Local().Format(time.DateTime)
	fmt.Fprintf(w, "session %s\ncreated %s  workspace %s  model %s  preset %s\n\n", h.ID, created, termsafe.String(h.Workspace), termsafe.String(h.Model), h.Preset)
	pr := newPrinter("text", w, w)
	pr.users = true
	for _, e := range events {
		pr.event(e)
		switch e.Type {
		case session.TypeTurnEnd:
			var d session.TurnEnd
			if json.Unmarshal(e.Data, &d) == nil {
				why := d.Reason
				if d.Failure != "" {
					why += ": " + d.Failure
				}
				pr.line(clip(fmt.Sprintf("— turn %d %s", d.Turn, why), 160))
				fmt.Fprintln(w)
			}
		case session.TypeRewind:
			var d session.Rewind
			if json.Unmarshal(e.Data, &d) == nil {
				pr.line(fmt.Sprintf("— rewound to before turn %d (%d path(s))", d.ToTurn, len(d.Files)))
			}
		}
	}
	pr.endReasoning()
	pr.breakLine()
	if line := usageLine(events); line != "" {
		fmt.Fprintf(w, "%s\n", line)
	}
	return nil
}
