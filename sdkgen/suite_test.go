package sdkgen

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// The JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite) lives
// outside the repository, in ../shared/json-schema-test-suite relative to
// the module root. Its schemas become one tool each; its instances become
// calls of that tool in a TypeScript module checked by tsc --strict. A
// valid instance that does not compile is a generator bug (a correct call
// the SDK refuses); an invalid instance that compiles is only imprecision.

// suiteDrafts are the suite directories checked, with the $schema a root
// schema of that directory is given when it names none (the generator
// reads a schema without $schema as 2020-12, as MCP does).
var suiteDrafts = []struct{ dir, schema string }{
	{"draft2020-12", ""},
	{"draft7", "http://json-schema.org/draft-07/schema#"},
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteCase is one instance of one group, and what tsc made of it.
type suiteCase struct {
	form, draft, keyword, group, test string
	valid, compiled                   bool
	tscError                          string // the first error tsc reported on its line
}

// suiteFile is one generated module: the SDK, then one call per line.
type suiteFile struct {
	name      string
	text      string
	sdkLines  int         // lines 1..sdkLines are the SDK
	lineCase  map[int]int // line → index into cases
	groupDesc string
	genErr    error
}

// loadSuite renders every group of every draft as a module of the given
// form and returns the files and the cases they check.
func loadSuite(t *testing.T, dir string, opts Options, form string) ([]suiteFile, []suiteCase) {
	var files []suiteFile
	var cases []suiteCase
	for _, d := range suiteDrafts {
		paths, _ := filepath.Glob(filepath.Join(dir, d.dir, "*.json"))
		if len(paths) == 0 {
			t.Fatalf("no suite files under %s", filepath.Join(dir, d.dir))
		}
		for _, p := range paths {
			keyword := strings.TrimSuffix(filepath.Base(p), ".json")
			var groups []suiteGroup
			if err := json.Unmarshal([]byte(read(t, p)), &groups); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for gi, g := range groups {
				f := suiteFile{name: fmt.Sprintf("%s.%s.%d.%s.ts", d.dir, keyword, gi, form),
					lineCase: map[int]int{}, groupDesc: g.Description}
				sdk, err := TypeScript([]Tool{{Name: "t", InputSchema: withDialect(g.Schema, d.schema)}}, opts)
				if err != nil {
					f.genErr = err
				}
				var b strings.Builder
				b.WriteString("export {};\n" + sdk)
				if !strings.HasSuffix(sdk, "\n") {
					b.WriteString("\n")
				}
				f.sdkLines = tsLines(b.String())
				for _, tc := range g.Tests {
					v, err := parseValue(tc.Data)
					if err != nil {
						t.Fatalf("%s: %s: %v", p, tc.Description, err)
					}
					cases = append(cases, suiteCase{form: form, draft: d.dir, keyword: keyword, group: g.Description,
						test: tc.Description, valid: tc.Valid, compiled: f.genErr == nil})
					f.lineCase[tsLines(b.String())+1] = len(cases) - 1
					b.WriteString("tools.t(" + tsLiteral(v) + ");\n")
				}
				f.text = b.String()
				files = append(files, f)
			}
		}
	}
	return files, cases
}

// tsLines counts lines as tsc numbers them: U+2028 and U+2029 (which a
// doc comment may hold) end lines too.
func tsLines(s string) int {
	return strings.Count(s, "\n") + strings.Count(s, "\u2028") + strings.Count(s, "\u2029")
}

// withDialect adds $schema to a root object schema that names none.
func withDialect(schema json.RawMessage, dialect string) json.RawMessage {
	if dialect == "" {
		return schema
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil {
		return schema // a boolean schema
	}
	if _, ok := m["$schema"]; ok {
		return schema
	}
	return json.RawMessage(`{"$schema":` + strconv.Quote(dialect) + "," + strings.TrimPrefix(strings.TrimSpace(string(schema)), "{"))
}

// tsLiteral writes a JSON value as a one-line TypeScript expression with
// the same value: JSON text, except that a "__proto__" key is computed,
// because a literal __proto__ member sets the prototype instead of adding
// a key (JSON.parse adds the key).
func tsLiteral(v *value) string {
	switch v.kind {
	case kArray:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			parts[i] = tsLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case kObject:
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			key := quoteJSON(k)
			if k == "__proto__" {
				key = "[" + key + "]"
			}
			parts[i] = key + ": " + tsLiteral(v.vals[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return canonical(v)
}

var tsErrorAt = regexp.MustCompile(`^([^(]+)\((\d+),\d+\): error (TS\d+)`)

// checkSuite type-checks all files in one tsc program and marks each case
// compiled or not. Errors inside the SDK part are generator failures.
func checkSuite(t *testing.T, tsc string, files []suiteFile, cases []suiteCase) (genFailures []string) {
	dir := t.TempDir()
	var names []string
	byName := map[string]*suiteFile{}
	for i := range files {
		f := &files[i]
		if f.genErr != nil {
			genFailures = append(genFailures, f.name+": "+f.genErr.Error())
			continue
		}
		write(t, filepath.Join(dir, f.name), f.text)
		names = append(names, strconv.Quote(f.name))
		byName[f.name] = f
	}
	write(t, filepath.Join(dir, "tsconfig.json"), `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022", "lib": ["es2022"], "types": [], "skipLibCheck": true}, "files": [`+strings.Join(names, ", ")+`]}`)
	cmd := exec.Command(tsc, "-p", "tsconfig.json", "--pretty", "false")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Fatalf("running tsc: %v", err)
	}
	sdkBroken := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		m := tsErrorAt.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("tsc: %s", line)
		}
		f := byName[filepath.Base(m[1])]
		if f == nil {
			t.Fatalf("tsc reported an error in an unexpected file: %s", line)
		}
		n, _ := strconv.Atoi(m[2])
		if n <= f.sdkLines {
			if !sdkBroken[f.name] {
				sdkBroken[f.name] = true
				genFailures = append(genFailures, f.name+": the SDK does not compile: "+line)
			}
			continue
		}
		ci, ok := f.lineCase[n]
		if !ok {
			t.Fatalf("tsc reported an error on a line with no instance: %s", line)
		}
		if cases[ci].compiled {
			cases[ci].compiled, cases[ci].tscError = false, strings.TrimPrefix(line, m[0])
		}
	}
	for name := range sdkBroken {
		for _, ci := range byName[name].lineCase {
			cases[ci].compiled = false
		}
	}
	return genFailures
}

type rate struct{ validOK, valid, invalidNo, invalid int }

func (r rate) String() string {
	pct := func(a, b int) string {
		if b == 0 {
			return "   -  "
		}
		return fmt.Sprintf("%6.2f%%", 100*float64(a)/float64(b))
	}
	return fmt.Sprintf("valid accepted %4d/%-4d %s   invalid rejected %4d/%-4d %s",
		r.validOK, r.valid, pct(r.validOK, r.valid), r.invalidNo, r.invalid, pct(r.invalidNo, r.invalid))
}

func (r *rate) add(c suiteCase) {
	if c.valid {
		r.valid++
		if c.compiled {
			r.validOK++
		}
	} else {
		r.invalid++
		if !c.compiled {
			r.invalidNo++
		}
	}
}

// TestJSONSchemaSuiteThroughTSC is the soundness bar: over the suite's
// draft 2020-12 and draft 7 instances, at least 99.5 % of the valid ones
// compile as tool calls, at least 55 % of the invalid ones do not, and the
// generator never fails. Both the full SDK and the compact prompt SDK are
// checked. Run with -v for the table per keyword.
func TestJSONSchemaSuiteThroughTSC(t *testing.T) {
	dir := sharedtest.Dir(t, "json-schema-test-suite", "tests")
	tsc := checker(t, "PTC_TSC", "../.tools/node/node_modules/.bin/tsc", "tsc")
	// Both forms are checked in one tsc program, which halves the time.
	files, cases := loadSuite(t, dir, Options{}, "full")
	compactFiles, compactCases := loadSuite(t, dir, Options{Compact: true}, "compact")
	for _, f := range compactFiles {
		for line, ci := range f.lineCase {
			f.lineCase[line] = ci + len(cases)
		}
	}
	files, cases = append(files, compactFiles...), append(cases, compactCases...)
	fails := checkSuite(t, tsc, files, cases)
	for _, form := range []string{"full", "compact"} {
		t.Run("the "+form+" SDK accepts the valid instances and rejects most invalid ones", func(t *testing.T) {
			for _, f := range fails {
				if strings.Contains(f, "."+form+".ts") {
					t.Errorf("generator failure: %s", f)
				}
			}
			byDraft := map[string]*rate{}
			byKeyword := map[string]*rate{}
			var total rate
			var rejected, accepted []string
			for _, c := range cases {
				if c.form != form {
					continue
				}
				total.add(c)
				for _, mk := range []struct {
					m map[string]*rate
					k string
				}{{byDraft, c.draft}, {byKeyword, c.draft + "/" + c.keyword}} {
					if mk.m[mk.k] == nil {
						mk.m[mk.k] = &rate{}
					}
					mk.m[mk.k].add(c)
				}
				switch {
				case c.valid && !c.compiled:
					rejected = append(rejected, fmt.Sprintf("valid instance rejected: %s/%s: %s: %s:%s", c.draft, c.keyword, c.group, c.test, c.tscError))
				case !c.valid && c.compiled && testing.Verbose():
					accepted = append(accepted, fmt.Sprintf("invalid instance accepted: %s/%s: %s: %s", c.draft, c.keyword, c.group, c.test))
				}
			}
			var keys []string
			for k := range byKeyword {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Logf("%-40s %s", k, byKeyword[k])
			}
			for _, d := range suiteDrafts {
				t.Logf("%-40s %s", d.dir, byDraft[d.dir])
			}
			t.Logf("%-40s %s", "all", total)
			for _, r := range append(accepted, rejected...) {
				t.Log(r)
			}
			for name, r := range map[string]*rate{"all drafts": &total, suiteDrafts[0].dir: byDraft[suiteDrafts[0].dir], suiteDrafts[1].dir: byDraft[suiteDrafts[1].dir]} {
				if float64(r.validOK) < 0.995*float64(r.valid) {
					t.Errorf("%s: %s: fewer than 99.5 %% of the valid instances compile", name, r)
				}
				if float64(r.invalidNo) < 0.55*float64(r.invalid) {
					t.Errorf("%s: %s: fewer than 55 %% of the invalid instances are rejected", name, r)
				}
			}
		})
	}
}
