package bench

import (
	"encoding/json"
	"fmt"
)

// Task is one scripted multi-tool coding task. Both presets answer the
// same prompt on the same fixture: the standard script makes one native
// tool call per step, as a model without run_code would, so every result
// lands in the context; the ptc script writes one program making the same
// calls and returning only the answer.
type Task struct {
	Name   string
	Prompt string
	// Answer is the expected final text, computed from the fixture.
	Answer func(*Fixture) string
	// Steps are the standard script's native calls, one per step.
	Steps func(*Fixture) []NativeCall
	// Program is the ptc script's run_code program.
	Program string
}

// NativeCall is one tool call of a standard script.
type NativeCall struct {
	Reasoning string
	Tool      string
	Args      map[string]any
}

// rootExpr finds the workspace root from inside a program: the tools
// return absolute paths and the answers name files relative to the root.
const rootExpr = `const root = (await tools.glob({ pattern: "go.mod" })).paths[0].replace(/\/go\.mod$/, "");
const rel = (p: string) => (p.startsWith(root + "/") ? p.slice(root.length + 1) : p);
`

// Tasks are the scripted tasks, in report order.
var Tasks = []Task{
	{
		Name:   "todos-per-package",
		Prompt: "Count the TODO comments in each Go package and say who owns them.",
		Answer: todoAnswer,
		Steps: func(*Fixture) []NativeCall {
			return []NativeCall{
				{"First list the Go files to know every package, including those without TODOs.", "glob", map[string]any{"pattern": "**/*.go"}},
				{"Now the TODO lines themselves, to count them and read the owners.", "grep", map[string]any{"pattern": "TODO", "include": "*.go", "output_mode": "content"}},
			}
		},
		Program: rootExpr + `const dir = (p: string) => { const r = rel(p); return r.includes("/") ? r.slice(0, r.lastIndexOf("/")) : "."; };
const { paths } = await tools.glob({ pattern: "**/*.go" });
const todos = await tools.grep({ pattern: "TODO", include: "*.go", output_mode: "content" });
const pkgs = new Map<string, { n: number; owners: Set<string> }>();
for (const p of paths) pkgs.set(dir(p), { n: 0, owners: new Set() });
for (const m of todos.matches ?? []) {
  const e = pkgs.get(dir(m.path))!;
  e.n++;
  const o = /TODO\((\w+)\)/.exec(m.text);
  if (o) e.owners.add(o[1]);
}
const rows = [...pkgs].map(([d, e]) => ` + "`${d}: ${e.n}`" + ` + (e.owners.size ? ` + "` (${[...e.owners].sort().join(\", \")})`" + ` : ""));
return rows.sort().join("; ");`,
	},
	{
		Name:   "largest-files-and-gomod",
		Prompt: "Which are the three largest Go files, what does each declare, and what does go.mod say?",
		Answer: largestAnswer,
		Steps: func(f *Fixture) []NativeCall {
			steps := []NativeCall{{"Sizes first: wc over every Go file, largest first.", "bash",
				map[string]any{"command": "wc -c $(find . -name '*.go') | sort -rn | head -4", "description": "largest Go files"}}}
			for _, p := range largestPaths(f, 3) {
				steps = append(steps, NativeCall{"Read " + p + " to see what it declares.", "read", map[string]any{"file_path": p}})
			}
			return append(steps, NativeCall{"And go.mod for the module and its requirements.", "read", map[string]any{"file_path": "go.mod"}})
		},
		Program: rootExpr + `const wc = await tools.bash({ command: "wc -c $(find . -name '*.go') | sort -rn | head -4", description: "largest Go files" });
const top = wc.stdout.trim().split("\n").slice(1).map((l) => { const [n, p] = l.trim().split(/\s+/); return { n: Number(n), p: p.replace(/^\.\//, "") }; });
const parts: string[] = [];
for (const { n, p } of top) {
  const { lines } = await tools.read({ file_path: p });
  const types: string[] = [], funcs: string[] = [];
  for (const { text } of lines) {
    let m = /^type (\w+)/.exec(text);
    if (m) types.push(m[1]);
    m = /^func (?:\([^)]*\) )?(\w+)/.exec(text);
    if (m) funcs.push(m[1]);
  }
  parts.push(` + "`${p} (${n} bytes): type ${types.join(\", \")}; func ${funcs.join(\", \")}`" + `);
}
const mod = (await tools.read({ file_path: "go.mod" })).lines.map((l) => l.text.trim());
let module = "", goVersion = "", inRequire = false;
const reqs: string[] = [];
for (const l of mod) {
  if (l.startsWith("module ")) module = l.slice(7);
  else if (l.startsWith("go ")) goVersion = l.slice(3);
  else if (l === "require (") inRequire = true;
  else if (l === ")") inRequire = false;
  else if (inRequire && l !== "" && !l.includes("// indirect")) reqs.push(l);
}
parts.push(` + "`module ${module}, go ${goVersion}, requires ${reqs.join(\", \")}`" + `);
return parts.join(" | ");`,
	},
	{
		Name:   "validate-signatures",
		Prompt: "Find every function or method named Validate and show its signature with its doc comment.",
		Answer: validateAnswer,
		Steps: func(f *Fixture) []NativeCall {
			steps := []NativeCall{{"Grep for the declarations first.", "grep",
				map[string]any{"pattern": `^func (\([^)]*\) )?Validate\(`, "include": "*.go", "output_mode": "content"}}}
			for _, h := range validateHits(f) {
				from := max(1, h.line-4)
				steps = append(steps, NativeCall{fmt.Sprintf("Read the doc comment above %s:%d.", h.path, h.line), "read",
					map[string]any{"file_path": h.path, "offset": from, "limit": h.line - from + 1}})
			}
			return steps
		},
		Program: rootExpr + `const hits = await tools.grep({ pattern: "^func (\\([^)]*\\) )?Validate\\(", include: "*.go", output_mode: "content" });
const rows: string[] = [];
for (const m of hits.matches ?? []) {
  const from = Math.max(1, m.line - 4);
  const { lines } = await tools.read({ file_path: m.path, offset: from, limit: m.line - from + 1 });
  const doc: string[] = [];
  for (let i = lines.length - 2; i >= 0 && lines[i].text.startsWith("//"); i--) doc.unshift(lines[i].text.replace(/^\/\/ ?/, ""));
  rows.push(` + "`${rel(m.path)}:${m.line}: ${doc.join(\" \")} — ${m.text.replace(/ \\{$/, \"\")}`" + `);
}
return rows.sort().join("; ");`,
	},
}

func largestPaths(f *Fixture, n int) []string {
	var out []string
	for _, file := range f.largestGoFiles(n) {
		out = append(out, file.Path)
	}
	return out
}

// script is the JSON shape `--model script:FILE` reads.
type script struct {
	Description string        `json:"description"`
	Replies     []scriptReply `json:"replies"`
}

type scriptReply struct {
	Reasoning string       `json:"reasoning,omitempty"`
	Text      string       `json:"text,omitempty"`
	ToolCalls []scriptCall `json:"tool_calls,omitempty"`
}

type scriptCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// StandardScript renders the task's standard-preset script.
func (t Task) StandardScript(f *Fixture) ([]byte, error) {
	s := script{Description: fmt.Sprintf("ptc bench, task %s, standard preset: one native tool call per step. Prompt: %s", t.Name, t.Prompt)}
	for _, c := range t.Steps(f) {
		s.Replies = append(s.Replies, scriptReply{Reasoning: c.Reasoning, ToolCalls: []scriptCall{{c.Tool, c.Args}}})
	}
	s.Replies = append(s.Replies, scriptReply{Text: t.Answer(f)})
	return json.MarshalIndent(s, "", "  ")
}

// PTCScript renders the task's ptc-preset script: one program, then the
// answer.
func (t Task) PTCScript(f *Fixture) ([]byte, error) {
	s := script{Description: fmt.Sprintf("ptc bench, task %s, ptc preset: one run_code program. Prompt: %s", t.Name, t.Prompt)}
	s.Replies = []scriptReply{
		{Reasoning: "One program can make every call and keep the intermediate results out of the context.",
			ToolCalls: []scriptCall{{"run_code", map[string]any{"description": t.Prompt, "code": t.Program}}}},
		{Text: t.Answer(f)},
	}
	return json.MarshalIndent(s, "", "  ")
}
