package shell

import "strings"

// sortSpec is how sort orders lines: its -k keys (none: the whole line by
// the global order) over fields split by sep (blank runs when empty).
// Each line's keys are extracted and prepared once, when it is read, into
// slabs shared by many lines rather than a slice of its own.
type sortSpec struct {
	keys        []sortKeyDef
	global      sortOrder
	sep         string
	tiesInOrder bool // -s or -u: no last-resort comparison of whole lines
	plain       bool // no keys, no ordering but -r: lines compare bytewise
	slab        []sortVal
}

// makeRec prepares line l for comparing.
func (s *sortSpec) makeRec(l string) sortRec {
	if s.plain {
		return sortRec{line: l}
	}
	n := max(len(s.keys), 1)
	if len(s.slab)+n > cap(s.slab) {
		s.slab = make([]sortVal, 0, 1024*n)
	}
	keys := s.slab[len(s.slab) : len(s.slab)+n : len(s.slab)+n]
	s.slab = s.slab[:len(s.slab)+n]
	if len(s.keys) == 0 {
		keys[0] = s.global.prepare(l)
	}
	for j := range s.keys {
		k := &s.keys[j]
		keys[j] = k.order.prepare(k.extract(l, s.sep))
	}
	return sortRec{line: l, keys: keys}
}

// cmp orders two lines by their keys alone.
func (s *sortSpec) cmp(a, b *sortRec) int {
	if s.plain {
		return s.reverse(strings.Compare(a.line, b.line), s.global)
	}
	// One key compared as a string or by -n, inline: each call costs in
	// the wasm guest, and a sort makes millions of comparisons.
	o := s.global
	if len(s.keys) == 1 {
		o = s.keys[0].order
	}
	if len(s.keys) <= 1 && (o.numeric || o.bytewise()) {
		var r int
		if x, y := &a.keys[0], &b.keys[0]; o.numeric {
			r = cmpFloat(x.n, y.n)
		} else {
			r = strings.Compare(x.s, y.s)
		}
		if o.reverse {
			r = -r
		}
		return r
	}
	if len(s.keys) == 0 {
		return s.reverse(s.global.compareVals(a.keys[0], b.keys[0]), s.global)
	}
	for j := range s.keys {
		o := s.keys[j].order
		if r := s.reverse(o.compareVals(a.keys[j], b.keys[j]), o); r != 0 {
			return r
		}
	}
	return 0
}

func (s *sortSpec) reverse(r int, o sortOrder) int {
	if o.reverse {
		return -r
	}
	return r
}

// full is cmp with GNU sort's last resort: equal keys order by the whole
// lines, bytewise (reversed with -r), unless -s or -u.
func (s *sortSpec) full(a, b *sortRec) int {
	if r := s.cmp(a, b); r != 0 || s.tiesInOrder || s.plain {
		return r
	}
	return s.reverse(strings.Compare(a.line, b.line), s.global)
}

// field returns where field n (1-based) of line begins and ends, and
// whether the line has that many. Without a separator a field is a run
// of blanks followed by non-blanks, so leading blanks belong to the
// field, as in GNU sort. It walks the line instead of splitting it, so
// extracting a key allocates nothing.
func field(line, sep string, n int) (start, end int, ok bool) {
	if sep != "" {
		for i := 1; ; i++ {
			j := strings.Index(line[start:], sep)
			if i == n {
				if j < 0 {
					return start, len(line), true
				}
				return start, start + j, true
			}
			if j < 0 {
				return 0, 0, false
			}
			start += j + len(sep)
		}
	}
	i := 0
	for f := 1; i < len(line); f++ {
		start = i
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
		if f == n {
			return start, i, true
		}
	}
	return 0, 0, false
}

// extract returns the text of key k in line.
func (k *sortKeyDef) extract(line, sep string) string {
	fs, fe, ok := field(line, sep, k.startField)
	if !ok {
		return ""
	}
	start := fs
	if k.startBlanks {
		start = skipBlanks(line, start, fe)
	}
	start = min(start+k.startChar-1, fe)
	end := len(line)
	if k.endField > 0 {
		if es, ee, ok := field(line, sep, k.endField); ok {
			end = ee
			if k.endChar > 0 {
				if k.endBlank {
					es = skipBlanks(line, es, ee)
				}
				end = min(es+k.endChar, ee)
			}
		}
	}
	if end < start {
		return ""
	}
	return line[start:end]
}

// bytewise reports whether o compares prepared keys as strings, which
// cmp then does inline (each call costs in the wasm guest, and sort -k
// makes millions of comparisons).
func (o sortOrder) bytewise() bool {
	return !o.numeric && !o.general && !o.human && !o.month && !o.version
}
