package shell

import (
	"bytes"
	"regexp/syntax"
)

// litClassMatcher is the matcher of the -o pattern agents write most, a
// literal and then a run of one character class (`user=[a-z]*`,
// `id=[0-9]+`): the literal is found with bytes.Index and the run
// extended through a byte table, with no regexp machine. For such a
// pattern the leftmost match Go's regexp reports is the literal's first
// occurrence that has the run it needs, the run taken greedily, which is
// also POSIX's leftmost-longest one. In the wasm guest
// `grep -o 'user=[a-z]*'` over 100 000 lines spent 3 µs a line in
// regexp.FindAllIndex.
type litClassMatcher struct {
	lit   []byte
	class [256]bool
	min   int // 0 for *, 1 for +
	found [][]int
	pairs []int
}

// newLitClassMatcher returns the matcher for expr (the Go syntax grep
// compiled), or nil when expr is anything but an ASCII literal followed
// by a greedy * or + of an ASCII class or character.
func newLitClassMatcher(expr string) *litClassMatcher {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) != 2 {
		return nil
	}
	lit, rep := re.Sub[0], re.Sub[1]
	if lit.Op != syntax.OpLiteral || lit.Flags&syntax.FoldCase != 0 || len(lit.Rune) == 0 {
		return nil
	}
	m := &litClassMatcher{}
	for _, r := range lit.Rune {
		if r >= 0x80 {
			return nil
		}
		m.lit = append(m.lit, byte(r))
	}
	switch {
	case rep.Op == syntax.OpStar:
	case rep.Op == syntax.OpPlus:
		m.min = 1
	default:
		return nil
	}
	if rep.Flags&syntax.NonGreedy != 0 || len(rep.Sub) != 1 {
		return nil
	}
	sub := rep.Sub[0]
	var ranges []rune
	switch {
	case sub.Op == syntax.OpCharClass:
		ranges = sub.Rune
	case sub.Op == syntax.OpLiteral && len(sub.Rune) == 1 && sub.Flags&syntax.FoldCase == 0:
		ranges = []rune{sub.Rune[0], sub.Rune[0]}
	default:
		return nil
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= 0x80 {
			return nil
		}
		for c := ranges[i]; c <= ranges[i+1]; c++ {
			m.class[c] = true
		}
	}
	return m
}

// next returns the next match at or after from, or -1.
func (m *litClassMatcher) next(b []byte, from int) (int, int) {
	for from <= len(b) {
		i := bytes.Index(b[from:], m.lit)
		if i < 0 {
			return -1, -1
		}
		start := from + i
		end := start + len(m.lit)
		for end < len(b) && m.class[b[end]] {
			end++
		}
		if end-start-len(m.lit) >= m.min {
			return start, end
		}
		from = start + 1
	}
	return -1, -1
}

// Match reports whether b holds a match.
func (m *litClassMatcher) Match(b []byte) bool {
	s, _ := m.next(b, 0)
	return s >= 0
}

// FindAllIndex is regexp's: the successive non-overlapping matches, at
// most n of them when n >= 0, nil when there is none. The slices are
// reused by the next call.
func (m *litClassMatcher) FindAllIndex(b []byte, n int) [][]int {
	m.found, m.pairs = m.found[:0], m.pairs[:0]
	for from := 0; n < 0 || len(m.pairs) < 2*n; {
		s, e := m.next(b, from)
		if s < 0 {
			break
		}
		m.pairs = append(m.pairs, s, e)
		from = e // a match is never empty: the literal is not
	}
	if len(m.pairs) == 0 {
		return nil
	}
	for i := 0; i < len(m.pairs); i += 2 {
		m.found = append(m.found, m.pairs[i:i+2:i+2])
	}
	return m.found
}
