package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// TestRalphStopsAtItsCapAndCarriesOnlyThePreviousReport runs a loop of
// three rounds whose children never finish: three child sessions, each
// round's prompt holding the previous report and not the one before.
func TestRalphStopsAtItsCapAndCarriesOnlyThePreviousReport(t *testing.T) {
	c := newCLI(t)
	round := func(n int) map[string]any {
		return lane(fmt.Sprintf("Round %d of 3", n), reply(fmt.Sprintf(`{"status": "continue", "report": "REPORT-%d: did part %d, more to do"}`, n, n)))
	}
	model := scriptJSON(t, map[string]any{
		"replies": []any{
			map[string]any{"tool_calls": []map[string]any{{"id": "loop", "name": "ralph", "arguments": map[string]any{"objective": "migrate every handler to the new API", "max_rounds": 3}}}},
			reply("the loop ran out of rounds"),
		},
		"agents": []any{round(1), round(2), round(3), lane("Round 4 of", reply(`{"status": "done", "report": "must never run"}`))},
	})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "json", "migrate"))
	parent := c.show(f.SessionID)
	kids := c.children(f.SessionID)
	if len(kids) != 3 {
		t.Fatalf("%d child sessions, want 3", len(kids))
	}
	prompts := map[int]string{}
	for _, k := range kids {
		p := firstPrompt(t, c.show(k.Header.ID).Events)
		for n := 1; n <= 3; n++ {
			if strings.HasPrefix(p, fmt.Sprintf("Round %d of 3", n)) {
				prompts[n] = p
			}
		}
		if h := k.Header; h.Parent != f.SessionID || !strings.HasPrefix(h.ParentCall, "loop:round:") {
			t.Fatalf("child %+v", h)
		}
	}
	if len(prompts) != 3 {
		t.Fatalf("one child per round: %v", prompts)
	}
	for n := 1; n <= 3; n++ {
		p := prompts[n]
		if !strings.Contains(p, "migrate every handler to the new API") {
			t.Fatalf("round %d lacks the objective", n)
		}
		if n > 1 && !strings.Contains(p, fmt.Sprintf("REPORT-%d", n-1)) {
			t.Fatalf("round %d lacks round %d's report:\n%s", n, n-1, p)
		}
		if n > 2 && strings.Contains(p, fmt.Sprintf("REPORT-%d", n-2)) {
			t.Fatalf("round %d still carries round %d's report:\n%s", n, n-2, p)
		}
		if n == 1 && strings.Contains(p, "REPORT-") {
			t.Fatalf("round 1 has a report: %s", p)
		}
	}
	var rounds []session.RalphRound
	for _, e := range sessiontest.OfType(parent.Events, session.TypeRalphRound) {
		rounds = append(rounds, sessiontest.Decode[session.RalphRound](t, e))
	}
	if len(rounds) != 3 || rounds[2].Round != 3 || rounds[2].MaxRounds != 3 || rounds[2].Status != session.RalphContinue || rounds[0].Child == "" {
		t.Fatalf("ralph/round events %+v", rounds)
	}
	text := resultText(results(t, parent.Events)["loop"])
	if !strings.Contains(text, "ended max-rounds after 3 round(s)") || !strings.Contains(text, "REPORT-1") || !strings.HasSuffix(strings.TrimSpace(text), "REPORT-3: did part 3, more to do") {
		t.Fatalf("the parent must see every round and the last report:\n%s", text)
	}
}

func TestRalphEndsWhenARoundReportsDoneOrBlocked(t *testing.T) {
	c := newCLI(t)
	model := scriptJSON(t, map[string]any{
		"replies": []any{
			map[string]any{"tool_calls": []map[string]any{{"id": "loop", "name": "ralph", "arguments": map[string]any{"objective": "get the key"}}}},
			reply("blocked"),
		},
		"agents": []any{
			lane("Round 1 of 10", reply("working on it"), reply(`{"status": "continue", "report": "asked for the key"}`)),
			lane("Round 2 of 10", reply(`{"status": "blocked", "report": "only the user has the key"}`)),
		},
	})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "json", "go"))
	if kids := c.children(f.SessionID); len(kids) != 2 {
		t.Fatalf("%d children", len(kids))
	}
	text := resultText(results(t, c.show(f.SessionID).Events)["loop"])
	if !strings.Contains(text, "ended blocked after 2 round(s)") || !strings.Contains(text, "round 1 (") {
		t.Fatalf("%s", text)
	}
}
