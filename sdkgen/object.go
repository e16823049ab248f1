package sdkgen

import (
	"fmt"
	"slices"
)

// object converts the object keywords of s. Which undeclared keys the
// object admits follows JSON Schema: any key when additionalProperties is
// absent or true (open), typed keys for patternProperties and a schema
// additionalProperties, none for false; with unevaluatedProperties, the
// keys some in-place subschema declares; inside such a subschema, the
// parent decides (delegated). Dependencies become unions intersected with
// the object.
func (c *converter) object(a at, s *value) *typ {
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
			pa := a.sub("properties/" + escapePtr(k))
			pa.notes = &p.doc
			p.t = c.conv(pa, v)
			declared[k] = true
			t.props = append(t.props, p)
		}
	}
	ap := s.get("additionalProperties")
	open := ap == nil || ap.kind == kBool && ap.b // undeclared keys may hold anything
	idx, patterns, exact := c.patterns(a, s)
	switch {
	case open && !exact:
		a.note("Keys matching a pattern that this type cannot name are not typed by it.")
	case ap != nil && ap.kind != kBool:
		idx = append(idx, c.conv(a.sub("additionalProperties"), ap))
		fallthrough
	case !open && !exact:
		patterns = nil // the index type covers the keys of every pattern
		for _, k := range s.get("patternProperties").keysIfObject() {
			a.note(fmt.Sprintf("Keys matching the pattern %s hold one of the index types.", k))
		}
	default:
		idx = nil
	}
	inPlace := a
	evaluated, byUneval := evaluatedKeys(a.d, s)
	if u := s.get("unevaluatedProperties"); u != nil && !byUneval && !acceptsAll(u) && ap == nil && !a.d.legacy {
		a.note("The unevaluatedProperties keyword is not expressed in this type.")
	}
	switch {
	case byUneval:
		inPlace.parentKeys = true
		for _, k := range evaluated {
			if !declared[k] {
				declared[k] = true
				t.props = append(t.props, &prop{name: k, t: anyJSON, optional: !req[k]})
			}
		}
		if u := s.get("unevaluatedProperties"); u.kind != kBool {
			t.index = c.conv(a.sub("unevaluatedProperties"), u)
		}
	case a.parentKeys:
		t.delegated = true
	case open && len(t.props) == 0 && len(reqOrder) == 0 && len(patterns) == 0:
		t.index = anyJSON // nothing declared: any object
	case open:
		t.open = true // a key that matches no pattern may hold anything
	case len(idx) > 0:
		t.index = union(idx)
	case len(patterns) > 0:
		t.delegated = true // closed over the declared keys and the pattern members' keys
	}
	for _, k := range reqOrder {
		if !declared[k] {
			pt := t.index
			if pt == nil {
				pt = anyJSON
			}
			t.props = append(t.props, &prop{name: k, t: pt,
				doc: []string{"Required by the schema but not described in its properties."}})
		}
	}
	if !c.propertyNames(a, s, t) {
		return never
	}
	return intersect(append(append([]*typ{t}, patterns...), c.dependencies(inPlace, s)...))
}

// patterns converts patternProperties: the type of each pattern's values,
// and for the patterns that convert to a template literal type an object
// whose index covers exactly the matching keys (a pattern that is one key
// becomes that optional member). exact reports whether every pattern
// converted.
func (c *converter) patterns(a at, s *value) (idx, members []*typ, exact bool) {
	pp := s.get("patternProperties")
	if pp == nil {
		return nil, nil, true
	}
	exact = true
	for i, k := range pp.keys {
		y := c.conv(a.sub("patternProperties/"+escapePtr(k)), pp.vals[i])
		idx = append(idx, y)
		tmpl, literal, ok := keyTemplate(k)
		switch {
		case !ok:
			exact = false
		case literal:
			members = append(members, &typ{kind: tObject, delegated: true, props: []*prop{{name: tmpl, t: y, optional: true}}})
		default:
			members = append(members, &typ{kind: tObject, delegated: true, index: y, indexKey: tmpl})
		}
	}
	return idx, members, exact
}

// propertyNames narrows t to the key names propertyNames allows, when it
// lists them (false, const or an enum of strings). It reports false when
// a required key is not among them: then no object is valid.
func (c *converter) propertyNames(a at, s *value, t *typ) bool {
	pn := s.get("propertyNames")
	if pn == nil || acceptsAll(pn) {
		return true
	}
	names, ok := listedNames(pn)
	if !ok || t.delegated {
		a.note("The propertyNames keyword is not expressed in this type.")
		return true
	}
	undeclared := t.index
	if undeclared == nil && t.open {
		undeclared = anyJSON
	}
	var props []*prop
	for _, p := range t.props {
		if slices.Contains(names, p.name) {
			props = append(props, p)
		} else if !p.optional {
			return false
		}
	}
	for _, n := range names {
		if undeclared != nil && !slices.ContainsFunc(props, func(p *prop) bool { return p.name == n }) {
			props = append(props, &prop{name: n, t: undeclared, optional: true})
		}
	}
	t.props, t.index, t.open = props, nil, false
	return true
}

// listedNames reads a propertyNames schema that enumerates the names.
func listedNames(pn *value) ([]string, bool) {
	if pn.isFalse() {
		return nil, true
	}
	var vals []*value
	switch {
	case pn.get("const") != nil:
		vals = []*value{pn.get("const")}
	case pn.get("enum") != nil && pn.get("enum").kind == kArray:
		vals = pn.get("enum").arr
	default:
		return nil, false
	}
	var names []string
	for _, v := range vals {
		if v.kind == kString && !slices.Contains(names, v.s) {
			names = append(names, v.s)
		}
	}
	return names, true
}

// dependencies converts dependentRequired, dependentSchemas and draft 7's
// dependencies: for each key, either the key is absent or the listed keys
// are present (or the subschema holds).
func (c *converter) dependencies(a at, s *value) []*typ {
	var out []*typ
	for _, kw := range []string{"dependentRequired", "dependentSchemas", "dependencies"} {
		m := s.get(kw)
		if m == nil || m.kind != kObject || (kw == "dependencies") != a.d.legacy {
			continue
		}
		for i, k := range m.keys {
			dep := m.vals[i]
			absent := &typ{kind: tObject, delegated: true, props: []*prop{{name: k, t: never, optional: true}}}
			present := &typ{kind: tObject, delegated: true, props: []*prop{{name: k, t: anyJSON}}}
			switch {
			case dep.kind == kArray:
				if len(dep.arr) == 0 {
					continue
				}
				for _, r := range dep.arr {
					if r.kind == kString && r.s != k {
						present.props = append(present.props, &prop{name: r.s, t: anyJSON})
					}
				}
				out = append(out, union([]*typ{absent, present}))
			case acceptsAll(dep):
			default:
				then := intersect([]*typ{present, c.conv(a.inPlace(kw+"/"+escapePtr(k)), dep)})
				out = append(out, union([]*typ{absent, then}))
			}
		}
	}
	return out
}

// evaluatedKeys lists the keys the properties of s and of its in-place
// subschemas evaluate, when s has an unevaluatedProperties that is not
// true and nothing evaluates keys in a way a type cannot follow (pattern
// or additional properties, a nested unevaluatedProperties, a dynamic or
// unresolved reference). Only then can the object be closed over them.
func evaluatedKeys(d *doc, s *value) ([]string, bool) {
	u := s.get("unevaluatedProperties")
	if u == nil || acceptsAll(u) || d.legacy {
		return nil, false
	}
	var keys []string
	ok := inPlaceWalk(d, s, func(v *value, root bool) bool {
		if v.get("patternProperties") != nil || v.get("additionalProperties") != nil ||
			!root && v.get("unevaluatedProperties") != nil {
			return false
		}
		if ps := v.get("properties"); ps != nil {
			for _, k := range ps.keys {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		return true
	})
	return keys, ok
}

// inPlaceWalk calls visit on s and on every subschema that applies to the
// same instance (allOf, anyOf, oneOf, if, then, else, dependent schemas,
// local $ref targets), each once. It stops and reports false when visit
// does, or at a reference it cannot follow.
func inPlaceWalk(d *doc, s *value, visit func(v *value, root bool) bool) bool {
	seen := map[*value]bool{}
	stack := []*value{s}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.kind != kObject || seen[v] {
			continue // a boolean schema evaluates nothing
		}
		seen[v] = true
		if !visit(v, v == s) || v.get("$dynamicRef") != nil || v.get("$recursiveRef") != nil {
			return false
		}
		if r := v.get("$ref"); r != nil && r.kind == kString {
			_, tv, ok := d.resolve(r.s)
			if !ok {
				return false
			}
			stack = append(stack, tv)
			if d.legacy {
				continue
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if l := v.get(k); l != nil {
				stack = append(stack, l.arr...)
			}
		}
		for _, k := range []string{"if", "then", "else"} {
			if o := v.get(k); o != nil {
				stack = append(stack, o)
			}
		}
		for _, k := range []string{"dependentSchemas", "dependencies"} {
			if m := v.get(k); m != nil && m.kind == kObject {
				stack = append(stack, m.vals...)
			}
		}
	}
	return true
}
