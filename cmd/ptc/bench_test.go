package main

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/bench"
)

func TestBenchQuickReportsEveryAnchor(t *testing.T) {
	c := newCLI(t)
	out := c.ok("bench", "--quick", "--output", "json")
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench --output json is not a report: %v\n%s", err, out)
	}
	t.Run("every task reaches the same answer with both presets", func(t *testing.T) {
		if len(rep.Tokens) != len(bench.Tasks) {
			t.Fatalf("%d token results, want one per task (%d)", len(rep.Tokens), len(bench.Tasks))
		}
		for _, r := range rep.Tokens {
			if !r.SameAnswer || !r.ProgramOK {
				t.Errorf("%s: same answer %v, program computed it %v\nexpected %q\nstandard %q\nptc      %q",
					r.Task, r.SameAnswer, r.ProgramOK, r.Expected, r.Standard.Answer, r.PTC.Answer)
			}
		}
		if !rep.Total.AllAnswers {
			t.Error("tokens_total.all_answers_match is false")
		}
	})
	t.Run("ptc spends fewer prompt tokens than standard on every task", func(t *testing.T) {
		for _, r := range rep.Tokens {
			if r.PTC.InputTokens <= 0 || r.PTC.InputTokens >= r.Standard.InputTokens {
				t.Errorf("%s: ptc %d tokens, standard %d", r.Task, r.PTC.InputTokens, r.Standard.InputTokens)
			}
			if r.PTC.Requests != 2 || r.Standard.Requests <= r.PTC.Requests {
				t.Errorf("%s: ptc made %d requests, standard %d", r.Task, r.PTC.Requests, r.Standard.Requests)
			}
		}
	})
	t.Run("the long session stays in its window and sends far fewer tokens compacted", func(t *testing.T) {
		l := rep.Long
		if l == nil {
			t.Fatal("no long_session section")
		}
		if l.Compacted.Compactions == 0 || l.Compacted.Pruned == 0 || l.Compacted.LargestRequest > l.Window ||
			l.Uncompacted.LargestRequest <= l.Window || l.SentRatio <= 0 || l.SentRatio >= 0.5 {
			t.Errorf("long session %+v", l)
		}
		if len(l.SummaryPrefixShare) != l.Compacted.Compactions || l.SummaryPrefixShareMin < 0.9 {
			t.Errorf("summary prefix shares %v", l.SummaryPrefixShare)
		}
	})
	t.Run("latency and event log sections are filled", func(t *testing.T) {
		if len(rep.Bash) != 3 {
			t.Fatalf("%d bash rows, want echo, grep and echo back to back", len(rep.Bash))
		}
		for _, b := range rep.Bash {
			if b.Samples == 0 || b.Sandbox.P50 <= 0 || b.Host.P50 <= 0 {
				t.Errorf("bash %q: %+v", b.Command, b)
			}
		}
		if rep.RunCode.Samples == 0 || rep.RunCode.TrivialP50 <= 0 {
			t.Errorf("run_code: %+v", rep.RunCode)
		}
		if len(rep.JS.Rows) == 0 || !rep.JS.AllSame {
			t.Errorf("run_code vs node: %+v", rep.JS)
		}
		for _, j := range rep.JS.Rows {
			if j.GojaMs <= 0 || j.ResultBytes == 0 || rep.JS.Node && j.NodeMs <= 0 {
				t.Errorf("run_code vs node row %+v", j)
			}
		}
		if rep.EventLog.Events != 100_000 || rep.EventLog.Messages == 0 || rep.EventLog.AppendPerSec <= 0 {
			t.Errorf("event log: %+v", rep.EventLog)
		}
	})
}

func TestBenchRejectsUnknownOutput(t *testing.T) {
	_, errs, code := newCLI(t).run("bench", "--output", "yaml")
	if code == 0 || errs == "" {
		t.Fatalf("bench --output yaml exited %d with stderr %q", code, errs)
	}
}
