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
		p.n.t = c.body(p.d, p.v, p.ptr, 0, &p.n.doc)
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
	d := &doc{root: root, base: base, tool: tool, targets: map[string]bool{}}
	c.byPtr[d] = map[string]*named{}
	walk(root, func(s *value) {
		if r := s.get("$ref"); r != nil && r.kind == kString {
			if ptr, _, ok := d.resolve(r.s); ok {
				d.targets[ptr] = true
			}
		}
	})
	return c.conv(d, root, "", 0, notes)
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

// conv converts the schema s found at ptr; a schema some $ref points at
// becomes a reference to its named type wherever it appears.
func (c *converter) conv(d *doc, s *value, ptr string, depth int, notes *[]string) *typ {
	if d.targets[ptr] {
		return &typ{kind: tRef, ref: c.namedFor(d, ptr, s)}
	}
	return c.body(d, s, ptr, depth, notes)
}

// unexpressed are keywords whose constraint no type here can carry. The
// type stays the wider one and the doc says so.
var unexpressed = []string{"not", "if", "dependentSchemas", "$dynamicRef", "$recursiveRef"}

func (c *converter) body(d *doc, s *value, ptr string, depth int, notes *[]string) *typ {
	if depth > maxDepth {
		addNote(notes, fmt.Sprintf("Nested deeper than %d levels; typed as any JSON value.", maxDepth))
		return anyJSON
	}
	switch {
	case s.kind == kBool && s.b:
		return anyJSON
	case s.kind == kBool:
		return never
	case s.kind != kObject:
		addNote(notes, "Not a schema; typed as any JSON value.")
		return anyJSON
	}
	var parts []*typ
	if r := s.get("$ref"); r != nil && r.kind == kString {
		if tp, tv, ok := d.resolve(r.s); ok {
			parts = append(parts, &typ{kind: tRef, ref: c.namedFor(d, tp, tv)})
		} else {
			addNote(notes, fmt.Sprintf("$ref %s is not a local reference this generator resolves; typed as any JSON value.", r.s))
		}
	}
	if t := c.base(d, s, ptr, depth, notes); t != nil {
		parts = append(parts, t)
	}
	if l := s.get("allOf"); l != nil {
		for i, m := range l.arr {
			parts = append(parts, c.conv(d, m, ptr+"/allOf/"+strconv.Itoa(i), depth+1, notes))
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l := s.get(k); l != nil {
			var ms []*typ
			for i, m := range l.arr {
				ms = append(ms, c.conv(d, m, ptr+"/"+k+"/"+strconv.Itoa(i), depth+1, notes))
			}
			parts = append(parts, union(ms))
		}
	}
	for _, k := range unexpressed {
		if s.get(k) != nil {
			addNote(notes, fmt.Sprintf("The %s keyword is not expressed in this type.", k))
		}
	}
	t := intersect(parts)
	if s.isTrue("nullable") {
		t = union([]*typ{t, {kind: tNull}})
	}
	return t
}

func addNote(notes *[]string, n string) {
	if !slices.Contains(*notes, n) {
		*notes = append(*notes, n)
	}
}

// base converts const, enum and type (given or implied by keywords). It
// returns nil for a schema that constrains none of them.
func (c *converter) base(d *doc, s *value, ptr string, depth int, notes *[]string) *typ {
	types := typeList(s)
	if k := s.get("const"); k != nil {
		return literals([]*value{k}, types, notes)
	}
	if e := s.get("enum"); e != nil && e.kind == kArray {
		return literals(e.arr, types, notes)
	}
	if types == nil {
		types = impliedTypes(s)
	}
	var ts []*typ
	for _, tn := range types {
		switch tn {
		case "null":
			ts = append(ts, &typ{kind: tNull})
		case "boolean":
			ts = append(ts, &typ{kind: tBool})
		case "string":
			ts = append(ts, &typ{kind: tString})
		case "number":
			ts = append(ts, &typ{kind: tNumber})
		case "integer":
			ts = append(ts, &typ{kind: tInteger})
		case "object":
			ts = append(ts, c.object(d, s, ptr, depth, notes))
		case "array":
			ts = append(ts, c.array(d, s, ptr, depth, notes))
		}
	}
	if ts == nil {
		return nil
	}
	return union(ts)
}

func typeList(s *value) []string {
	t := s.get("type")
	if t == nil {
		return nil
	}
	if t.kind == kString {
		return []string{t.s}
	}
	var out []string
	for _, e := range t.arr {
		if e.kind == kString && !slices.Contains(out, e.s) {
			out = append(out, e.s)
		}
	}
	return out
}

func impliedTypes(s *value) []string {
	for _, k := range []string{"properties", "additionalProperties", "patternProperties", "required"} {
		if s.get(k) != nil {
			return []string{"object"}
		}
	}
	for _, k := range []string{"items", "prefixItems", "additionalItems"} {
		if s.get(k) != nil {
			return []string{"array"}
		}
	}
	return nil
}

// literals types enum/const values, dropping those the type keyword rules
// out (JSON Schema requires both to hold).
func literals(vals []*value, types []string, notes *[]string) *typ {
	var ts []*typ
	seen := map[string]bool{}
	for _, v := range vals {
		if types != nil && !typeAllows(types, v) {
			continue
		}
		if k := canonical(v); !seen[k] {
			seen[k] = true
			ts = append(ts, &typ{kind: tLiteral, lit: v})
		}
	}
	if len(ts) == 0 {
		addNote(notes, "No enum or const value matches the type; no value is valid.")
	}
	return union(ts)
}

func typeAllows(types []string, v *value) bool {
	name := map[kind]string{kNull: "null", kBool: "boolean", kString: "string", kArray: "array", kObject: "object"}[v.kind]
	if v.kind == kNumber {
		if slices.Contains(types, "number") {
			return true
		}
		f, err := strconv.ParseFloat(v.s, 64)
		return err == nil && f == float64(int64(f)) && slices.Contains(types, "integer")
	}
	return slices.Contains(types, name)
}

func (c *converter) object(d *doc, s *value, ptr string, depth int, notes *[]string) *typ {
	t := &typ{kind: tObject}
	req := map[string]bool{}
	var reqOrder []string
	if r := s.get("required"); r != nil && r.kind == kArray {
		for _, e := range r.arr {
			if !req[e.s] {
				req[e.s] = true
				reqOrder = append(reqOrder, e.s)
			}
		}
	}
	declared := map[string]bool{}
	if ps := s.get("properties"); ps != nil {
		for i, k := range ps.keys {
			v := ps.vals[i]
			p := &prop{name: k, optional: !req[k], readOnly: v.isTrue("readOnly"), doc: docLines(v)}
			p.t = c.conv(d, v, ptr+"/properties/"+escapePtr(k), depth+1, &p.doc)
			declared[k] = true
			t.props = append(t.props, p)
		}
	}
	ap := s.get("additionalProperties")
	var apT *typ
	switch {
	case ap == nil || ap.isFalse():
	case ap.kind == kBool:
		apT = anyJSON
	default:
		apT = c.conv(d, ap, ptr+"/additionalProperties", depth+1, notes)
	}
	for _, k := range reqOrder {
		if !declared[k] {
			pt := apT
			if pt == nil {
				pt = anyJSON
			}
			t.props = append(t.props, &prop{name: k, t: pt,
				doc: []string{"Required by the schema but not described in its properties."}})
		}
	}
	var idx []*typ
	if pp := s.get("patternProperties"); pp != nil {
		for i, k := range pp.keys {
			idx = append(idx, c.conv(d, pp.vals[i], ptr+"/patternProperties/"+escapePtr(k), depth+1, notes))
			addNote(notes, fmt.Sprintf("Keys matching the pattern %s hold one of the index types.", k))
		}
	}
	switch {
	case len(idx) > 0 && apT != nil:
		t.index = union(append(idx, apT))
	case len(idx) > 0:
		t.index = union(idx)
	case apT != nil:
		t.index = apT
	case ap == nil && len(t.props) == 0:
		t.index = anyJSON // nothing declared: any object
	}
	return t
}

func (c *converter) array(d *doc, s *value, ptr string, depth int, notes *[]string) *typ {
	var prefix []*value
	var rest *value
	restPtr := ptr + "/items"
	prefixPtr := ptr + "/prefixItems/"
	items := s.get("items")
	switch {
	case s.get("prefixItems") != nil && s.get("prefixItems").kind == kArray:
		prefix, rest = s.get("prefixItems").arr, items
	case items != nil && items.kind == kArray:
		prefix, rest, restPtr, prefixPtr = items.arr, s.get("additionalItems"), ptr+"/additionalItems", ptr+"/items/"
	case items != nil:
		return &typ{kind: tArray, elem: c.conv(d, items, ptr+"/items", depth+1, notes)}
	default:
		return &typ{kind: tArray, elem: anyJSON}
	}
	t := &typ{kind: tTuple, rest: anyJSON}
	for i, p := range prefix {
		t.items = append(t.items, c.conv(d, p, prefixPtr+strconv.Itoa(i), depth+1, notes))
	}
	switch {
	case rest == nil:
	case rest.isFalse():
		t.rest = nil
	default:
		t.rest = c.conv(d, rest, restPtr, depth+1, notes)
	}
	if n, ok := intKeyword(s, "maxItems"); ok && n <= len(t.items) {
		t.items, t.rest = t.items[:n], nil
	}
	t.minItems = len(t.items)
	if n, ok := intKeyword(s, "minItems"); ok && n < len(t.items) {
		t.minItems = n
	} else if !ok {
		t.minItems = 0
	}
	return t
}

func intKeyword(s *value, k string) (int, bool) {
	v := s.get(k)
	if v == nil || v.kind != kNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.s, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	if f > 1e6 {
		f = 1e6
	}
	return int(f), true
}

// union flattens, drops never, and collapses to any JSON value when a
// member already is.
func union(ms []*typ) *typ {
	var out []*typ
	for _, m := range ms {
		switch m.kind {
		case tNever:
		case tJSON:
			return anyJSON
		case tUnion:
			out = append(out, m.items...)
		default:
			out = append(out, m)
		}
	}
	switch len(out) {
	case 0:
		return never
	case 1:
		return out[0]
	}
	return &typ{kind: tUnion, items: out}
}

// intersect drops any-JSON members (they constrain nothing).
func intersect(ms []*typ) *typ {
	var out []*typ
	for _, m := range ms {
		switch m.kind {
		case tJSON:
		case tNever:
			return never
		default:
			out = append(out, m)
		}
	}
	switch len(out) {
	case 0:
		return anyJSON
	case 1:
		return out[0]
	}
	return &typ{kind: tIntersection, items: out}
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
