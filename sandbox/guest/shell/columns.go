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

// trSet expands a tr set: ranges a-z, escapes \n \t \\ and octal \NNN
// (\0 is NUL, as GNU tr reads it), and the classes
// [:upper:] [:lower:] [:digit:] [:space:] [:alpha:] [:alnum:].
func trSet(s string) []rune {
	classes := map[string]string{
		"[:upper:]": "A-Z", "[:lower:]": "a-z", "[:digit:]": "0-9",
		"[:space:]": " \t\n\r\v\f", "[:alpha:]": "a-zA-Z", "[:alnum:]": "a-zA-Z0-9",
		"[:punct:]": "!-/:-@[-`{-~", "[:blank:]": " \t",
	}
	for k, v := range classes {
		s = strings.ReplaceAll(s, k, v)
	}
	var in []rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\\' && i+1 < len(rs) {
			i++
			switch rs[i] {
			case 'n':
				r = '\n'
			case 't':
				r = '\t'
			case 'r':
				r = '\r'
			case 'a':
				r = '\a'
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'v':
				r = '\v'
			case '0', '1', '2', '3', '4', '5', '6', '7':
				r = 0
				for n := 0; n < 3 && i < len(rs) && rs[i] >= '0' && rs[i] <= '7'; n++ {
					r = r*8 + rs[i] - '0'
					i++
				}
				i--
			default:
				r = rs[i]
			}
		}
		if i+2 < len(rs) && rs[i+1] == '-' && rs[i+2] >= r {
			for x := r; x <= rs[i+2]; x++ {
				in = append(in, x)
			}
			i += 2
			continue
		}
		in = append(in, r)
	}
	return in
}

func tr(c *cmd, args []string) int {
	o, err := flagSpec{short: "dscC"}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 || (len(o.args) < 2 && !o.has("d") && !o.has("s")) {
		return c.usage(fmt.Errorf("missing operand"))
	}
	set1 := trSet(o.args[0])
	var set2 []rune
	if len(o.args) > 1 {
		set2 = trSet(o.args[1])
	}
	member := map[rune]int{}
	for i, r := range set1 {
		if _, ok := member[r]; !ok {
			member[r] = i
		}
	}
	complement := o.has("c") || o.has("C")
	inSet1 := func(r rune) bool { _, ok := member[r]; return ok != complement }
	squeezeSet := set1
	if len(set2) > 0 && !o.has("d") {
		squeezeSet = set2
	}
	squeeze := map[rune]bool{}
	for _, r := range squeezeSet {
		squeeze[r] = true
	}
	data, err := readAllString(c)
	if err != nil {
		return c.fail("%v", err)
	}
	var b strings.Builder
	var prev rune = -1
	for _, r := range data {
		if o.has("d") && inSet1(r) {
			continue
		}
		if !o.has("d") && len(set2) > 0 && inSet1(r) {
			i := len(set2) - 1
			if idx, ok := member[r]; ok && !complement {
				i = min(idx, len(set2)-1)
			}
			r = set2[i]
		}
		if o.has("s") && r == prev && squeeze[r] {
			continue
		}
		b.WriteRune(r)
		prev = r
	}
	fmt.Fprint(c.stdout, b.String())
	return 0
}

func readAllString(c *cmd) (string, error) {
	var b strings.Builder
	_, err := io.Copy(&b, c.stdin)
	return b.String(), err
}
