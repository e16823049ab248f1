package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

var lineCommands = map[string]builtinFunc{
	"tac":  tac,
	"rev":  rev,
	"nl":   nl,
	"fold": fold,
}

// records splits text after each newline; the last record may lack one.
func records(text string) []string {
	r := strings.SplitAfter(text, "\n")
	if len(r) > 0 && r[len(r)-1] == "" {
		r = r[:len(r)-1]
	}
	return r
}

// readText reads every input whole, concatenated.
func (c *cmd) readText(names []string) (string, int) {
	var b strings.Builder
	st := c.forEachInput(names, func(_ string, r io.Reader) error {
		_, err := io.Copy(&b, r)
		return err
	})
	return b.String(), st
}

// tac prints the lines of each input last first; like GNU tac, a final
// line without a newline runs into the one printed after it.
func tac(c *cmd, args []string) int {
	o, err := flagSpec{short: "", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	w := c.bufOut()
	defer w.Flush()
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		recs := records(string(data))
		for i := len(recs) - 1; i >= 0; i-- {
			w.WriteString(recs[i])
		}
		return nil
	})
}

func rev(c *cmd, args []string) int {
	w := c.bufOut()
	defer w.Flush()
	return c.forEachInput(args, func(_ string, r io.Reader) error {
		return eachLine(r, func(line string, noEOL bool) error {
			rs := []rune(line)
			for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
				rs[i], rs[j] = rs[j], rs[i]
			}
			w.WriteString(string(rs))
			if !noEOL {
				w.WriteByte('\n')
			}
			return nil
		})
	})
}

// nl numbers lines: -b a|t|n (all, non-empty, none), -w width, -s
// separator, -n ln|rn|rz, -v first number, -i increment.
func nl(c *cmd, args []string) int {
	o, err := flagSpec{short: "b:w:s:n:v:i:", permute: true, long: map[string]string{
		"body-numbering=": "b", "number-width=": "w", "number-separator=": "s", "number-format=": "n",
		"starting-line-number=": "v", "line-increment=": "i",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	style, width, sep, format := "t", 6, "\t", "rn"
	next, incr := 1, 1
	if o.has("b") {
		style = o.val("b")
	}
	if o.has("s") {
		sep = o.val("s")
	}
	if o.has("n") {
		format = o.val("n")
	}
	for _, p := range []struct {
		flag string
		dst  *int
	}{{"w", &width}, {"v", &next}, {"i", &incr}} {
		if v := o.val(p.flag); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return c.fail("invalid argument '%s'", v)
			}
			*p.dst = n
		}
	}
	if style != "a" && style != "t" && style != "n" {
		return c.fail("invalid body numbering style: '%s'", style)
	}
	w := c.bufOut()
	defer w.Flush()
	blank := strings.Repeat(" ", width+len(sep))
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		return eachLine(r, func(line string, _ bool) error {
			if style == "n" || style == "t" && line == "" {
				w.WriteString(blank + line + "\n")
				return nil
			}
			switch format {
			case "ln":
				fmt.Fprintf(w, "%-*d", width, next)
			case "rz":
				fmt.Fprintf(w, "%0*d", width, next)
			default:
				fmt.Fprintf(w, "%*d", width, next)
			}
			w.WriteString(sep + line + "\n")
			next += incr
			return nil
		})
	})
}

// fold wraps lines at -w columns (80), at the last blank with -s; tabs
// advance to the next multiple of 8 unless -b counts bytes.
func fold(c *cmd, args []string) int {
	o, err := flagSpec{short: "w:sb", numeric: "w", permute: true, long: map[string]string{"width=": "w", "spaces": "s", "bytes": "b"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	width := 80
	if v := o.val("w"); v != "" {
		if width, err = strconv.Atoi(v); err != nil || width < 1 {
			return c.fail("invalid number of columns: '%s'", v)
		}
	}
	w := c.bufOut()
	defer w.Flush()
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		return eachLine(r, func(line string, noEOL bool) error {
			for _, part := range foldLine(line, width, o.has("s"), o.has("b")) {
				w.WriteString(part)
			}
			if !noEOL {
				w.WriteByte('\n')
			}
			return nil
		})
	})
}

// foldLine cuts one line into pieces of at most width columns; every
// piece but the last ends in a newline.
func foldLine(line string, width int, spaces, bytes bool) []string {
	var out []string
	col, start, lastBlank := 0, 0, -1
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		adv := 1
		switch {
		case bytes:
			adv = size
		case r == '\t':
			adv = 8 - col%8
		case r == '\b':
			adv = -min(col, 1)
		case r == '\r':
			adv = -col
		}
		if col+adv > width && i > start {
			cut := i
			if spaces && lastBlank >= start {
				cut = lastBlank + 1
			}
			out = append(out, line[start:cut]+"\n")
			start, lastBlank = cut, -1
			col = columnsOf(line[start:i], bytes)
			continue
		}
		if r == ' ' || r == '\t' {
			lastBlank = i
		}
		col += adv
		i += size
	}
	return append(out, line[start:])
}

func columnsOf(s string, bytes bool) int {
	if bytes {
		return len(s)
	}
	col := 0
	for _, r := range s {
		if r == '\t' {
			col += 8 - col%8
		} else {
			col++
		}
	}
	return col
}
