package ptc

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// describeBudget bounds the time spent describing a thrown value: its
// getters, toString and proxy traps are program code and may loop.
const describeBudget = 250 * time.Millisecond

// errDescribeTimeout interrupts a description that ran out of time.
var errDescribeTimeout = errors.New("describing the thrown value took too long")

// thrown describes a value the program threw or rejected with. The
// description runs under describeBudget; when that runs out (or the run
// is halted meanwhile) the value is named without running its code.
func (r *jsRun) thrown(v goja.Value) *Failure {
	f := &Failure{Kind: KindException}
	d, err := r.guarded(func() (goja.Value, error) { return r.help.describe(goja.Undefined(), v) })
	switch {
	case err == nil:
		o := d.ToObject(r.rt)
		f.Message = o.Get("0").String()
		f.Line, f.Column = position(o.Get("1").String())
	case r.isHalted():
		return r.haltFailure()
	default:
		f.Message = "Uncaught exception (its description did not finish within " + describeBudget.String() +
			": a getter, toString or proxy trap on the thrown value kept running)"
	}
	if o, ok := v.(*goja.Object); ok && f.Line == 0 {
		if site, ok := r.errSites[o]; ok {
			p := site.Position()
			f.Line, f.Column = p.Line, mappedColumn(p.Line, p.Column)
		}
	}
	return f
}

func (r *jsRun) isHalted() bool {
	select {
	case <-r.halted:
		return true
	default:
		return false
	}
}

// guarded calls fn, which may run program code, with a deadline of
// describeBudget. The deadline interrupts the runtime unless the run was
// halted first; afterwards the interrupt is cleared so the engine can go
// on (a halt is never cleared).
func (r *jsRun) guarded(fn func() (goja.Value, error)) (goja.Value, error) {
	fired := false
	t := time.AfterFunc(describeBudget, func() {
		r.haltMu.Lock()
		defer r.haltMu.Unlock()
		if r.haltWhy == nil {
			fired = true
			r.rt.Interrupt(errDescribeTimeout)
		}
	})
	v, err := fn()
	t.Stop()
	r.haltMu.Lock()
	if fired && r.haltWhy == nil {
		r.rt.ClearInterrupt()
	}
	r.haltMu.Unlock()
	return v, err
}

// positionRe finds "program.ts:LINE:COL" in goja stack text; goja maps
// positions through the inline source map, so these are TypeScript lines
// (with 0-based columns).
var positionRe = regexp.MustCompile(sourceName + `:(\d+):(\d+)`)

func position(stack string) (line, col int) {
	m := positionRe.FindStringSubmatch(stack)
	if m == nil {
		return 0, 0
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, mappedColumn(line, col)
}

// framePosition is the position of the innermost frame in the model's
// code.
func framePosition(frames []goja.StackFrame) (line, col int) {
	for _, f := range frames {
		if f.SrcName() == sourceName {
			p := f.Position()
			return p.Line, mappedColumn(p.Line, p.Column)
		}
	}
	return 0, 0
}

// mappedColumn turns a 0-based column from the source map into the
// model's 1-based column (line 1 carries the wrapper's opening).
func mappedColumn(line, col int) int {
	if line == 1 {
		col -= len(wrapOpen)
	}
	return max(col+1, 1)
}

// sanitize removes Go formatting debris from engine messages: goja builds
// some TypeError texts with fmt, and a value fmt cannot print comes out
// as "%!s(PANIC=…)" or "%!v(<type>=…)" with Go types and pointers. Each
// such piece becomes "[object]".
func sanitize(s string) string {
	for {
		i := strings.Index(s, "%!")
		if i < 0 || i+3 >= len(s) || s[i+3] != '(' {
			if i < 0 {
				return s
			}
			// "%!x" without a parenthesis (e.g. "%!(NOVERB)"): drop the marker.
			s = s[:i] + s[i+2:]
			continue
		}
		end, depth := len(s), 0
		for j := i + 3; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				end = j + 1
				break
			}
		}
		s = s[:i] + "[object]" + s[end:]
	}
}

// maxResultDepth is the deepest nesting a return value keeps as JSON.
const maxResultDepth = 1000

// jsonDepth is the deepest nesting of arrays and objects in JSON text.
func jsonDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// Console levels on the wire.
var levels = []string{"log", "info", "warn", "error", "debug"}

func levelCode(level string) byte {
	for i, l := range levels {
		if l == level {
			return byte(i)
		}
	}
	return 0
}

func levelName(c byte) string {
	if int(c) < len(levels) {
		return levels[c]
	}
	return levels[0]
}

// cutRune returns text[:pos] (head) or text[pos:] (tail), moved to a rune
// boundary.
func cutRune(text string, pos int, head bool) string {
	if pos >= len(text) {
		if head {
			return text
		}
		return ""
	}
	for pos > 0 && text[pos]&0xC0 == 0x80 {
		pos--
	}
	if head {
		return text[:pos]
	}
	return text[pos:]
}
