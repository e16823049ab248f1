package ptc

import (
	"regexp/syntax"
	"strings"

	"github.com/dop251/goja/parser"
)

// This file is the matcher behind the engine's re.exec fast path (see
// rxexec.go): a backtracking matcher over a Go regexp/syntax program, for
// ASCII text, that can start at any position.
//
// goja runs a RegExp with Go's regexp package when the pattern translates
// to RE2 syntax, but that package cannot start a match at an offset
// without losing the context of ^, \b and \B, so from the second exec of
// a global RegExp goja switches to regexp2 over a rune copy of the whole
// input. Here the program is the one goja's Go path compiles (same
// translation, same flags), run leftmost-first as Go's own backtracker
// runs it, with the text before the start position visible to
// assertions. The visited set (instruction × position) is kept for one
// search, so a search costs at most instructions × positions steps;
// it covers a window of positions that slides with the attempts and grows
// when a match needs more, up to maxRxCells, beyond which the search
// gives up and the caller falls back to goja.

// maxRxCells bounds the visited set (4 bytes a cell).
const maxRxCells = 1 << 22

// rxProg is a pattern compiled for the fast path. Its matching state is in
// an rxScratch (one per run: the engine matches on one goroutine).
type rxProg struct {
	prog   *syntax.Prog
	names  []string    // capture names by group; "" for unnamed (and group 0)
	named  bool        // some group has a name
	prefix string      // every match starts with it
	first  *[128]bool  // without a prefix: the bytes a match can start with (nil: any)
	begin  bool        // matches only at the start of the text
	lines  bool        // ^ or $ in multiline mode: JS also breaks lines at \r
	mask   [][2]uint64 // per rune instruction: the ASCII characters it takes
}

// compileRx compiles a JavaScript pattern (its source, ASCII) for the fast
// path the way goja compiles it for Go's regexp. ok is false for a
// pattern the fast path does not take: not RE2-compatible (goja uses
// regexp2), or one where RE2's leftmost-first and JavaScript's
// backtracking could disagree on captures (a capture inside a repetition,
// a repetition whose body can match empty) or on case folding (an escaped
// non-ASCII character under the i flag).
func compileRx(source string, ignoreCase, multiline, dotAll bool) (*rxProg, bool) {
	if !isASCII(source) || ignoreCase && (strings.Contains(source, `\u`) || strings.Contains(source, `\x`)) {
		return nil, false
	}
	re2, err := parser.TransformRegExp(source, dotAll, false)
	if err != nil {
		return nil, false
	}
	flags := ""
	if multiline {
		flags += "m"
	}
	if dotAll {
		flags += "s"
	}
	if ignoreCase {
		flags += "i"
	}
	if flags != "" {
		re2 = "(?" + flags + ":" + re2 + ")"
	}
	re, err := syntax.Parse(re2, syntax.Perl)
	if err != nil || !agreesWithJS(re, false) {
		return nil, false
	}
	p := &rxProg{names: re.CapNames(), lines: multiline && hasLineAnchor(re)}
	for _, n := range p.names {
		p.named = p.named || n != ""
	}
	if p.prog, err = syntax.Compile(re.Simplify()); err != nil {
		return nil, false
	}
	p.prefix, _ = p.prog.Prefix()
	p.begin = p.prog.StartCond()&syntax.EmptyBeginText != 0
	p.mask = make([][2]uint64, len(p.prog.Inst))
	for pc := range p.prog.Inst {
		p.mask[pc] = asciiMask(&p.prog.Inst[pc])
	}
	if p.prefix == "" {
		p.first = p.firstBytes()
	}
	return p, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// agreesWithJS reports whether re has no capture inside a repetition and
// no repetition of a body that can match empty: the places where an RE2
// match and a JavaScript match of the same text can differ.
func agreesWithJS(re *syntax.Regexp, repeated bool) bool {
	switch re.Op {
	case syntax.OpCapture:
		if repeated {
			return false
		}
	case syntax.OpStar, syntax.OpPlus:
		if nullable(re.Sub[0]) {
			return false
		}
		repeated = true
	case syntax.OpRepeat:
		if re.Max == -1 || re.Max > 1 {
			if nullable(re.Sub[0]) {
				return false
			}
			repeated = true
		}
	}
	for _, s := range re.Sub {
		if !agreesWithJS(s, repeated) {
			return false
		}
	}
	return true
}

// nullable reports whether re can match the empty string.
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return true // empty match, star, quest, assertions
}

func hasLineAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginLine || re.Op == syntax.OpEndLine {
		return true
	}
	for _, s := range re.Sub {
		if hasLineAnchor(s) {
			return true
		}
	}
	return false
}

// asciiMask is the set of ASCII characters a rune instruction consumes.
func asciiMask(in *syntax.Inst) (m [2]uint64) {
	for c := rune(0); c < 0x80; c++ {
		var ok bool
		switch in.Op {
		case syntax.InstRune:
			ok = in.MatchRune(c)
		case syntax.InstRune1:
			ok = c == in.Rune[0]
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = c != '\n'
		}
		if ok {
			m[c>>6] |= 1 << (c & 63)
		}
	}
	return m
}

// firstBytes is the set of bytes a match can start with, or nil when a
// match can be empty or start with anything.
func (p *rxProg) firstBytes() *[128]bool {
	var set [128]bool
	seen := make([]bool, len(p.prog.Inst))
	var visit func(pc uint32) bool
	visit = func(pc uint32) bool {
		if seen[pc] {
			return true
		}
		seen[pc] = true
		in := &p.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			return visit(in.Out) && visit(in.Arg)
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			return visit(in.Out)
		case syntax.InstMatch:
			return false
		case syntax.InstFail:
			return true
		}
		for c := 0; c < 0x80; c++ {
			if p.mask[pc][c>>6]&(1<<(c&63)) != 0 {
				set[c] = true
			}
		}
		return true
	}
	if !visit(uint32(p.prog.Start)) {
		return nil
	}
	for _, ok := range set {
		if !ok {
			return &set
		}
	}
	return nil
}

// rxScratch is the matching state of one run: the visited set, the
// backtracking stack and the captures.
type rxScratch struct {
	visit []uint32
	gen   uint32
	base  int // the position of the window's first column
	width int // positions the window holds beyond base
	cols  int // width + 1
	stack []rxJob
	caps  []int
}

// rxJob is a branch to try (or, with restore, a capture to put back).
type rxJob struct {
	pc      uint32
	restore bool
	pos     int
}

// rxResult is what one attempt or search found.
type rxResult int

const (
	rxNone     rxResult = iota
	rxMatched           // sc.caps holds the match
	rxOverflow          // the attempt left the window
	rxGaveUp            // the visited set would outgrow maxRxCells
)

// search finds the leftmost match in s (ASCII) starting at from or later.
func (p *rxProg) search(sc *rxScratch, s string, from int) rxResult {
	sc.reset(p, from)
	for pos := from; pos <= len(s); pos++ {
		if p.begin && pos > 0 {
			return rxNone
		}
		switch {
		case p.prefix != "":
			i := strings.Index(s[pos:], p.prefix)
			if i < 0 {
				return rxNone
			}
			pos += i
		case p.first != nil:
			for pos < len(s) && !p.first[s[pos]] {
				pos++
			}
			if pos == len(s) {
				return rxNone
			}
		}
		if r := p.try(sc, s, pos); r != rxNone {
			return r
		}
	}
	return rxNone
}

// try runs one attempt at pos, sliding or growing the window as needed.
func (p *rxProg) try(sc *rxScratch, s string, pos int) rxResult {
	for {
		r := p.attempt(sc, s, pos)
		if r != rxOverflow {
			return r
		}
		if pos > sc.base { // start the window at this attempt
			sc.base = pos
			sc.clear()
			continue
		}
		if !sc.grow(len(p.prog.Inst), len(s)-pos) {
			return rxGaveUp
		}
	}
}

// attempt is the anchored backtracking match at start: Alt tries Out
// before Arg, the first Match wins (leftmost-first, as Perl and Go's
// backtracker).
func (p *rxProg) attempt(sc *rxScratch, s string, start int) rxResult {
	caps := sc.caps
	for i := range caps {
		caps[i] = -1
	}
	caps[0] = start
	sc.stack = append(sc.stack[:0], rxJob{pc: uint32(p.prog.Start), pos: start})
	for len(sc.stack) > 0 {
		j := sc.stack[len(sc.stack)-1]
		sc.stack = sc.stack[:len(sc.stack)-1]
		if j.restore {
			caps[p.prog.Inst[j.pc].Arg] = j.pos
			continue
		}
		pc, pos := j.pc, j.pos
	step:
		for {
			off := pos - sc.base
			if off > sc.width {
				return rxOverflow
			}
			cell := int(pc)*sc.cols + off
			if sc.visit[cell] == sc.gen {
				break // tried from here already, in vain
			}
			sc.visit[cell] = sc.gen
			in := &p.prog.Inst[pc]
			switch in.Op {
			case syntax.InstAlt, syntax.InstAltMatch:
				sc.stack = append(sc.stack, rxJob{pc: in.Arg, pos: pos})
				pc = in.Out
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if pos >= len(s) {
					break step
				}
				c := s[pos]
				if p.mask[pc][c>>6]&(1<<(c&63)) == 0 {
					break step
				}
				pc, pos = in.Out, pos+1
			case syntax.InstCapture:
				if int(in.Arg) < len(caps) {
					sc.stack = append(sc.stack, rxJob{pc: pc, restore: true, pos: caps[in.Arg]})
					caps[in.Arg] = pos
				}
				pc = in.Out
			case syntax.InstEmptyWidth:
				if syntax.EmptyOp(in.Arg)&^emptyAt(s, pos) != 0 {
					break step
				}
				pc = in.Out
			case syntax.InstNop:
				pc = in.Out
			case syntax.InstMatch:
				caps[1] = pos
				return rxMatched
			default: // InstFail
				break step
			}
		}
	}
	return rxNone
}

// emptyAt is the empty-width conditions that hold at pos in s.
func emptyAt(s string, pos int) syntax.EmptyOp {
	before, after := rune(-1), rune(-1)
	if pos > 0 {
		before = rune(s[pos-1])
	}
	if pos < len(s) {
		after = rune(s[pos])
	}
	return syntax.EmptyOpContext(before, after)
}

// reset prepares sc for a search of p from pos.
func (sc *rxScratch) reset(p *rxProg, pos int) {
	if n := p.prog.NumCap; cap(sc.caps) < n {
		sc.caps = make([]int, n)
	} else {
		sc.caps = sc.caps[:n]
	}
	if sc.width == 0 {
		sc.width = 256
	}
	if need := len(p.prog.Inst) * (sc.width + 1); len(sc.visit) < need {
		sc.visit, sc.gen = make([]uint32, need), 0
	}
	sc.cols = sc.width + 1
	sc.base = pos
	sc.clear()
}

// clear forgets every visited cell.
func (sc *rxScratch) clear() {
	sc.gen++
	if sc.gen == 0 {
		clear(sc.visit)
		sc.gen = 1
	}
}

// grow widens the window to hold at least need positions (at most the
// rest of the text), within maxRxCells.
func (sc *rxScratch) grow(insts, rest int) bool {
	w := min(sc.width*4, rest)
	if w <= sc.width || insts*(w+1) > maxRxCells {
		return false
	}
	sc.width, sc.cols = w, w+1
	sc.visit, sc.gen = make([]uint32, insts*(w+1)), 0
	sc.clear()
	return true
}
