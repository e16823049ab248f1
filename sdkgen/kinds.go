package sdkgen

import "slices"

// kinds is a set of JSON value kinds. Numbers are split into integers and
// the rest, because JSON Schema's integer is a kind of its own.
type kinds uint8

const (
	kdNull kinds = 1 << iota
	kdBool
	kdInt
	kdFrac
	kdString
	kdArray
	kdObject

	kdAll = kdNull | kdBool | kdInt | kdFrac | kdString | kdArray | kdObject
)

// typeKinds is the set a type keyword names.
func typeKinds(names []string) kinds {
	var m kinds
	for _, n := range names {
		m |= map[string]kinds{"null": kdNull, "boolean": kdBool, "integer": kdInt, "number": kdInt | kdFrac,
			"string": kdString, "array": kdArray, "object": kdObject}[n]
	}
	return m
}

// kindsOf is the set of kinds a type's values can have. A reference may
// not be converted yet, so it may have any kind.
func kindsOf(t *typ) kinds {
	switch t.kind {
	case tJSON, tRef:
		return kdAll
	case tNever:
		return 0
	case tNull:
		return kdNull
	case tBool:
		return kdBool
	case tString:
		return kdString
	case tNumber:
		return kdInt | kdFrac
	case tInteger:
		return kdInt
	case tLiteral:
		switch t.lit.kind {
		case kNull:
			return kdNull
		case kBool:
			return kdBool
		case kNumber:
			if isInteger(t.lit.s) {
				return kdInt
			}
			return kdFrac
		case kString:
			return kdString
		case kArray:
			return kdArray
		}
		return kdObject
	case tArray, tTuple:
		return kdArray
	case tObject:
		return kdObject
	case tUnion:
		var m kinds
		for _, it := range t.items {
			m |= kindsOf(it)
		}
		return m
	case tIntersection:
		m := kdAll
		for _, it := range t.items {
			m &= kindsOf(it)
		}
		return m
	}
	return kdAll
}

// notKinds reads a not keyword whose subschema constrains only the type:
// the kinds it rules out. Other subschemas cannot be subtracted.
func notKinds(n *value) (kinds, bool) {
	if acceptsAll(n) {
		return kdAll, true
	}
	if n.kind != kObject || n.get("type") == nil {
		return 0, false
	}
	for _, k := range n.keys {
		if k != "type" && !annotations[k] {
			return 0, false
		}
	}
	return typeKinds(typeList(n)), true
}

// withoutKinds removes from t the values of the kinds in m, as far as the
// type model can say so: a type keeps every value it cannot split (number
// without integers stays number).
func withoutKinds(t *typ, m kinds) *typ {
	if kindsOf(t)&m == 0 {
		return t
	}
	switch t.kind {
	case tJSON:
		var ms []*typ
		for _, k := range []struct {
			kd kinds
			t  *typ
		}{{kdString, &typ{kind: tString}}, {kdInt | kdFrac, &typ{kind: tNumber}}, {kdBool, &typ{kind: tBool}},
			{kdNull, &typ{kind: tNull}}, {kdArray, &typ{kind: tArray, elem: anyJSON}}, {kdObject, &typ{kind: tObject, index: anyJSON}}} {
			if k.kd&^m != 0 {
				ms = append(ms, k.t)
			}
		}
		if len(ms) == 6 {
			return t
		}
		return union(ms)
	case tUnion:
		ms := make([]*typ, len(t.items))
		for i, it := range t.items {
			ms[i] = withoutKinds(it, m)
		}
		return union(ms)
	case tIntersection:
		// Filtering one member is enough: its members already share kinds.
		ms := slices.Clone(t.items)
		for i, it := range ms {
			if kindsOf(it)&^m == 0 {
				return never
			}
			if it.kind == tUnion || it.kind == tJSON {
				if ms[i] = withoutKinds(it, m); ms[i].kind == tNever {
					return never
				}
				return &typ{kind: tIntersection, items: ms}
			}
		}
		return t
	case tRef:
		return t
	}
	if kindsOf(t)&^m == 0 {
		return never
	}
	return t
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

// intersect drops any-JSON members (they constrain nothing), and removes
// from union members the kinds another member rules out, so that
// {"type": "object", "allOf": [{"properties": ...}]} stays one object
// rather than an object intersected with a union of every kind.
func intersect(ms []*typ) *typ {
	var out []*typ
	common := kdAll
	for _, m := range ms {
		switch m.kind {
		case tJSON:
		case tNever:
			return never
		default:
			out = append(out, m)
			common &= kindsOf(m)
		}
	}
	if common == 0 {
		return never
	}
	for i, m := range out {
		if m.kind == tUnion {
			out[i] = withoutKinds(m, kdAll&^common)
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
