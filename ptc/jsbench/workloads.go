package jsbench

// prng is a small deterministic generator both engines compute alike, and
// word a pseudo-random word of it (12 stems × 500 numbers).
const prng = `let seed = 42; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const word = () => ["alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa","lambda","mu"][Math.floor(rnd() * 12)] + Math.floor(rnd() * 500);
`

// items is a list of records of the kind tools return (about 5 MB of JSON
// at scale 1).
const items = prng + `const items = []; for (let i = 0; i < n(42000); i++) items.push({ id: i, name: word(), tags: [word(), word()], score: rnd(), active: rnd() < 0.5, owner: { login: word(), site: "example.org" } });
`

// logText is a 10 MB log (at scale 1) of lines a regexp takes apart.
const logText = prng + `const lines = []; for (let i = 0; i < n(160000); i++) lines.push("2024-05-" + (10 + i % 20) + " 12:00:" + (10 + i % 50) + " INFO user=" + word() + " id=" + i + " took " + Math.floor(rnd() * 900) + "ms path=/api/v1/items");
const text = lines.join("\n");
`

// ids is the order of a sorted array of records, compared between engines.
const ids = `a => a.map(o => o.id).join(",")`

// buildLoop is the += loop of the issue: one short piece per step.
const buildLoop = `let s = ""; for (let i = 0; i < N; i++) s += i + ","; return s;`

// Workloads are the shapes models write to reshape tool output: the jobs
// of round 2 (JSON, sorts, Map counting, regexps, join, stringify) and the
// two of round 3 that were far slower than Node (string building with +=
// and template literals, a comparator of no recognised shape).
var Workloads = []Workload{
	{Name: "JSON.parse + filter of 5 MB",
		Setup: items + `const text = JSON.stringify(items);`,
		Work:  `const data = JSON.parse(text); return data.filter(o => o.active && o.score > 0.5 && o.tags.length === 2);`,
		Check: `hits => hits.length + ":" + hits.map(o => o.id).join(",")`},
	{Name: "JSON.stringify of 5 MB",
		Setup: items,
		Work:  `return JSON.stringify(items);`},
	{Name: "sort 200 000 numbers",
		Setup: prng + `const nums = []; for (let i = 0; i < n(200000); i++) nums.push(Math.floor(rnd() * 1e9));`,
		Work:  `return nums.sort((a, b) => a - b);`,
		Check: `a => a.join(",")`},
	{Name: "sort 200 000 objects by a numeric key",
		Setup: prng + `const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: i, n: Math.floor(rnd() * 1e9), s: word() });`,
		Work:  `return arr.sort((a, b) => a.n - b.n);`,
		Check: ids},
	{Name: "sort 200 000 objects by a string key (localeCompare)",
		Setup: prng + `const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: i, s: word() + word() });`,
		Work:  `return arr.sort((a, b) => a.s.localeCompare(b.s));`,
		Check: ids},
	{Name: "sort 200 000 objects by a string key (< and >)",
		Setup: prng + `const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: i, s: word() + word() });`,
		Work:  `return arr.sort((a, b) => a.s < b.s ? -1 : a.s > b.s ? 1 : 0);`,
		Check: ids},
	{Name: "sort 200 000 objects, three keys with tie-breaks",
		Setup: prng + `const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: Math.floor(rnd() * 1e6), team: "team" + Math.floor(rnd() * 50), size: Math.floor(rnd() * 100) });`,
		Work:  `return arr.sort((x, y) => x.team < y.team ? -1 : x.team > y.team ? 1 : y.size - x.size || x.id - y.id);`,
		Check: ids},
	{Name: "sort 200 000 objects, two keys in a block body",
		Setup: prng + `const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: i, n: Math.floor(rnd() * 1000), s: word() });`,
		Work:  `return arr.sort((a, b) => { const d = a.n - b.n; return d !== 0 ? d : a.id - b.id });`,
		Check: ids},
	{Name: "sort 200 000 objects, a comparator of no key shape",
		Setup: prng + `const rank = { alpha: 3, beta: 1, gamma: 2 }; const arr = []; for (let i = 0; i < n(200000); i++) arr.push({ id: i, kind: ["alpha","beta","gamma"][Math.floor(rnd() * 3)], n: Math.floor(rnd() * 1000) });`,
		Work:  `return arr.sort((a, b) => rank[a.kind] - rank[b.kind] || a.n - b.n);`,
		Check: ids},
	{Name: "word count with a Map over 10 MB",
		Setup: prng + `const ws = []; for (let i = 0; i < n(1200000); i++) ws.push(word()); const text = ws.join(" ");`,
		Work:  `const m = new Map(); for (const w of text.split(/\s+/)) m.set(w, (m.get(w) || 0) + 1); return m;`,
		Check: `m => [...m]`},
	{Name: "re.exec loop with capture groups over 10 MB",
		Setup: logText,
		Work:  `const re = /user=(\w+) id=(\d+) took (\d+)ms/g; let m, sum = 0, count = 0; while ((m = re.exec(text)) !== null) { sum += Number(m[3]); count++ } return count + ":" + sum;`},
	{Name: "replace with a capture group over 10 MB",
		Setup: logText,
		Work:  `return text.replace(/id=(\d+) took/g, "id=<$1> took");`},
	{Name: "join of 1 000 000 pieces",
		Setup: `const N = n(1000000);`,
		Work:  `const parts = []; for (let i = 0; i < N; i++) parts.push("item" + i); return parts.join(",");`},
	{Name: "+= loop of 100 000 pieces", Setup: `const N = n(100000);`, Work: buildLoop},
	{Name: "+= loop of 300 000 pieces", Setup: `const N = n(300000);`, Work: buildLoop},
	{Name: "+= loop of 1 000 000 pieces", Setup: `const N = n(1000000);`, Work: buildLoop},
	{Name: "template literal lines of 100 000 records",
		Setup: prng + `const recs = []; for (let i = 0; i < n(100000); i++) recs.push({ id: i, name: word(), score: rnd() * 100 });`,
		Work:  "let out = \"\"; for (const r of recs) out += `${r.id}\\t${r.name}\\t${r.score.toFixed(2)}\\n`; return out;"},
	{Name: "template literal onto itself, 100 000 steps",
		Setup: `const N = n(100000);`,
		Work:  "let out = \"\"; for (let i = 0; i < N; i++) out = `${out}<li>${i}</li>`; return out;"},
}
