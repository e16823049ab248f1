package ptc

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// postproc is a reshaping job of the kind programs do with tool output,
// written once in plain JavaScript so goja and Node run the same text.
// setup builds the input (not timed), work is timed, and both engines must
// return the same check value.
type postproc struct {
	name, setup, work string
}

// prng is a small deterministic generator both engines compute alike.
const prng = `let seed = 42; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const word = () => ["alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa","lambda","mu"][Math.floor(rnd() * 12)] + Math.floor(rnd() * 500);
`

var postprocs = []postproc{
	{"JSON.parse + filter of 5 MB",
		prng + `const items = []; for (let i = 0; i < 42000; i++) items.push({ id: i, name: word(), tags: [word(), word()], score: rnd(), active: rnd() < 0.5, owner: { login: word(), site: "example.org" } });
const text = JSON.stringify(items);`,
		`const data = JSON.parse(text); const hits = data.filter(o => o.active && o.score > 0.5 && o.tags.length === 2); return hits.length + ":" + text.length;`},
	{"capture-group regex over 10 MB",
		prng + `const lines = []; for (let i = 0; i < 160000; i++) lines.push("2024-05-" + (10 + i % 20) + " 12:00:" + (10 + i % 50) + " INFO user=" + word() + " id=" + i + " took " + Math.floor(rnd() * 900) + "ms path=/api/v1/items");
const text = lines.join("\n");`,
		`const re = /user=(\w+) id=(\d+) took (\d+)ms/g; let m, sum = 0, n = 0; while ((m = re.exec(text)) !== null) { sum += Number(m[3]); n++ } return n + ":" + sum + ":" + text.length;`},
	{"replace with a capture-group regex over 10 MB",
		prng + `const lines = []; for (let i = 0; i < 160000; i++) lines.push("2024-05-" + (10 + i % 20) + " 12:00:" + (10 + i % 50) + " INFO user=" + word() + " id=" + i + " took " + Math.floor(rnd() * 900) + "ms path=/api/v1/items");
const text = lines.join("\n");`,
		`const out = text.replace(/id=(\d+) took/g, "id=<$1> took"); return out.length + ":" + out.slice(0, 80);`},
	{"sort 200 000 objects by a numeric key",
		prng + `const arr = []; for (let i = 0; i < 200000; i++) arr.push({ id: i, n: Math.floor(rnd() * 1e9), s: word() });`,
		`arr.sort((a, b) => a.n - b.n); return arr[0].id + ":" + arr[100000].id + ":" + arr[199999].id;`},
	{"sort 200 000 objects by a string key (localeCompare)",
		prng + `const arr = []; for (let i = 0; i < 200000; i++) arr.push({ id: i, n: Math.floor(rnd() * 1e9), s: word() + word() });`,
		`arr.sort((a, b) => a.s.localeCompare(b.s)); return arr[0].s + ":" + arr[100000].s + ":" + arr[199999].s;`},
	{"sort 200 000 objects by a string key (< and >)",
		prng + `const arr = []; for (let i = 0; i < 200000; i++) arr.push({ id: i, n: Math.floor(rnd() * 1e9), s: word() + word() });`,
		`arr.sort((a, b) => a.s < b.s ? -1 : a.s > b.s ? 1 : 0); return arr[0].id + ":" + arr[100000].id + ":" + arr[199999].id;`},
	{"sort 200 000 objects, two-key comparator (no fast path)",
		prng + `const arr = []; for (let i = 0; i < 200000; i++) arr.push({ id: i, n: Math.floor(rnd() * 1000), s: word() });`,
		`arr.sort((a, b) => { const d = a.n - b.n; return d !== 0 ? d : a.id - b.id }); return arr[0].id + ":" + arr[100000].id + ":" + arr[199999].id;`},
	{"word-count Map over 5 MB",
		prng + `const ws = []; for (let i = 0; i < 600000; i++) ws.push(word()); const text = ws.join(" ");`,
		`const m = new Map(); for (const w of text.split(/\s+/)) m.set(w, (m.get(w) || 0) + 1); let top = ""; let best = 0; for (const [w, c] of m) if (c > best) { best = c; top = w } return m.size + ":" + top + ":" + best;`},
}

// program times work after setup and returns {ms, check}.
func (p postproc) program() string {
	return p.setup + "\nconst t0 = Date.now();\nconst check = (() => { " + p.work + " })();\nreturn { ms: Date.now() - t0, check: String(check) };"
}

type timing struct {
	Ms    float64 `json:"ms"`
	Check string  `json:"check"`
}

func runGoja(b *testing.B, p postproc) timing {
	o := Run(context.Background(), Limits{Timeout: 5 * time.Minute, HeapGrowth: 2 << 30}, Request{CallID: "bench", Code: p.program()})
	if !o.OK() {
		b.Fatalf("%s: %+v", p.name, o.Failure)
	}
	var t timing
	if err := json.Unmarshal(o.Result, &t); err != nil {
		b.Fatalf("%s: %s", p.name, o.Result)
	}
	return t
}

func runNode(b *testing.B, node string, p postproc) timing {
	script := "(async () => {" + p.program() + "\n})().then(r => console.log(JSON.stringify(r)))"
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		b.Fatalf("node %s: %v", p.name, err)
	}
	var t timing
	if err := json.Unmarshal(out, &t); err != nil {
		b.Fatalf("node %s: %q", p.name, out)
	}
	return t
}

func findNode() string {
	if p, err := exec.LookPath("node"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/node"); err == nil {
		return "/usr/bin/node"
	}
	return ""
}

// BenchmarkPostProcessing times each job in goja (through Run, so with
// the engine's own fast paths) and, when node is installed, in Node on
// the same text in the same run, and prints the table with the ratio.
// Each figure is the best of the iterations.
func BenchmarkPostProcessing(b *testing.B) {
	node := findNode()
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-52s %10s %10s %7s\n", "job", "goja ms", "node ms", "ratio")
	for _, p := range postprocs {
		b.Run(p.name, func(b *testing.B) {
			best := func(run func() timing) timing {
				var t timing
				for i := 0; i < max(b.N, 1); i++ {
					r := run()
					if i == 0 || r.Ms < t.Ms {
						t = r
					}
				}
				return t
			}
			g := best(func() timing { return runGoja(b, p) })
			b.ReportMetric(g.Ms, "goja-ms")
			line := fmt.Sprintf("%-52s %10.0f %10s %7s\n", p.name, g.Ms, "-", "-")
			if node != "" {
				n := best(func() timing { return runNode(b, node, p) })
				if n.Check != g.Check {
					b.Fatalf("goja and node disagree: %q vs %q", g.Check, n.Check)
				}
				ratio := g.Ms / max(n.Ms, 1)
				b.ReportMetric(n.Ms, "node-ms")
				b.ReportMetric(ratio, "ratio")
				line = fmt.Sprintf("%-52s %10.0f %10.0f %6.1fx\n", p.name, g.Ms, n.Ms, ratio)
			}
			table.WriteString(line)
		})
	}
	b.Log(table.String())
}
