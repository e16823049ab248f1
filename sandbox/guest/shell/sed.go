package shell

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var sedCommands = map[string]builtinFunc{"sed": sed}

func sed(c *cmd, args []string) int {
	// -i takes an optional backup suffix glued to it (-i.bak), which the
	// flag parser cannot express.
	suffix, inPlace := "", false
	kept := args[:0:0]
	for _, a := range args {
		switch {
		case a == "-i" || a == "--in-place":
			inPlace = true
		case strings.HasPrefix(a, "--in-place="):
			inPlace, suffix = true, strings.TrimPrefix(a, "--in-place=")
		case strings.HasPrefix(a, "-i") && len(a) > 2 && a[2] != '-':
			inPlace, suffix = true, a[2:]
		default:
			kept = append(kept, a)
		}
	}
	args = kept
	o, err := flagSpec{short: "ne:f:iErs", permute: true, long: map[string]string{"quiet": "n", "expression=": "e", "in-place": "i", "regexp-extended": "E"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	scripts := o.vals["e"]
	if f := o.val("f"); f != "" {
		data, err := os.ReadFile(c.path(f))
		if err != nil {
			return c.fail("couldn't open file %s: %s", f, errText(err))
		}
		scripts = append(scripts, string(data))
	}
	files := o.args
	if len(scripts) == 0 {
		if len(files) == 0 {
			return c.usage(errUsage("usage: sed [-n] [-i] [-E] script [file...]"))
		}
		scripts, files = files[:1], files[1:]
	}
	prog, err := parseSed(strings.Join(scripts, "\n"), o.has("E") || o.has("r"))
	if err != nil {
		return c.fail("-e expression #1: %v", err)
	}
	quiet := o.has("n")
	if inPlace || o.has("i") {
		status := 0
		for _, f := range files {
			data, err := os.ReadFile(c.path(f))
			if err != nil {
				status = c.fail("can't read %s: %s", f, errText(err))
				continue
			}
			if suffix != "" {
				backup := f + suffix
				if strings.Contains(suffix, "*") {
					dir, base := filepath.Split(f)
					backup = dir + strings.ReplaceAll(suffix, "*", base)
				}
				if err := os.WriteFile(c.path(backup), data, 0o644); err != nil {
					status = c.fail("couldn't write %s: %s", backup, errText(err))
					continue
				}
			}
			var out strings.Builder
			runSed(prog, string(data), &out, quiet)
			if err := os.WriteFile(c.path(f), []byte(out.String()), 0o644); err != nil {
				status = c.fail("couldn't write %s: %s", f, errText(err))
			}
		}
		return status
	}
	var all strings.Builder
	st := c.forEachInput(files, func(_ string, r io.Reader) error {
		_, err := io.Copy(&all, r)
		return err
	})
	bw := bufio.NewWriter(c.stdout)
	runSed(prog, all.String(), bw, quiet)
	bw.Flush()
	return st
}

type errUsage string

func (e errUsage) Error() string { return string(e) }

// runSed applies prog to every line of input.
func runSed(prog []*sedCmd, input string, w io.StringWriter, quiet bool) {
	for _, c := range prog {
		c.inRange = false
	}
	if input == "" {
		return
	}
	noEOL := !strings.HasSuffix(input, "\n")
	lines := strings.Split(strings.TrimSuffix(input, "\n"), "\n")
	for i, line := range lines {
		n, last := i+1, i == len(lines)-1
		eol := "\n"
		if last && noEOL {
			eol = ""
		}
		var appendText []string
		deleted, quit := false, false
	cmds:
		for _, c := range prog {
			if !c.matches(line, n, last) {
				continue
			}
			switch c.name {
			case 'p':
				w.WriteString(line + "\n")
			case 'd':
				deleted = true
				break cmds
			case 'q':
				quit = true
				break cmds
			case '=':
				w.WriteString(strconv.Itoa(n) + "\n")
			case 'a':
				appendText = append(appendText, c.text)
			case 'i':
				w.WriteString(c.text + "\n")
			case 'c':
				if c.a2 == nil || !c.inRange {
					w.WriteString(c.text + "\n")
				}
				deleted = true
				break cmds
			case 's':
				var ok bool
				line, ok = c.substitute(line)
				if ok && c.print {
					w.WriteString(line + "\n")
				}
			}
		}
		if !deleted && !quiet {
			w.WriteString(line + eol)
		}
		for _, t := range appendText {
			w.WriteString(t + "\n")
		}
		if quit {
			return
		}
	}
}

func (a *sedAddr) matches(line string, n int, last bool) bool {
	switch {
	case a.last:
		return last
	case a.re != nil:
		return a.re.MatchString(line)
	}
	return a.line == n
}

// matches applies the address (range state included) and negation.
func (c *sedCmd) matches(line string, n int, last bool) bool {
	return c.addressed(line, n, last) != c.negate
}

func (c *sedCmd) addressed(line string, n int, last bool) bool {
	if c.a1 == nil {
		return true
	}
	if c.a2 == nil {
		return c.a1.matches(line, n, last)
	}
	if c.inRange {
		switch {
		case c.a2.re != nil && c.a2.re.MatchString(line), c.a2.last && last, c.a2.re == nil && !c.a2.last && n >= c.a2.line:
			c.inRange = false
		}
		return true
	}
	if !c.a1.matches(line, n, last) {
		return false
	}
	// A line-number end at or before the start closes the range at once.
	c.inRange = !(c.a2.re == nil && !c.a2.last && c.a2.line <= n) && !(c.a2.last && last)
	return true
}

// substitute performs the s command on line, reporting whether it changed.
func (c *sedCmd) substitute(line string) (string, bool) {
	matches := c.re.FindAllStringSubmatchIndex(line, -1)
	if len(matches) == 0 {
		return line, false
	}
	var b strings.Builder
	prev, done := 0, false
	for k, m := range matches {
		if done || (c.nth > 0 && k+1 < c.nth) {
			continue
		}
		b.WriteString(line[prev:m[0]])
		b.WriteString(expandRepl(c.repl, line, m))
		prev = m[1]
		if !c.global {
			done = true
		}
	}
	if c.nth > 0 && len(matches) < c.nth {
		return line, false
	}
	b.WriteString(line[prev:])
	return b.String(), true
}

// expandRepl expands & and \1…\9 in a replacement.
func expandRepl(repl, line string, m []int) string {
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		switch {
		case ch == '&':
			b.WriteString(line[m[0]:m[1]])
		case ch == '\\' && i+1 < len(repl):
			i++
			d := repl[i]
			switch {
			case d >= '0' && d <= '9':
				g := int(d - '0')
				if 2*g+1 < len(m) && m[2*g] >= 0 {
					b.WriteString(line[m[2*g]:m[2*g+1]])
				}
			case d == 'n':
				b.WriteByte('\n')
			case d == 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
