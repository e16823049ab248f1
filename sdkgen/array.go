package sdkgen

import (
	"strconv"
)

// array converts the array keywords of s: a list for items alone, a tuple
// for prefixItems (or draft 7's array form of items, with additionalItems
// as the rest). unevaluatedItems closes a tuple after the items its
// in-place subschemas evaluate. minItems and maxItems shape tuples only:
// on a list they would turn every array a program builds into a type
// error. contains: false admits no array unless minContains is 0.
func (c *converter) array(a at, s *value) *typ {
	if s.get("contains").isFalse() {
		if n, ok := intKeyword(s, "minContains"); a.d.legacy || !ok || n > 0 {
			return never
		}
	}
	var prefix []*value
	var rest *value
	restSeg, prefixSeg := "items", "prefixItems/"
	items := s.get("items")
	switch {
	case !a.d.legacy && s.get("prefixItems") != nil && s.get("prefixItems").kind == kArray:
		prefix, rest = s.get("prefixItems").arr, items
	case items != nil && items.kind == kArray:
		prefix, rest, restSeg, prefixSeg = items.arr, s.get("additionalItems"), "additionalItems", "items/"
	case items != nil:
		return &typ{kind: tArray, elem: c.conv(a.sub("items"), items)}
	}
	n, closes := evaluatedItems(a.d, s)
	if len(prefix) == 0 && !closes {
		return &typ{kind: tArray, elem: anyJSON}
	}
	t := &typ{kind: tTuple, rest: anyJSON}
	for i, p := range prefix {
		t.items = append(t.items, c.conv(a.sub(prefixSeg+strconv.Itoa(i)), p))
	}
	switch {
	case rest != nil && rest.isFalse():
		t.rest = nil
	case rest != nil:
		t.rest = c.conv(a.sub(restSeg), rest)
	case closes:
		for len(t.items) < n {
			t.items = append(t.items, anyJSON)
		}
		t.rest = nil
		if u := s.get("unevaluatedItems"); !u.isFalse() {
			t.rest = c.conv(a.sub("unevaluatedItems"), u)
		}
	}
	if n, ok := intKeyword(s, "maxItems"); ok && n <= len(t.items) {
		t.items, t.rest = t.items[:n], nil
	}
	t.minItems = 0
	if n, ok := intKeyword(s, "minItems"); ok {
		t.minItems = min(n, len(t.items))
	}
	return t
}

// evaluatedItems counts the leading items that s's own and its in-place
// subschemas' prefixItems evaluate, when s has an unevaluatedItems that is
// not true and nothing evaluates items a type cannot follow (items as a
// schema, contains, a nested unevaluatedItems). Then items after those
// are subject to unevaluatedItems.
func evaluatedItems(d *doc, s *value) (int, bool) {
	u := s.get("unevaluatedItems")
	if u == nil || acceptsAll(u) || d.legacy {
		return 0, false
	}
	n := 0
	ok := inPlaceWalk(d, s, func(v *value, root bool) bool {
		if it := v.get("items"); it != nil && it.kind != kArray || v.get("additionalItems") != nil ||
			v.get("contains") != nil || !root && v.get("unevaluatedItems") != nil {
			return false
		}
		for _, k := range []string{"prefixItems", "items"} {
			if l := v.get(k); l != nil && l.kind == kArray {
				n = max(n, len(l.arr))
			}
		}
		return true
	})
	return n, ok
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
