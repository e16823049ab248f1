package sdkgen

import (
	"sort"
	"strconv"
)

// minHoist is the shortest inline type (rendered) the compact SDK
// declares once when several tools share it: below it a name saves
// little over repeating the type.
const minHoist = 60

// hoistShared names the inline types that several places of the compact
// SDK would repeat word for word — the same result of three subagent
// tools, a todo list that is both argument and result, the sandbox modes
// of the tools that may escalate — so each is
// written once, as a named type in the namespace, and referenced. It
// looks at tool arguments and results and at their members' types; a
// type qualifies when it renders identically as an argument and as a
// result (named types render as arguments) and is at least minHoist long.
// m is changed in place: each occurrence becomes a reference.
func hoistShared(m *model) {
	k := newKeyer(m)
	// Results may become references; arguments stay inline, since
	// whether they may be left out is read off the inline object.
	var outs, members []spot
	for _, t := range m.tools {
		if t.args.kind == tObject {
			members = append(members, spot{t.args, pascal(t.name), "", false}.members()...)
		}
		if t.out != nil {
			outs = append(outs, spot{t.out, pascal(t.name) + "Result", "", true})
		}
	}
	hoisted := k.hoist(m, outs)
	for _, s := range outs {
		if s.t.kind == tObject {
			members = append(members, s.members()...)
		}
	}
	for _, n := range hoisted {
		members = append(members, spot{n.t, n.hint, "", n.output}.members()...)
	}
	k.hoist(m, members)
}

// spot is a place a type occurs: its name hint and whether it is read
// as a result.
type spot struct {
	t         *typ
	hint, alt string
	output    bool
}

// members are the spots of an object's members' types, named for the
// member (a type several tools share under one member name reads best
// by that name) or, on a collision, for the tool and the member.
func (s spot) members() []spot {
	var out []spot
	for _, p := range s.t.props {
		out = append(out, spot{p.t, pascal(p.name), s.hint + pascal(p.name), s.output})
	}
	return out
}

// keyer renders types for comparison: named types by a private index.
type keyer struct{ r *tsr }

func newKeyer(m *model) *keyer {
	r := &tsr{names: map[*named]string{}, compact: true}
	for i, n := range m.named {
		r.names[n] = "N" + strconv.Itoa(i)
	}
	return &keyer{r}
}

// key is the rendering of t as a result or an argument.
func (k *keyer) key(t *typ, output bool) string {
	k.r.output = output
	defer func() { k.r.output = false }()
	return k.r.typ(t, "", true)
}

// hoist turns the spots whose types repeat into references to new named
// types, longest first, and returns those types in the order made.
func (k *keyer) hoist(m *model, spots []spot) []*named {
	groups := map[string][]spot{}
	var keys []string
	for _, s := range spots {
		if !hoistable(s.t) {
			continue
		}
		key := k.key(s.t, s.output)
		if len(key) < minHoist {
			continue
		}
		if groups[key] == nil {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], s)
	}
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	var made []*named
	for _, key := range keys {
		g := groups[key]
		if len(g) < 2 || !k.sameEverywhere(g, key) {
			continue
		}
		body := *g[0].t
		n := &named{hint: g[0].hint, altHint: g[0].alt, t: &body, output: g[0].output}
		for _, s := range g {
			*s.t = typ{kind: tRef, ref: n}
		}
		k.r.names[n] = "N" + strconv.Itoa(len(m.named))
		m.named = append(m.named, n)
		made = append(made, n)
	}
	return made
}

// sameEverywhere reports whether the spots of a group, each rendering as
// key in its own role, also render as key in the role of the group's
// first spot, whose role the named type takes.
func (k *keyer) sameEverywhere(g []spot, key string) bool {
	for _, s := range g[1:] {
		if s.output != g[0].output && k.key(s.t, g[0].output) != key {
			return false
		}
	}
	return true
}

// hoistable reports whether a type is of a kind worth a name when
// repeated: an object, an array of objects, a union (of literals: the
// sandbox modes several tools accept).
func hoistable(t *typ) bool {
	switch t.kind {
	case tObject, tUnion:
		return true
	case tArray:
		return t.elem.kind == tObject
	}
	return false
}
