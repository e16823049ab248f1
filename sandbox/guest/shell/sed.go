package shell

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
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
	o, err := flagSpec{short: "ne:f:Ersuz", permute: true, long: map[string]string{
		"quiet": "n", "silent": "n", "expression=": "e", "file=": "f", "regexp-extended": "E", "separate": "s",
		"unbuffered": "u", "null-data": "z", "posix": "posix", "sandbox": "sandbox", "debug": "debug",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	scripts := o.vals["e"]
	for _, f := range o.vals["f"] {
		data, err := os.ReadFile(c.path(f))
		if err != nil {
			return c.fail("couldn't open file %s: %s", f, errText(err))
		}
		scripts = append(scripts, strings.TrimSuffix(string(data), "\n"))
	}
	files := o.args
	if len(scripts) == 0 {
		if len(files) == 0 {
			return c.usage(errUsage("usage: sed [-n] [-i[SUFFIX]] [-E] script [file...]"))
		}
		scripts, files = files[:1], files[1:]
	}
	prog, err := parseSed(strings.Join(scripts, "\n"), o.has("E") || o.has("r"))
	if err != nil {
		return c.fail("-e expression #1, char 0: %v", err)
	}
	r := &sedRun{prog: prog, quiet: o.has("n"), resolve: c.path, wfiles: map[string]io.WriteCloser{}, sep: "\n"}
	if o.has("z") {
		r.sep = "\x00"
	}
	defer r.closeFiles()
	if inPlace {
		return c.sedInPlace(r, files, suffix)
	}
	bw := bufio.NewWriter(c.stdout)
	r.w = bw
	st := 0
	if o.has("s") && len(files) > 1 {
		for _, f := range files {
			text, s := c.readText([]string{f})
			st = max(st, s)
			if r.run(text); r.pending {
				bw.WriteString(r.sep)
			}
			if r.quit {
				break
			}
		}
	} else if len(files) <= 1 {
		st = c.forEachInput(files, func(_ string, in io.Reader) error {
			r.runReader(in)
			return nil
		})
	} else {
		var all string
		all, st = c.sedText(files, r.sep)
		r.run(all)
	}
	bw.Flush()
	if r.exit != 0 {
		return r.exit
	}
	if st != 0 {
		return 2
	}
	return 0
}

// sedInPlace runs the script over each file separately and writes the
// result back, keeping a backup copy when suffix is set.
func (c *cmd) sedInPlace(r *sedRun, files []string, suffix string) int {
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
		r.w = &out
		r.quit = false
		r.run(string(data))
		if err := os.WriteFile(c.path(f), []byte(out.String()), 0o644); err != nil {
			status = c.fail("couldn't write %s: %s", f, errText(err))
		}
		if r.quit {
			break
		}
	}
	return max(status, r.exit)
}

// sedText reads the inputs as one text, as GNU sed sees several files: a
// file that does not end in sep is ended with one when more input follows.
func (c *cmd) sedText(files []string, sep string) (string, int) {
	var b strings.Builder
	st := c.forEachInput(files, func(_ string, r io.Reader) error {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), sep) {
			b.WriteString(sep)
		}
		_, err := io.Copy(&b, r)
		return err
	})
	return b.String(), st
}

type errUsage string

func (e errUsage) Error() string { return string(e) }

// runSed applies prog to input, writing to w (file commands disabled).
func runSed(prog *sedProg, input string, w io.StringWriter, quiet bool) {
	(&sedRun{prog: prog, quiet: quiet, w: w}).run(input)
}

// sedRun is one execution of a script: pattern and hold space, the input
// lines and the state that carries across cycles.
type sedRun struct {
	prog    *sedProg
	quiet   bool
	sep     string // line separator, "\n" unless -z
	w       io.StringWriter
	pending bool                // a line without its separator was written last
	resolve func(string) string // nil: r and w do nothing
	wfiles  map[string]io.WriteCloser

	src     *sedLines
	ps      string
	hold    string
	appendQ strings.Builder
	subst   bool // a substitution succeeded since the last line read or t
	lastRe  *regexp.Regexp
	quit    bool
	quitEOL bool // q stopped the script: a missing final newline is added
	exit    int
}

func (r *sedRun) run(input string) { r.runReader(strings.NewReader(input)) }

// runReader runs the script over the lines of in as they come: sed keeps
// the pattern and hold spaces and one line of look-ahead (for $), not its
// input.
func (r *sedRun) runReader(in io.Reader) {
	if r.sep == "" {
		r.sep = "\n"
	}
	for _, c := range r.prog.cmds {
		c.inRange = false
	}
	r.pending = false
	if r.sedStream(in) {
		return
	}
	r.src = &sedLines{br: bufio.NewReaderSize(in, 64<<10), sep: r.sep[0]}
	last := r.prog.lastLine()
	for r.src.more() && !r.quit {
		r.ps = r.src.next()
		if last > 0 && r.src.n > last && r.passRest(in) {
			return
		}
		r.subst = false
		r.cycle()
	}
	if r.quitEOL && r.pending {
		// GNU sed ends a last line that lacked its newline when q stops
		// it (printf 'a\nb' | sed 2q prints "a\nb\n"; Q does not).
		r.w.WriteString(r.sep)
		r.pending = false
	}
}

func (r *sedRun) lineNo() int { return r.src.n }

func (r *sedRun) atLast() bool { return !r.src.more() }

// out writes s, first ending a line written without its separator.
func (r *sedRun) out(s string) {
	if r.pending {
		r.w.WriteString(r.sep)
		r.pending = false
	}
	r.w.WriteString(s)
}

// emit writes text followed by the separator, which the last input line
// keeps out when it had none (unless more output follows).
func (r *sedRun) emit(text string) {
	r.out(text)
	if r.src.noEOL && r.atLast() {
		r.pending = true
		return
	}
	r.w.WriteString(r.sep)
}

func (r *sedRun) flushAppend() {
	if r.appendQ.Len() > 0 {
		r.out(r.appendQ.String())
		r.appendQ.Reset()
	}
}

// cycle runs the script once on the pattern space.
func (r *sedRun) cycle() {
	cmds := r.prog.cmds
	autoprint := true
	for pc := 0; pc < len(cmds); pc++ {
		c := cmds[pc]
		if !r.matches(c) {
			if c.name == '{' {
				pc = c.jump
			}
			continue
		}
		switch c.name {
		case '=':
			r.out(strconv.Itoa(r.lineNo()) + "\n")
		case 'a':
			r.appendQ.WriteString(c.text + "\n")
		case 'i':
			r.out(c.text + "\n")
		case 'c':
			if c.a2 == nil || !c.inRange {
				r.out(c.text + "\n")
			}
			autoprint, pc = false, len(cmds)
		case 'd':
			autoprint, pc = false, len(cmds)
		case 'D':
			i := strings.IndexByte(r.ps, '\n')
			if i < 0 {
				autoprint, pc = false, len(cmds)
				continue
			}
			r.ps = r.ps[i+1:]
			r.flushAppend()
			pc = -1
		case 'g':
			r.ps = r.hold
		case 'G':
			r.ps += "\n" + r.hold
		case 'h':
			r.hold = r.ps
		case 'H':
			r.hold += "\n" + r.ps
		case 'x':
			r.ps, r.hold = r.hold, r.ps
		case 'l':
			r.out(sedEscape(r.ps))
		case 'n':
			if r.atLast() {
				r.quit, pc = true, len(cmds)
				continue
			}
			if !r.quiet {
				r.emit(r.ps)
			}
			r.flushAppend()
			r.ps = r.src.next()
		case 'N':
			if r.atLast() {
				r.quit, pc = true, len(cmds)
				continue
			}
			r.flushAppend()
			r.ps += "\n" + r.src.next()
		case 'p':
			r.emit(r.ps)
		case 'P':
			first, _, _ := strings.Cut(r.ps, "\n")
			r.out(first + "\n")
		case 'q':
			r.quit, r.quitEOL, r.exit, pc = true, true, c.exit, len(cmds)
		case 'Q':
			r.quit, r.exit, autoprint, pc = true, c.exit, false, len(cmds)
		case 'r':
			if r.resolve != nil {
				if data, err := os.ReadFile(r.resolve(c.text)); err == nil {
					r.appendQ.Write(data)
				}
			}
		case 'w', 'W':
			text := r.ps
			if c.name == 'W' {
				text, _, _ = strings.Cut(text, "\n")
			}
			r.writeFile(c.text, text)
		case 's':
			r.substitute(c)
		case 't', 'T':
			if r.subst == (c.name == 't') {
				pc = r.jumpTo(c)
			}
			r.subst = false
		case 'b':
			pc = r.jumpTo(c)
		case 'y':
			r.ps = strings.Map(func(ch rune) rune {
				for i, f := range c.from {
					if f == ch {
						return c.to[i]
					}
				}
				return ch
			}, r.ps)
		case 'z':
			r.ps = ""
		case 'F':
			r.out("-\n")
		}
	}
	if autoprint && !r.quiet {
		r.emit(r.ps)
	}
	r.flushAppend()
}

// jumpTo returns the pc before the jump target (the loop increments it).
func (r *sedRun) jumpTo(c *sedCmd) int {
	if c.jump < 0 {
		return len(r.prog.cmds)
	}
	return c.jump - 1
}

func (r *sedRun) writeFile(name, text string) {
	if r.resolve == nil {
		return
	}
	f, ok := r.wfiles[name]
	if !ok {
		var err error
		if name == "/dev/stdout" {
			r.out(text + "\n")
			return
		}
		if f, err = openWrite(r.resolve(name), false); err != nil {
			return
		}
		r.wfiles[name] = f
	}
	io.WriteString(f, text+"\n")
}

func (r *sedRun) closeFiles() {
	for _, f := range r.wfiles {
		f.Close()
	}
}

func (r *sedRun) regexFor(re *regexp.Regexp, empty bool) *regexp.Regexp {
	if empty {
		return r.lastRe
	}
	r.lastRe = re
	return re
}

func (r *sedRun) addrMatches(a *sedAddr) bool {
	n := r.lineNo()
	switch {
	case a.last:
		return r.atLast()
	case a.re != nil || a.emptyRe:
		re := r.regexFor(a.re, a.emptyRe)
		return re != nil && re.MatchString(r.ps)
	case a.step > 0:
		return n >= a.line && (n-a.line)%a.step == 0
	}
	return a.line == n
}

// matches applies the address (range state included) and negation.
func (r *sedRun) matches(c *sedCmd) bool {
	return r.addressed(c) != c.negate
}

func (r *sedRun) addressed(c *sedCmd) bool {
	if c.a1 == nil {
		return true
	}
	if c.a2 == nil {
		return r.addrMatches(c.a1)
	}
	n := r.lineNo()
	a2 := c.a2
	if c.inRange {
		switch {
		case a2.re != nil || a2.emptyRe:
			c.inRange = !r.addrMatches(a2)
		case a2.last:
			c.inRange = !r.atLast()
		case a2.plus > 0:
			c.inRange = n < c.rangeTo
		case a2.mult > 0:
			c.inRange = n%a2.mult != 0
		default:
			c.inRange = n < a2.line
		}
		return true
	}
	start := c.a1.line == 0 && c.a1.re == nil && !c.a1.last && !c.a1.emptyRe && c.a1.step == 0 && n == 1
	if !start && !r.addrMatches(c.a1) {
		return false
	}
	switch {
	case start && (a2.re != nil || a2.emptyRe):
		c.inRange = !r.addrMatches(a2) // 0,/re/ may end on line 1
	case a2.re != nil || a2.emptyRe:
		c.inRange = true
	case a2.last:
		c.inRange = !r.atLast()
	case a2.plus > 0:
		c.rangeTo = n + a2.plus
		c.inRange = true
	case a2.mult > 0:
		c.inRange = n%a2.mult != 0
	case a2.plus == 0 && a2.mult == 0 && a2.line == 0 && !a2.last:
		c.inRange = false // addr,+0
	default:
		c.inRange = a2.line > n
	}
	return true
}

// substitute performs the s command on the pattern space.
func (r *sedRun) substitute(c *sedCmd) {
	re := r.regexFor(c.re, c.emptyRe)
	if re == nil {
		return
	}
	if c.lit != "" {
		// A literal is looked for without the regexp machine, and with
		// a plain replacement (no & or \) replaced without it too.
		if !strings.Contains(r.ps, c.lit) {
			return
		}
		if c.nth == 0 && !strings.ContainsAny(c.repl, `&\`) {
			n := 1
			if c.global {
				n = -1
			}
			r.substituted(c, strings.Replace(r.ps, c.lit, c.repl, n))
			return
		}
	}
	matches := re.FindAllStringSubmatchIndex(r.ps, -1)
	if len(matches) == 0 || c.nth > 0 && len(matches) < c.nth {
		return
	}
	var b strings.Builder
	prev := 0
	for k, m := range matches {
		if c.nth > 0 && k+1 < c.nth {
			continue
		}
		b.WriteString(r.ps[prev:m[0]])
		b.WriteString(expandRepl(c.repl, r.ps, m))
		prev = m[1]
		if !c.global {
			break
		}
	}
	b.WriteString(r.ps[prev:])
	r.substituted(c, b.String())
}

// substituted makes ps the pattern space after a replacement was made.
func (r *sedRun) substituted(c *sedCmd, ps string) {
	r.ps = ps
	r.subst = true
	if c.print {
		r.emit(r.ps)
	}
	if c.wfile != "" {
		r.writeFile(c.wfile, r.ps)
	}
}
