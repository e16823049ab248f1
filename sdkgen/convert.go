package sdkgen

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// maxDepth caps how deeply one schema nests before the rest of that branch
// is typed as any JSON value. It keeps output readable and the stack small.
const maxDepth = 40

// doc is one schema document: a tool's input or output schema. $ref
// pointers resolve against its root.
type doc struct {
	root    *value
	base    string          // name of the document's type, e.g. ReadArgs
	tool    string          // PascalCase tool name, used to qualify colliding names
	targets map[string]bool // pointers some $ref in the document resolves to
	legacy  bool            // draft 7 or older: $ref replaces its siblings
}

// legacyDialect reports whether a $schema names draft 7 or an older draft,
// whose $ref ignores every keyword beside it. A schema without $schema is
// read as 2020-12, the default dialect of MCP.
func legacyDialect(schema string) bool {
	for _, d := range []string{"draft-03", "draft-04", "draft-05", "draft-06", "draft-07"} {
		if strings.Contains(schema, "json-schema.org/"+d+"/") || strings.HasSuffix(schema, "json-schema.org/"+d) {
			return true
		}
	}
	return false
}

type converter struct {
	byKey   map[string]*named
	byPtr   map[*doc]map[string]*named
	named   []*named
	pending []pendingNamed
}

type pendingNamed struct {
	n   *named
	d   *doc
	ptr string
	v   *value
}

// build validates and converts a tool set into the model both renderers
// read. Tools are sorted by name; duplicate or empty names are errors.
func build(tools []Tool) (*model, error) {
	sorted := slices.Clone(tools)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	c := &converter{byKey: map[string]*named{}, byPtr: map[*doc]map[string]*named{}}
	m := &model{}
	for i, t := range sorted {
		if t.Name == "" {
			return nil, fmt.Errorf("a tool has an empty name; give every tool a name")
		}
		if i > 0 && sorted[i-1].Name == t.Name {
			return nil, fmt.Errorf("tool %q is defined twice; tool names must be unique", t.Name)
		}
		tm := &toolModel{name: t.Name, desc: t.Description,
			argsHint: pascal(t.Name) + "Args", outHint: pascal(t.Name) + "Output"}
		in, err := loadDoc(t.InputSchema, `{"type":"object"}`, t.Name, "/inputSchema")
		if err != nil {
			return nil, err
		}
		tm.args = c.convertDoc(in, tm.argsHint, pascal(t.Name), &tm.notes)
		if len(t.OutputSchema) > 0 {
			out, err := loadDoc(t.OutputSchema, "", t.Name, "/outputSchema")
			if err != nil {
				return nil, err
			}
			tm.out = c.convertDoc(out, tm.outHint, pascal(t.Name), &tm.notes)
		}
		m.tools = append(m.tools, tm)
		c.drain()
	}
	m.named = c.named
	breakCycles(m.named)
	return m, nil
}

// drain converts the named types found so far, and those they reach, so
// that each tool's definitions are named before the next tool's.
func (c *converter) drain() {
	for len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		p.n.doc = docLines(p.v)
		p.n.t = c.body(at{d: p.d, ptr: p.ptr, notes: &p.n.doc}, p.v)
	}
}

func loadDoc(raw []byte, dflt, tool, where string) (*value, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte(dflt)
	}
	v, err := parseValue(raw)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %s: not valid JSON: %v", tool, where, err)
	}
	if err := checkSchema(v, where); err != nil {
		return nil, fmt.Errorf("tool %q: %v", tool, err)
	}
	return v, nil
}

func (c *converter) convertDoc(root *value, base, tool string, notes *[]string) *typ {
	d := &doc{root: root, base: base, tool: tool, targets: map[string]bool{}, legacy: legacyDialect(root.str("$schema"))}
	c.byPtr[d] = map[string]*named{}
	walk(root, func(s *value) {
		if r := s.get("$ref"); r != nil && r.kind == kString {
			if ptr, _, ok := d.resolve(r.s); ok {
				d.targets[ptr] = true
			}
		}
	})
	return c.conv(at{d: d, notes: notes}, root)
}

// walk calls f on every object in v, iteratively.
func walk(v *value, f func(*value)) {
	stack := []*value{v}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch s.kind {
		case kObject:
			f(s)
			stack = append(stack, s.vals...)
		case kArray:
			stack = append(stack, s.arr...)
		}
	}
}

// resolve follows a local $ref ("#", "#/json/pointer" or "#anchor") and
// returns the target's normalised pointer.
func (d *doc) resolve(ref string) (string, *value, bool) {
	hash := strings.IndexByte(ref, '#')
	if hash < 0 || (hash > 0 && ref[:hash] != d.root.str("$id")) {
		return "", nil, false
	}
	frag, err := url.PathUnescape(ref[hash+1:])
	if err != nil {
		return "", nil, false
	}
	if frag != "" && frag[0] != '/' {
		return d.anchor(frag)
	}
	cur, ptr := d.root, ""
	if frag == "" {
		return "", cur, true
	}
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch cur.kind {
		case kObject:
			cur = cur.get(seg)
		case kArray:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(cur.arr) {
				return "", nil, false
			}
			cur = cur.arr[i]
		default:
			cur = nil
		}
		if cur == nil {
			return "", nil, false
		}
		ptr += "/" + escapePtr(seg)
	}
	return ptr, cur, true
}

// anchor finds a subschema by $anchor (2019+) or a "#name" $id (draft 6/7).
func (d *doc) anchor(name string) (string, *value, bool) {
	type item struct {
		v   *value
		ptr string
	}
	stack := []item{{d.root, ""}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.v.kind == kObject && (it.v.str("$anchor") == name || it.v.str("$id") == "#"+name) {
			return it.ptr, it.v, true
		}
		switch it.v.kind {
		case kObject:
			for i, k := range it.v.keys {
				stack = append(stack, item{it.v.vals[i], it.ptr + "/" + escapePtr(k)})
			}
		case kArray:
			for i, e := range it.v.arr {
				stack = append(stack, item{e, it.ptr + "/" + strconv.Itoa(i)})
			}
		}
	}
	return "", nil, false
}

// namedFor returns the named type of the schema at ptr, creating it on
// first use. Definitions that are identical in two tools — the same
// pointer, the same text, and the same for everything they reference —
// share one named type.
func (c *converter) namedFor(d *doc, ptr string, v *value) *named {
	if n := c.byPtr[d][ptr]; n != nil {
		return n
	}
	key := c.closureKey(d, ptr, v)
	if n := c.byKey[key]; n != nil {
		c.byPtr[d][ptr] = n
		return n
	}
	hint, alt := nameHint(d, ptr)
	n := &named{hint: hint, altHint: alt}
	c.byKey[key] = n
	c.byPtr[d][ptr] = n
	c.named = append(c.named, n)
	c.pending = append(c.pending, pendingNamed{n, d, ptr, v})
	return n
}

func (c *converter) closureKey(d *doc, ptr string, v *value) string {
	seen := map[string]bool{ptr: true}
	queue := []string{ptr}
	vals := map[string]*value{ptr: v}
	var parts []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		parts = append(parts, p+"="+canonical(vals[p]))
		for t := range d.targets {
			if strings.HasPrefix(t, p+"/") {
				parts = append(parts, "target:"+t)
			}
		}
		walk(vals[p], func(s *value) {
			r := s.get("$ref")
			if r == nil || r.kind != kString {
				return
			}
			if tp, tv, ok := d.resolve(r.s); ok && !seen[tp] {
				seen[tp] = true
				vals[tp] = tv
				queue = append(queue, tp)
			}
		})
	}
	sort.Strings(parts[1:])
	return strings.Join(parts, "\x00")
}

func nameHint(d *doc, ptr string) (hint, alt string) {
	if ptr == "" {
		return d.base, ""
	}
	segs := strings.Split(ptr[1:], "/")
	for i := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
	}
	if n := len(segs); n >= 2 && (segs[n-2] == "$defs" || segs[n-2] == "definitions") {
		p := pascal(segs[n-1])
		return p, d.tool + p
	}
	var b strings.Builder
	b.WriteString(d.base)
	for _, s := range segs {
		switch s {
		case "properties", "$defs", "definitions", "anyOf", "oneOf", "allOf":
		case "items", "prefixItems", "additionalItems":
			b.WriteString("Item")
		case "additionalProperties", "patternProperties":
			b.WriteString("Value")
		default:
			if _, err := strconv.Atoi(s); err == nil {
				b.WriteString(s)
			} else {
				b.WriteString(pascal(s))
			}
		}
	}
	return b.String(), ""
}

// breakCycles finds named types that reference themselves without an
// object, array or tuple in between (type A = B; type B = A | null), which
// no language here accepts, and types the closing reference as any JSON.
func breakCycles(ns []*named) {
	state := map[*named]int{} // 0 new, 1 on stack, 2 done
	var visit func(n *named)
	visit = func(n *named) {
		state[n] = 1
		var refs []*typ
		immediateRefs(n.t, &refs)
		for _, r := range refs {
			switch state[r.ref] {
			case 1:
				n.doc = append(n.doc, "A reference cycle without an object in between was cut here; that member is typed as any JSON value.")
				*r = typ{kind: tJSON}
			case 0:
				visit(r.ref)
			}
		}
		state[n] = 2
	}
	for _, n := range ns {
		if state[n] == 0 {
			visit(n)
		}
	}
}

func immediateRefs(t *typ, out *[]*typ) {
	switch t.kind {
	case tRef:
		*out = append(*out, t)
	case tUnion, tIntersection:
		for _, m := range t.items {
			immediateRefs(m, out)
		}
	}
}
