package sdkgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// sampler draws JSON values from a schema: mostly values the schema
// accepts, sometimes not (a validator sorts them out). It follows local
// $refs, picks enum values and union branches, fills required and some
// optional properties, and adds stray keys and items now and then.
type sampler struct {
	r    *rand.Rand
	root map[string]any
}

func (s *sampler) value(schema any, depth int) any {
	if depth > 6 {
		return nil
	}
	m, ok := schema.(map[string]any)
	if !ok {
		return s.scalar()
	}
	if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
		if defs, ok := s.root["$defs"].(map[string]any); ok && s.r.Intn(4) != 0 {
			return s.value(defs[strings.TrimPrefix(ref, "#/$defs/")], depth+1)
		}
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[s.r.Intn(len(e))]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := m[k].([]any); ok && len(l) > 0 {
			return s.value(l[s.r.Intn(len(l))], depth+1)
		}
	}
	if l, ok := m["allOf"].([]any); ok && len(l) > 0 {
		merged := map[string]any{}
		for _, sub := range l {
			if o, ok := s.value(sub, depth+1).(map[string]any); ok {
				for k, v := range o {
					merged[k] = v
				}
			}
		}
		return merged
	}
	t := m["type"]
	if l, ok := t.([]any); ok && len(l) > 0 {
		t = l[s.r.Intn(len(l))]
	}
	switch t {
	case "object":
		return s.object(m, depth)
	case "array":
		return s.array(m, depth)
	case "string":
		return []string{"", "x", "a b", "ünï"}[s.r.Intn(4)]
	case "integer":
		return s.r.Intn(20) - 10
	case "number":
		return []any{1.5, -2, 0, 1e3}[s.r.Intn(4)]
	case "boolean":
		return s.r.Intn(2) == 0
	case "null":
		return nil
	}
	if s.r.Intn(2) == 0 {
		return s.object(m, depth)
	}
	return s.scalar()
}

func (s *sampler) object(m map[string]any, depth int) map[string]any {
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	req := map[string]bool{}
	if l, ok := m["required"].([]any); ok {
		for _, r := range l {
			if k, ok := r.(string); ok {
				req[k] = true
			}
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order would make the sample differ between runs
	for _, k := range keys {
		if req[k] || s.r.Intn(2) == 0 {
			out[k] = s.value(props[k], depth+1)
		}
	}
	if s.r.Intn(3) == 0 {
		out[[]string{"extra", "x-ext", "__proto__", "constructor", "toString"}[s.r.Intn(5)]] = s.scalar()
	}
	return out
}

func (s *sampler) array(m map[string]any, depth int) []any {
	out := []any{}
	if p, ok := m["prefixItems"].([]any); ok {
		for _, it := range p {
			out = append(out, s.value(it, depth+1))
		}
	}
	if p, ok := m["items"].([]any); ok {
		for _, it := range p {
			out = append(out, s.value(it, depth+1))
		}
	}
	for i := s.r.Intn(3); i > 0; i-- {
		switch it := m["items"].(type) {
		case map[string]any:
			out = append(out, s.value(it, depth+1))
		default:
			out = append(out, s.scalar())
		}
	}
	return out
}

func (s *sampler) scalar() any {
	return []any{"s", 3, 2.5, true, nil, []any{}, map[string]any{}}[s.r.Intn(7)]
}

// TestRandomSchemasAcceptEveryValidValue is a second soundness check,
// independent of the suite: random schemas over every keyword the
// generator reads, values sampled from them, kept when a JSON Schema
// validator accepts them — and each kept value must compile as a call.
func TestRandomSchemasAcceptEveryValidValue(t *testing.T) {
	tsc := checker(t, "PTC_TSC", "../.tools/node/node_modules/.bin/tsc", "tsc")
	var files []suiteFile
	var cases []suiteCase
	r := rand.New(rand.NewSource(42))
	for i, tool := range randomTools(99, 250) {
		var root map[string]any
		if err := json.Unmarshal(tool.InputSchema, &root); err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		if err := c.AddResource("mem://s.json", bytes.NewReader(tool.InputSchema)); err != nil {
			t.Fatal(err)
		}
		compiled, err := c.Compile("mem://s.json")
		if err != nil {
			continue // a random schema the validator refuses says nothing about soundness
		}
		sdk, err := TypeScript([]Tool{{Name: "t", InputSchema: tool.InputSchema}}, Options{Compact: i%2 == 1})
		f := suiteFile{name: fmt.Sprintf("random.%d.ts", i), lineCase: map[int]int{}, genErr: err}
		var b strings.Builder
		b.WriteString("export {};\n" + sdk)
		f.sdkLines = tsLines(b.String())
		smp := &sampler{r: r, root: root}
		seen := map[string]bool{}
		for range 40 {
			raw, _ := json.Marshal(smp.value(root, 0))
			var inst any
			if seen[string(raw)] || json.Unmarshal(raw, &inst) != nil || compiled.Validate(inst) != nil {
				continue
			}
			seen[string(raw)] = true
			v, err := parseValue(raw)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, suiteCase{draft: "random", keyword: "random", group: tool.Name, test: string(raw), valid: true, compiled: err == nil})
			f.lineCase[tsLines(b.String())+1] = len(cases) - 1
			b.WriteString("tools.t(" + tsLiteral(v) + ");\n")
		}
		f.text = b.String()
		files = append(files, f)
	}
	for _, f := range checkSuite(t, tsc, files, cases) {
		t.Errorf("generator failure: %s", f)
	}
	rejected := 0
	for _, c := range cases {
		if !c.compiled {
			rejected++
			t.Errorf("a valid value does not compile: %s: %s:%s", c.group, c.test, c.tscError)
		}
	}
	t.Logf("%d valid values of %d random schemas, %d rejected", len(cases), len(files), rejected)
	if len(cases) < 1000 {
		t.Errorf("only %d valid values were sampled; the sampler needs work", len(cases))
	}
}
