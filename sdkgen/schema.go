package sdkgen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// at says where a schema is being converted.
type at struct {
	d     *doc
	ptr   string
	depth int
	notes *[]string // doc notes of the enclosing member or tool
	// parentKeys is set inside the in-place subschemas (allOf, anyOf,
	// oneOf, then, else, dependentSchemas) of a schema whose
	// unevaluatedProperties decides on the keys nobody declares: there a
	// missing additionalProperties leaves those keys to that parent
	// instead of opening the object.
	parentKeys bool
}

// sub is the position of a subschema that applies to a member or an item.
func (a at) sub(seg string) at {
	return at{d: a.d, ptr: a.ptr + "/" + seg, depth: a.depth + 1, notes: a.notes}
}

// inPlace is the position of a subschema that applies to the same value.
func (a at) inPlace(seg string) at {
	b := a.sub(seg)
	b.parentKeys = a.parentKeys
	return b
}

func (a at) note(n string) { addNote(a.notes, n) }

func addNote(notes *[]string, n string) {
	if !slices.Contains(*notes, n) {
		*notes = append(*notes, n)
	}
}

// conv converts the schema s found at a.ptr; a schema some $ref points at
// becomes a reference to its named type wherever it appears.
func (c *converter) conv(a at, s *value) *typ {
	if a.d.targets[a.ptr] {
		return &typ{kind: tRef, ref: c.namedFor(a.d, a.ptr, s)}
	}
	return c.body(a, s)
}

// annotations are keywords that never constrain a value.
var annotations = map[string]bool{"title": true, "description": true, "$comment": true, "default": true,
	"examples": true, "example": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"$schema": true, "$id": true, "$anchor": true, "$defs": true, "definitions": true}

// acceptsAll reports whether a schema is true or constrains nothing.
func acceptsAll(s *value) bool {
	if s.kind == kBool {
		return s.b
	}
	for _, k := range s.keys {
		if !annotations[k] {
			return false
		}
	}
	return s.kind == kObject
}

func (c *converter) body(a at, s *value) *typ {
	if a.depth > maxDepth {
		a.note(fmt.Sprintf("Nested deeper than %d levels; typed as any JSON value.", maxDepth))
		return anyJSON
	}
	switch {
	case s.kind == kBool && s.b:
		return anyJSON
	case s.kind == kBool:
		return never
	case s.kind != kObject:
		a.note("Not a schema; typed as any JSON value.")
		return anyJSON
	}
	var parts []*typ
	if r := s.get("$ref"); r != nil && r.kind == kString {
		ref := anyJSON
		if tp, tv, ok := a.d.resolve(r.s); ok {
			ref = &typ{kind: tRef, ref: c.namedFor(a.d, tp, tv)}
		} else {
			a.note(fmt.Sprintf("$ref %s is not a local reference this generator resolves; typed as any JSON value.", r.s))
		}
		if a.d.legacy {
			return ref // draft 7 and older ignore the keywords beside $ref
		}
		parts = append(parts, ref)
	}
	in := a
	if _, ok := evaluatedKeys(a.d, s); ok {
		in.parentKeys = true
	}
	if t := c.base(a, s); t != nil {
		parts = append(parts, t)
	}
	if l := s.get("allOf"); l != nil {
		for i, m := range l.arr {
			parts = append(parts, c.conv(in.inPlace("allOf/"+strconv.Itoa(i)), m))
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l := s.get(k); l != nil {
			parts = append(parts, c.alternatives(in, k, l.arr))
		}
	}
	if t := c.conditional(in, s); t != nil {
		parts = append(parts, t)
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if s.get(k) != nil {
			a.note(fmt.Sprintf("The %s keyword is not expressed in this type.", k))
		}
	}
	t := intersect(parts)
	if n := s.get("not"); n != nil {
		if m, ok := notKinds(n); ok {
			t = withoutKinds(t, m)
		} else {
			a.note("The not keyword is not expressed in this type.")
		}
	}
	if s.isTrue("nullable") {
		t = union([]*typ{t, {kind: tNull}})
	}
	return t
}

// alternatives converts anyOf or oneOf to a union. oneOf with two
// branches that accept every value accepts none.
func (c *converter) alternatives(a at, k string, branches []*value) *typ {
	var ms []*typ
	all := 0
	for i, m := range branches {
		if acceptsAll(m) {
			all++
		}
		ms = append(ms, c.conv(a.inPlace(k+"/"+strconv.Itoa(i)), m))
	}
	if k == "oneOf" && all >= 2 {
		return never
	}
	return union(ms)
}

// conditional converts if/then/else: the then branch when if accepts
// everything, the else branch when it accepts nothing, else the union of
// both branches (wider than the condition, never narrower). With a branch
// missing and a real condition, nothing can be said.
func (c *converter) conditional(a at, s *value) *typ {
	cond := s.get("if")
	if cond == nil {
		return nil
	}
	then, els := s.get("then"), s.get("else")
	switch {
	case acceptsAll(cond):
		if then != nil {
			return c.conv(a.inPlace("then"), then)
		}
	case cond.isFalse():
		if els != nil {
			return c.conv(a.inPlace("else"), els)
		}
	case then != nil && els != nil:
		return union([]*typ{c.conv(a.inPlace("then"), then), c.conv(a.inPlace("else"), els)})
	default:
		a.note("The if keyword is not expressed in this type.")
	}
	return nil
}

// base converts const, enum and type (given or implied by keywords). It
// returns nil for a schema that constrains none of them.
func (c *converter) base(a at, s *value) *typ {
	types := typeList(s)
	if k := s.get("const"); k != nil {
		return literals([]*value{k}, types, a.notes)
	}
	if e := s.get("enum"); e != nil && e.kind == kArray {
		return literals(e.arr, types, a.notes)
	}
	if types == nil {
		return c.untyped(a, s)
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
			ts = append(ts, c.object(a, s))
		case "array":
			ts = append(ts, c.array(a, s))
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

// objectKeywords and arrayKeywords constrain only objects or only arrays.
var (
	objectKeywords = []string{"properties", "additionalProperties", "patternProperties", "required",
		"unevaluatedProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies"}
	arrayKeywords = []string{"items", "prefixItems", "unevaluatedItems", "contains", "minItems", "maxItems"}
)

func hasAny(s *value, keys []string) bool {
	for _, k := range keys {
		if s.get(k) != nil {
			return true
		}
	}
	return false
}

// untyped converts a schema without type, const or enum. Object keywords
// constrain only objects and array keywords only arrays, so such a schema
// still admits every other kind of value: it is the typed object or array
// united with the kinds no keyword restricts (nil, any JSON value, when no
// keyword does). draft 7's additionalItems does nothing without an array
// of items, which is an array keyword already.
func (c *converter) untyped(a at, s *value) *typ {
	obj, arr := hasAny(s, objectKeywords), hasAny(s, arrayKeywords)
	if !obj && !arr {
		return nil
	}
	var ts []*typ
	if obj {
		ts = append(ts, c.object(a, s))
	}
	if arr {
		ts = append(ts, c.array(a, s))
	}
	ts = append(ts, &typ{kind: tString}, &typ{kind: tNumber}, &typ{kind: tBool}, &typ{kind: tNull})
	if !arr {
		ts = append(ts, &typ{kind: tArray, elem: anyJSON})
	}
	if !obj {
		ts = append(ts, &typ{kind: tObject, index: anyJSON})
	}
	return union(ts)
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
		return isInteger(v.s) && slices.Contains(types, "integer")
	}
	return slices.Contains(types, name)
}

// isInteger reports whether a JSON number's text denotes an integer
// (1.0 and 1e2 do).
func isInteger(num string) bool {
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
}
