package shell

import (
	"slices"
	"strings"
)

// oneBytewiseKey reports whether s orders lines by one key compared
// bytewise (no -d, -f, -i, -r), the shape of `sort -k7,7` and
// `sort -u -k5,5`, which decoratedOrder sorts without a comparator.
func (s *sortSpec) oneBytewiseKey() bool {
	if len(s.keys) != 1 || s.global.reverse {
		return false
	}
	o := s.keys[0].order
	return o.bytewise() && !o.dict && !o.nonprint && !o.fold && !o.reverse
}

// decoratedOrder is order for one bytewise key (sortMerge.oneKey): each
// line becomes one string, its key, a NUL, the line and a NUL unless ties
// stay in input order, then its index as 4 big-endian bytes, all cut
// from one arena, and slices.Sort orders those with inlined comparisons
// (the comparator through closures, four wasm calls a comparison, was
// most of sort -k's time). A NUL sorts before every other byte, so the
// strings order as key, then line, then input order, as full does; a key
// or line holding a NUL itself would not, and false sends those to the
// comparator.
func (m *sortMerge) decoratedOrder() ([]int32, bool) {
	size := 0
	for i := range m.recs {
		r := &m.recs[i]
		size += len(r.keys[0].s) + 5
		if !m.oneKeyTies {
			size += len(r.line) + 1
		}
	}
	var arena strings.Builder
	arena.Grow(size)
	for i := range m.recs {
		r := &m.recs[i]
		key := r.keys[0].s
		if strings.IndexByte(key, 0) >= 0 || !m.oneKeyTies && strings.IndexByte(r.line, 0) >= 0 {
			return nil, false
		}
		arena.WriteString(key)
		arena.WriteByte(0)
		if !m.oneKeyTies {
			arena.WriteString(r.line)
			arena.WriteByte(0)
		}
		arena.Write([]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)})
	}
	all := arena.String()
	dec := make([]string, len(m.recs))
	at := 0
	for i := range m.recs {
		n := len(m.recs[i].keys[0].s) + 5
		if !m.oneKeyTies {
			n += len(m.recs[i].line) + 1
		}
		dec[i], at = all[at:at+n], at+n
	}
	slices.Sort(dec)
	ord := make([]int32, len(dec))
	for i, d := range dec {
		t := d[len(d)-4:]
		ord[i] = int32(t[0])<<24 | int32(t[1])<<16 | int32(t[2])<<8 | int32(t[3])
	}
	return ord, true
}

// oneNumericKey reports whether s orders lines by one -n key (sort -n,
// sort -rn, sort -k2,2n), which numericOrder sorts, and whether that key
// is reversed.
func (s *sortSpec) oneNumericKey() (ok, reverse bool) {
	switch {
	case len(s.keys) == 0:
		return s.global.numeric, s.global.reverse
	case len(s.keys) == 1:
		return s.keys[0].order.numeric, s.keys[0].order.reverse
	}
	return false, false
}

// numRec is a line of numericOrder: its key's number, the line, its
// index, and the line's first 16 bytes as two big-endian words.
type numRec struct {
	n          float64
	line       string
	i          int32
	pre0, pre1 uint64
}

// linePrefix is line[from:from+8] as a big-endian word, zero-padded. Two
// lines whose padded words differ compare as the words do (a line that
// ends first is a prefix of the other, and a zero is the least byte), so
// only equal words need the whole lines compared.
func linePrefix(line string, from int) uint64 {
	var w uint64
	for k := range 8 {
		w <<= 8
		if from+k < len(line) {
			w |= uint64(line[from+k])
		}
	}
	return w
}

// compareLines orders two numRecs' lines bytewise, words first.
func compareLines(a, b *numRec) int {
	switch {
	case a.pre0 != b.pre0:
		return cmpUint(a.pre0, b.pre0)
	case a.pre1 != b.pre1:
		return cmpUint(a.pre1, b.pre1)
	}
	return strings.Compare(a.line, b.line)
}

// cmpUint orders two words compareLines found different.
func cmpUint(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// numericOrder is order for one -n key: the numbers, lines and indexes
// copied side by side and sorted by one comparator that does what full
// does (number, reversed with the key's r; then, unless -s or -u, the
// line, reversed with a global -r; then input order) without the calls
// through sortSpec's closures, which were most of `sort -rn`'s time
// after `uniq -c`. After uniq -c most numbers tie, so the lines decide:
// their first 16 bytes are compared as two words (the wasm guest compares
// strings a byte at a time).
func (m *sortMerge) numericOrder() []int32 {
	rs := make([]numRec, len(m.recs))
	ties := m.oneKeyTies
	for i := range m.recs {
		l := m.recs[i].line
		rs[i] = numRec{n: m.recs[i].keys[0].n, line: l, i: int32(i)}
		if !ties {
			rs[i].pre0, rs[i].pre1 = linePrefix(l, 0), linePrefix(l, 8)
		}
	}
	rev, lineRev := m.numReverse, m.reverse
	slices.SortFunc(rs, func(a, b numRec) int {
		r := cmpFloat(a.n, b.n)
		if rev {
			r = -r
		}
		if r == 0 && !ties {
			if r = compareLines(&a, &b); lineRev {
				r = -r
			}
		}
		if r == 0 {
			return int(a.i - b.i)
		}
		return r
	})
	ord := make([]int32, len(rs))
	for i := range rs {
		ord[i] = rs[i].i
	}
	return ord
}
