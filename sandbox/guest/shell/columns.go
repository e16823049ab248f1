package shell

import (
	"fmt"
	"io"
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
	var group string
	n := 0
	flush := func() {
		if n == 0 || (o.has("d") && n < 2) || (o.has("u") && n > 1) {
			return
		}
		if o.has("c") {
			fmt.Fprintf(c.stdout, "%7d %s\n", n, group)
		} else {
			fmt.Fprintln(c.stdout, group)
		}
	}
	st := c.forEachInput(o.args[:min(len(o.args), 1)], func(_ string, r io.Reader) error {
		return eachLine(r, func(l string, _ bool) error {
			if n > 0 && same(group, l) {
				n++
				return nil
			}
			flush()
			group, n = l, 1
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
	st := c.forEachInput(o.args, func(_ string, r io.Reader) error {
		return eachLine(r, func(l string, _ bool) error {
			var out []string
			if chars {
				var b strings.Builder
				for i, r := range []rune(l) {
					if keep(i + 1) {
						b.WriteRune(r)
					}
				}
				fmt.Fprintln(c.stdout, b.String())
				return nil
			}
			if !strings.Contains(l, delim) {
				if !o.has("s") {
					fmt.Fprintln(c.stdout, l)
				}
				return nil
			}
			for i, f := range strings.Split(l, delim) {
				if keep(i + 1) {
					out = append(out, f)
				}
			}
			fmt.Fprintln(c.stdout, strings.Join(out, outDelim))
			return nil
		})
	})
	return st
}
