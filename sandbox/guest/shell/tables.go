package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

var tableCommands = map[string]builtinFunc{
	"paste":  paste,
	"comm":   comm,
	"join":   join,
	"column": column,
}

// pasteDelims expands paste's -d list (\n \t \\ and \0 for none).
func pasteDelims(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				out = append(out, "\n")
			case 't':
				out = append(out, "\t")
			case '0':
				out = append(out, "")
			default:
				out = append(out, string(s[i]))
			}
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, s[i:i+size])
		i += size - 1
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

func paste(c *cmd, args []string) int {
	o, err := flagSpec{short: "d:s", permute: true, long: map[string]string{"delimiters=": "d", "serial": "s"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	delims := []string{"\t"}
	if o.has("d") {
		delims = pasteDelims(o.val("d"))
	}
	names := o.args
	if len(names) == 0 {
		names = []string{"-"}
	}
	cols := make([][]string, len(names))
	status := 0
	stdinRead := false
	for i, n := range names {
		if n == "-" && stdinRead {
			continue // GNU shares one stdin between several "-": later ones see EOF
		}
		stdinRead = stdinRead || n == "-"
		lines, st := c.readLines([]string{n})
		cols[i] = lines
		status = max(status, st)
	}
	w := c.bufOut()
	defer w.Flush()
	if o.has("s") {
		for _, lines := range cols {
			for j, l := range lines {
				if j > 0 {
					w.WriteString(delims[(j-1)%len(delims)])
				}
				w.WriteString(l)
			}
			w.WriteByte('\n')
		}
		return status
	}
	rows := 0
	for _, lines := range cols {
		rows = max(rows, len(lines))
	}
	for r := range rows {
		for i, lines := range cols {
			if i > 0 {
				w.WriteString(delims[(i-1)%len(delims)])
			}
			if r < len(lines) {
				w.WriteString(lines[r])
			}
		}
		w.WriteByte('\n')
	}
	return status
}

// comm compares two sorted files: column 1 lines only in the first,
// column 2 only in the second, column 3 in both.
func comm(c *cmd, args []string) int {
	o, err := flagSpec{short: "123i", permute: true, long: map[string]string{"output-delimiter=": "output-delimiter", "check-order": "check-order", "nocheck-order": "nocheck-order"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) != 2 {
		return c.fail("expected two files to compare")
	}
	a, st1 := c.readLines(o.args[:1])
	b, st2 := c.readLines(o.args[1:])
	if st1 != 0 || st2 != 0 {
		return 1
	}
	sep := "\t"
	if o.has("output-delimiter") {
		sep = o.val("output-delimiter")
	}
	show := [3]bool{!o.has("1"), !o.has("2"), !o.has("3")}
	w := c.bufOut()
	defer w.Flush()
	emit := func(col int, line string) {
		if !show[col] {
			return
		}
		for k := range col {
			if show[k] {
				w.WriteString(sep)
			}
		}
		w.WriteString(line + "\n")
	}
	cmp := strings.Compare
	if o.has("i") {
		cmp = func(x, y string) int { return strings.Compare(strings.ToLower(x), strings.ToLower(y)) }
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && cmp(a[i], b[j]) < 0:
			emit(0, a[i])
			i++
		case i >= len(a) || cmp(a[i], b[j]) > 0:
			emit(1, b[j])
			j++
		default:
			emit(2, a[i])
			i, j = i+1, j+1
		}
	}
	return 0
}

// joinFields splits a join input line: on sep when given, else on runs of
// blanks with leading blanks ignored.
func joinFields(line, sep string) []string {
	if sep != "" {
		return strings.Split(line, sep)
	}
	return strings.Fields(line)
}

// join joins the lines of two files sorted on their join fields.
func join(c *cmd, args []string) int {
	o, err := flagSpec{short: "t:1:2:j:a:v:e:o:i", permute: true, long: map[string]string{"ignore-case": "i"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) != 2 {
		return c.fail("expected two files to join")
	}
	f1, f2 := 1, 1
	for _, p := range []struct {
		flag string
		dst  []*int
	}{{"j", []*int{&f1, &f2}}, {"1", []*int{&f1}}, {"2", []*int{&f2}}} {
		if v := o.val(p.flag); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return c.fail("invalid field number: '%s'", v)
			}
			for _, d := range p.dst {
				*d = n
			}
		}
	}
	sep := o.val("t")
	outSep := sep
	if outSep == "" {
		outSep = " "
	}
	unpaired := map[string]bool{}
	for _, v := range append(o.vals["a"], o.vals["v"]...) {
		unpaired[v] = true
	}
	only := map[string]bool{}
	for _, v := range o.vals["v"] {
		only[v] = true
	}
	a, st1 := c.readLines(o.args[:1])
	b, st2 := c.readLines(o.args[1:])
	if st1 != 0 || st2 != 0 {
		return 1
	}
	key := func(f []string, n int) string {
		if n-1 < len(f) {
			if o.has("i") {
				return strings.ToLower(f[n-1])
			}
			return f[n-1]
		}
		return ""
	}
	w := c.bufOut()
	defer w.Flush()
	print := func(k string, x []string, xf int, y []string, yf int) {
		parts := []string{k}
		for i, f := range x {
			if i != xf-1 {
				parts = append(parts, f)
			}
		}
		for i, f := range y {
			if i != yf-1 {
				parts = append(parts, f)
			}
		}
		w.WriteString(strings.Join(parts, outSep) + "\n")
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var fa, fb []string
		if i < len(a) {
			fa = joinFields(a[i], sep)
		}
		if j < len(b) {
			fb = joinFields(b[j], sep)
		}
		ka, kb := key(fa, f1), key(fb, f2)
		switch {
		case j >= len(b) || i < len(a) && ka < kb:
			if unpaired["1"] {
				print(fieldOr(fa, f1), fa, f1, nil, 0)
			}
			i++
		case i >= len(a) || ka > kb:
			if unpaired["2"] {
				print(fieldOr(fb, f2), fb, f2, nil, 0)
			}
			j++
		default:
			// every line of a with this key pairs with every line of b with it
			jEnd := j
			for jEnd < len(b) && key(joinFields(b[jEnd], sep), f2) == ka {
				jEnd++
			}
			for ; i < len(a) && key(joinFields(a[i], sep), f1) == ka; i++ {
				fa = joinFields(a[i], sep)
				for k := j; k < jEnd && len(only) == 0; k++ {
					print(fieldOr(fa, f1), fa, f1, joinFields(b[k], sep), f2)
				}
			}
			j = jEnd
		}
	}
	return 0
}

func fieldOr(f []string, n int) string {
	if n-1 < len(f) {
		return f[n-1]
	}
	return ""
}

// column -t aligns fields into a table; without -t it fills columns of
// the entries down then across, as wide as COLUMNS (80).
func column(c *cmd, args []string) int {
	o, err := flagSpec{short: "ts:o:c:x", permute: true, long: map[string]string{"table": "t", "separator=": "s", "output-separator=": "o", "output-width=": "c"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	lines, st := c.readLines(o.args)
	w := c.bufOut()
	defer w.Flush()
	if o.has("t") {
		outSep := "  "
		if o.has("o") {
			outSep = o.val("o")
		}
		var rows [][]string
		var widths []int
		for _, l := range lines {
			var f []string
			if o.has("s") {
				f = splitAny(l, o.val("s"))
			} else {
				f = strings.Fields(l)
			}
			if len(f) == 0 {
				continue
			}
			for i, x := range f {
				if i == len(widths) {
					widths = append(widths, 0)
				}
				widths[i] = max(widths[i], utf8.RuneCountInString(x))
			}
			rows = append(rows, f)
		}
		for _, r := range rows {
			for i := range widths {
				x := ""
				if i < len(r) {
					x = r[i]
				}
				if i == len(widths)-1 {
					w.WriteString(x)
					break
				}
				w.WriteString(x + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(x)) + outSep)
			}
			w.WriteByte('\n')
		}
		return st
	}
	width := 80
	if v, err := strconv.Atoi(o.val("c")); err == nil && v > 0 {
		width = v
	} else if v, err := strconv.Atoi(c.hc.Env.Get("COLUMNS").String()); err == nil && v > 0 {
		width = v
	}
	fillColumns(w, lines, width, o.has("x"))
	return st
}

// fillColumns prints entries in tab-aligned columns, down then across
// (across then down with across).
func fillColumns(w interface{ WriteString(string) (int, error) }, entries []string, width int, across bool) {
	var items []string
	maxLen := 0
	for _, e := range entries {
		if e != "" {
			items = append(items, e)
			maxLen = max(maxLen, utf8.RuneCountInString(e))
		}
	}
	if len(items) == 0 {
		return
	}
	colw := (maxLen + 8) &^ 7
	cols := max(width/colw, 1)
	rows := (len(items) + cols - 1) / cols
	for r := range rows {
		for col := range cols {
			idx := col*rows + r
			next := (col+1)*rows + r
			if across {
				idx, next = r*cols+col, r*cols+col+1
				if col == cols-1 {
					next = len(items)
				}
			}
			if idx >= len(items) {
				break
			}
			w.WriteString(items[idx])
			if next < len(items) && col < cols-1 {
				n := utf8.RuneCountInString(items[idx])
				w.WriteString(strings.Repeat("\t", (colw-n+7)/8))
			}
		}
		w.WriteString("\n")
	}
}

// splitAny splits s at every character of seps.
func splitAny(s, seps string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) })
}
