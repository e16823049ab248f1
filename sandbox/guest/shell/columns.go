package shell

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

var columnCommands = map[string]builtinFunc{
	"uniq": uniq,
	"cut":  cut,
	"tr":   tr,
}

func uniq(c *cmd, args []string) int {
	o, err := flagSpec{short: "cduif:s:w:", permute: true, long: map[string]string{"count": "c", "repeated": "d", "unique": "u", "ignore-case": "i",
		"skip-fields=": "f", "skip-chars=": "s", "check-chars=": "w"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	var skipFields, skipChars, checkChars int
	for _, f := range []struct {
		flag string
		dst  *int
	}{{"f", &skipFields}, {"s", &skipChars}, {"w", &checkChars}} {
		if v := o.val(f.flag); v != "" {
			if *f.dst, err = strconv.Atoi(v); err != nil || *f.dst < 0 {
				return c.fail("invalid number: '%s'", v)
			}
		}
	}
	// key is the part of a line uniq compares: after -f fields (blanks then
	// non-blanks each) and -s characters, at most -w characters.
	key := func(l string) string {
		for range skipFields {
			l = strings.TrimLeft(l, " \t")
			if i := strings.IndexAny(l, " \t"); i >= 0 {
				l = l[i:]
			} else {
				l = ""
			}
		}
		rs := []rune(l)
		rs = rs[min(skipChars, len(rs)):]
		if checkChars > 0 {
			rs = rs[:min(checkChars, len(rs))]
		}
		return string(rs)
	}
	same := func(a, b string) bool {
		a, b = key(a), key(b)
		if o.has("i") {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	// One group at a time: the first line of the run of equal lines
	// and how many there were, so input of any size streams through.
	// Lines come as slices of the reader's buffer; the group's first is
	// copied once per group, not per line.
	plain := skipFields == 0 && skipChars == 0 && checkChars == 0 && !o.has("i")
	count, repeated, unique := o.has("c"), o.has("d"), o.has("u")
	w := c.bufOut()
	defer w.Flush()
	var group []byte
	num := make([]byte, 0, 24)
	n := 0
	flush := func() {
		if n == 0 || (repeated && n < 2) || (unique && n > 1) {
			return
		}
		if count { // GNU's "%7d ": right-aligned in seven columns
			num = strconv.AppendInt(append(num[:0], "       "...), int64(n), 10)
			digits := len(num) - 7
			w.Write(num[min(digits, 7):])
			w.WriteByte(' ')
		}
		w.Write(group)
		w.WriteByte('\n')
	}
	st := c.forEachInput(o.args[:min(len(o.args), 1)], func(_ string, r io.Reader) error {
		return eachLineBytes(r, func(l []byte) error {
			if n > 0 && (plain && bytes.Equal(group, l) || !plain && same(string(group), string(l))) {
				n++
				return nil
			}
			flush()
			group, n = append(group[:0], l...), 1
			return nil
		})
	})
	flush()
	return st
}

// parseRanges parses cut lists like "1,3-5,7-" into 1-based inclusive
// ranges; an open end is 1<<30.
func parseRanges(list string) ([][2]int, error) {
	var out [][2]int
	for _, part := range strings.Split(list, ",") {
		from, to, isRange := strings.Cut(part, "-")
		a, errA := strconv.Atoi(from)
		if from == "" {
			a, errA = 1, nil
		}
		b := a
		var errB error
		if isRange {
			b, errB = strconv.Atoi(to)
			if to == "" {
				b, errB = 1<<30, nil
			}
		}
		if errA != nil || errB != nil || a < 1 || b < a {
			return nil, fmt.Errorf("invalid field range '%s'", part)
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

func inRanges(r [][2]int, n int) bool {
	for _, x := range r {
		if n >= x[0] && n <= x[1] {
			return true
		}
	}
	return false
}

func cut(c *cmd, args []string) int {
	o, err := flagSpec{short: "d:f:c:b:sn", permute: true, long: map[string]string{"delimiter=": "d", "fields=": "f", "characters=": "c", "bytes=": "b", "only-delimited": "s",
		"complement": "complement", "output-delimiter=": "output-delimiter"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	list := o.val("f")
	chars := list == ""
	if chars {
		list = o.val("c") + o.val("b")
	}
	if list == "" {
		return c.usage(fmt.Errorf("you must specify a list of bytes, characters, or fields"))
	}
	ranges, err := parseRanges(list)
	if err != nil {
		return c.usage(err)
	}
	delim := "\t"
	if o.has("d") {
		delim = o.val("d")
	}
	outDelim := delim
	if o.has("output-delimiter") {
		outDelim = o.val("output-delimiter")
	}
	keep := func(n int) bool { return inRanges(ranges, n) != o.has("complement") }
	last := 0 // past the last field listed nothing more is printed
	for _, r := range ranges {
		last = max(last, r[1])
	}
	if o.has("complement") {
		last = math.MaxInt
	}
	w := c.bufOut()
	defer w.Flush()
	d := []byte(delim)
	st := c.forEachInput(o.args, func(_ string, r io.Reader) error {
		return eachLineBytes(r, func(l []byte) error {
			switch {
			case chars || len(d) == 0:
				cutChars(w, string(l), keep)
			case !bytes.Contains(l, d):
				if !o.has("s") {
					w.Write(l)
					w.WriteByte('\n')
				}
			default:
				cutFields(w, l, d, outDelim, last, keep)
			}
			return nil
		})
	})
	return st
}

// cutChars prints the characters of l that keep selects.
func cutChars(w *bufio.Writer, l string, keep func(int) bool) {
	i := 0
	for _, r := range l {
		if i++; keep(i) {
			w.WriteRune(r)
		}
	}
	w.WriteByte('\n')
}

// cutFields prints the fields of l (split at d) that keep selects,
// joined by outDelim, looking no further than field last.
func cutFields(w *bufio.Writer, l, d []byte, outDelim string, last int, keep func(int) bool) {
	first := true
	for i := 1; i <= last; i++ {
		j := bytes.Index(l, d)
		f := l
		if j >= 0 {
			f = l[:j]
		}
		if keep(i) {
			if !first {
				w.WriteString(outDelim)
			}
			w.Write(f)
			first = false
		}
		if j < 0 {
			break
		}
		l = l[j+len(d):]
	}
	w.WriteByte('\n')
}
