package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report as tables, each figure next to its DESIGN
// §12 target.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t") }
	if len(r.Tokens) > 0 {
		fmt.Fprintln(tw, "PTC token saving (prompt tokens summed over a session; target ≥ 70 %)")
		row("task", "standard", "reqs", "ptc", "reqs", "saving", "same answer")
		for _, t := range r.Tokens {
			row(t.Task, fmt.Sprint(t.Standard.InputTokens), fmt.Sprint(t.Standard.Requests), fmt.Sprint(t.PTC.InputTokens),
				fmt.Sprint(t.PTC.Requests), fmt.Sprintf("%.1f %%", t.SavingPct), yes(t.SameAnswer && t.ProgramOK))
		}
		row("total", fmt.Sprint(r.Total.Standard), "", fmt.Sprint(r.Total.PTC), "", fmt.Sprintf("%.1f %%", r.Total.SavingPct), yes(r.Total.AllAnswers))
		row()
	}
	if l := r.Long; l != nil {
		fmt.Fprintf(tw, "Long session, %d steps of 20 KB results, %d-token window (pruning + compaction vs none)\n", l.Steps, l.Window)
		row("", "input tokens", "requests", "largest", "cacheable", "pruned", "compactions")
		for _, c := range []struct {
			name string
			run  LongRun
		}{{"compacted", l.Compacted}, {"uncompacted", l.Uncompacted}} {
			row(c.name, fmt.Sprint(c.run.InputTokens), fmt.Sprint(c.run.Requests), fmt.Sprint(c.run.LargestRequest),
				fmt.Sprintf("%.1f %%", 100*c.run.CacheableShare), fmt.Sprint(c.run.Pruned), fmt.Sprint(c.run.Compactions))
		}
		row("sent ratio", fmt.Sprintf("%.1f %%", 100*l.SentRatio))
		row("summary requests, exact prefix of the request before", fmt.Sprintf("min %.1f %%", 100*l.SummaryPrefixShareMin),
			fmt.Sprintf("mean %.1f %%", 100*l.SummaryPrefixShareAvg))
		row()
	}
	fmt.Fprintln(tw, "Sandboxed bash tool vs host /bin/bash -c (target p50 ≤ 2 ms, p99 ≤ 10 ms)")
	row("command", "sandbox p50", "p99", "host p50", "p99", "ratio p50")
	for _, b := range r.Bash {
		row(b.Command, ms(b.Sandbox.P50), ms(b.Sandbox.P99), ms(b.Host.P50), ms(b.Host.P99), fmt.Sprintf("%.2f×", b.RatioP50))
	}
	row()
	fmt.Fprintln(tw, "run_code (target trivial p50 ≤ 3 ms, ≤ 50 µs per nested call)")
	row("trivial program p50", ms(r.RunCode.TrivialP50))
	row("per nested no-op call", fmt.Sprintf("%.1f µs", r.RunCode.NestedCallUs))
	row()
	fmt.Fprintf(tw, "run_code vs node, workloads at scale %g, best of %d, %.1f s (target ≤ 10× node)\n", r.JS.Scale, r.JS.Samples, r.JS.Seconds)
	row("workload", "run_code", "node", "ratio", "same result")
	for _, j := range r.JS.Rows {
		node, ratio := "-", "-"
		if r.JS.Node {
			node, ratio = ms(j.NodeMs), fmt.Sprintf("%.1f×", j.Ratio)
		}
		row(j.Name, ms(j.GojaMs), node, ratio, yes(j.Same))
	}
	row()
	fmt.Fprintf(tw, "Event log, %d-event session (target ≥ 100 k events/s, 1 M derived in ≤ 1 s)\n", r.EventLog.Events)
	row("batched append (Badger)", fmt.Sprintf("%.0f events/s", r.EventLog.AppendPerSec))
	row("DeriveMessages", ms(r.EventLog.DeriveMs), fmt.Sprintf("%d messages", r.EventLog.Messages))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%.1f s in all.\n", r.Seconds)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	return nil
}

func ms(v float64) string { return fmt.Sprintf("%.2f ms", v) }

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}
