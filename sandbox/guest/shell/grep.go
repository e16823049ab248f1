package shell

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

var grepCommands = map[string]builtinFunc{
	"grep":  grep,
	"egrep": func(c *cmd, args []string) int { return grep(c, append([]string{"-E"}, args...)) },
	"fgrep": func(c *cmd, args []string) int { return grep(c, append([]string{"-F"}, args...)) },
}

var grepSpec = flagSpec{
	short:   "rRnilLcvEFGPwxHhoqse:f:A:B:C:m:IaZUb",
	permute: true,
	long: map[string]string{
		"include=": "include", "exclude=": "exclude", "exclude-dir=": "exclude-dir",
		"recursive": "r", "ignore-case": "i", "line-number": "n", "count": "c",
		"files-with-matches": "l", "invert-match": "v", "word-regexp": "w",
		"extended-regexp": "E", "fixed-strings": "F", "quiet": "q", "only-matching": "o",
		"with-filename": "H", "no-filename": "h", "regexp=": "e", "max-count=": "m", "perl-regexp": "P",
		"after-context=": "A", "before-context=": "B", "context=": "C", "basic-regexp": "G", "file=": "f",
		"no-messages": "s", "files-without-match": "L", "dereference-recursive": "R", "line-regexp": "x",
		"text": "a", "null": "Z", "byte-offset": "b", "binary": "U", "binary-files=": "binary-files",
		// accepted and ignored: output is never a terminal
		"color": "color", "colour": "color", "line-buffered": "line-buffered",
	},
}

// translateBRE turns a POSIX basic regular expression into RE2 syntax:
// \( \) \{ \} \| \+ \? become operators and their bare forms literals.
func translateBRE(s string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inClass:
			if ch == ']' {
				inClass = false
			}
			b.WriteByte(ch)
		case ch == '[':
			inClass = true
			b.WriteByte(ch)
			if i+1 < len(s) && s[i+1] == '^' {
				i++
				b.WriteByte('^')
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
				b.WriteString(`\]`)
			}
		case ch == '\\' && i+1 < len(s) && strings.IndexByte("(){}|+?", s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case strings.IndexByte("(){}|+?", ch) >= 0:
			b.WriteByte('\\')
			b.WriteByte(ch)
		case ch == '\\' && i+1 < len(s):
			i++
			b.WriteByte('\\')
			b.WriteByte(s[i])
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// grepRegexp compiles the patterns the way the flags ask.
func grepRegexp(o *opts, patterns []string) (*regexp.Regexp, error) {
	parts := make([]string, 0, len(patterns))
	for _, p := range patterns {
		for _, line := range strings.Split(p, "\n") {
			switch {
			case o.has("F"):
				line = regexp.QuoteMeta(line)
			case !o.has("E"):
				line = translateBRE(line)
			}
			parts = append(parts, "(?:"+line+")")
		}
	}
	expr := strings.Join(parts, "|")
	if o.has("w") {
		expr = `\b(?:` + expr + `)\b`
	}
	if o.has("x") {
		expr = `^(?:` + expr + `)$`
	}
	if o.has("i") {
		expr = "(?i)" + expr
	}
	return regexp.Compile(expr)
}

// grepLiterals returns the texts the patterns match when each is a plain
// literal (-F's lines, or alternatives a|b of -E, a\|b of a basic
// expression) and no flag (-i -w -x) changes what matching means, and nil
// otherwise: a line matches when it holds one of them, which
// bytes.Contains tells several times faster than the regexp machine (and
// an alternation of literals has no prefix for the machine to look for).
// A pattern that is not valid UTF-8 is left to the compiler to reject.
func grepLiterals(o *opts, patterns []string) []string {
	if o.has("i") || o.has("w") || o.has("x") {
		return nil
	}
	var out []string
	for _, p := range patterns {
		if !utf8.ValidString(p) {
			return nil
		}
		for _, line := range strings.Split(p, "\n") {
			alts := []string{line}
			switch {
			case o.has("F"):
			case o.has("E"):
				alts = strings.Split(line, "|")
			default:
				alts = strings.Split(line, `\|`)
			}
			for _, a := range alts {
				if !o.has("F") && !o.has("E") {
					a = translateBRE(a)
				}
				if a == "" || !o.has("F") && regexp.QuoteMeta(a) != a {
					return nil
				}
				out = append(out, a)
			}
		}
	}
	return out
}

// scanInt sets *dst from a flag value as fmt.Sscan does, leaving it alone
// when s is empty; plain decimal numbers skip fmt, which is slow in wasm.
func scanInt(s string, dst *int) {
	if s == "" {
		return
	}
	if s == "0" || s[0] != '0' && strings.Trim(s, "0123456789") == "" {
		if n, err := strconv.Atoi(s); err == nil {
			*dst = n
			return
		}
	}
	fmt.Sscan(s, dst)
}

// fileRegexp returns re with ^ and $ matching at line breaks, used on a
// whole file to tell whether any line can match; nil when the expression
// anchors to the text itself (\A, \z), which only a single line gives.
func fileRegexp(re *regexp.Regexp) *regexp.Regexp {
	expr := re.String()
	if strings.Contains(expr, `\A`) || strings.Contains(expr, `\z`) {
		return nil
	}
	m, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil
	}
	return m
}

// nameMode says when grep prefixes output with the file name, as GNU grep
// decides: -H always, -h never, otherwise with several operands always,
// and with one operand (or none) only for files found by recursing into a
// directory.
type nameMode int

const (
	namesNever nameMode = iota
	namesAlways
	namesInDirs
)

func grepNames(o *opts, operands int) nameMode {
	switch {
	case o.has("H"):
		return namesAlways
	case o.has("h"):
		return namesNever
	case operands > 1:
		return namesAlways
	case o.has("r") || o.has("R"):
		return namesInDirs
	}
	return namesNever
}

type grepRun struct {
	c           *cmd
	o           *opts
	re          grepMatcher
	any         *regexp.Regexp // re across lines, to skip files; nil with -v
	lits        [][]byte       // the texts re matches when it is plain literals
	w           *bufio.Writer  // stdout, flushed when grep returns
	buf         []byte         // file contents, reused across files
	starts      []int          // line starts in buf, reused across files
	num         [20]byte       // formats line numbers
	lineNumbers bool
	matchOff    int // with -o -b, where the printed match starts in its line
	names       nameMode
	matched     bool
	maxN        int
	before      int
	after       int
	f           grepFlags
}

// grepFlags are the options the per-file and per-line paths consult, read
// once: in the wasm guest a lookup in the option maps costs about what
// searching a short line does, and there were a dozen per file.
type grepFlags struct {
	invert     bool // -v
	text       bool // -a or --binary-files=text
	skipBinary bool // -I or --binary-files=without-match
	quiet      bool // no lines printed: -q, -l, -L or -c
	summary    byte // which of q, l, L and c, in that order of precedence, or 0
	only       bool // -o without -v
	nullName   bool // -Z
	byteOffset bool // -b
	silent     bool // -s
	include    nameGlobs
	exclude    nameGlobs
	excludeDir nameGlobs
}

func readGrepFlags(o *opts) grepFlags {
	bin := o.val("binary-files")
	var summary byte
	for _, c := range []byte("qlLc") {
		if o.has(string(c)) {
			summary = c
			break
		}
	}
	return grepFlags{
		invert:     o.has("v"),
		text:       o.has("a") || bin == "text",
		skipBinary: o.has("I") || bin == "without-match",
		quiet:      summary != 0,
		summary:    summary,
		only:       o.has("o") && !o.has("v"),
		nullName:   o.has("Z"),
		byteOffset: o.has("b"),
		silent:     o.has("s"),
		include:    compileGlobs(o.vals["include"]),
		exclude:    compileGlobs(o.vals["exclude"]),
		excludeDir: compileGlobs(o.vals["exclude-dir"]),
	}
}

func grep(c *cmd, args []string) (code int) {
	o, err := grepSpec.parse(args)
	if err != nil {
		return c.usage(err)
	}
	patterns := o.vals["e"]
	if f := o.val("f"); f != "" {
		data, err := os.ReadFile(c.path(f))
		if err != nil {
			c.fail("%s: %s", f, errText(err))
			return 2
		}
		patterns = append(patterns, strings.TrimSuffix(string(data), "\n"))
	}
	files := o.args
	if len(patterns) == 0 {
		if len(files) == 0 {
			return c.usage(fmt.Errorf("usage: grep [OPTION]... PATTERNS [FILE]..."))
		}
		patterns, files = files[:1], files[1:]
	}
	g := &grepRun{c: c, o: o, maxN: -1, lineNumbers: o.has("n"), f: readGrepFlags(o)}
	// A plain literal is searched with bytes.Contains; the regexp is only
	// compiled when something needs it (-o), since compiling is a large
	// share of a grep's fixed cost in the wasm guest.
	lits := grepLiterals(o, patterns)
	for _, l := range lits {
		g.lits = append(g.lits, []byte(l))
	}
	lit := len(lits) > 0
	switch {
	case o.has("P"):
		pm, err := compilePCRE(o, patterns)
		if err != nil {
			c.fail("%v", err)
			return 2
		}
		g.re, g.lits = pm, nil
		defer func() {
			if pm.err != nil {
				c.fail("%v", pm.err)
				code = 2
			}
		}()
	case !lit || o.has("o"):
		re, err := grepRegexp(o, patterns)
		if err != nil {
			c.fail("invalid regular expression: %v", err)
			return 2
		}
		g.re = re
		if o.has("o") {
			if lc := newLitClassMatcher(re.String()); lc != nil {
				g.re = lc
			}
		}
		if !lit && !o.has("v") {
			g.any = fileRegexp(re)
		}
	}
	g.w = c.bufOut()
	defer g.w.Flush()
	scanInt(o.val("m"), &g.maxN)
	scanInt(o.val("C"), &g.before)
	g.after = g.before
	scanInt(o.val("A"), &g.after)
	scanInt(o.val("B"), &g.before)
	recursive := o.has("r") || o.has("R")
	g.names = grepNames(o, len(files))
	status := 0
	if len(files) == 0 {
		if recursive {
			status = g.walk(".", true)
		} else {
			if err := g.search("(standard input)", c.stdin, false); err != nil {
				status = 2
			}
		}
	}
	for _, f := range files {
		fi, err := os.Stat(c.path(f))
		switch {
		case f == "-":
			err = g.search("(standard input)", c.stdin, false)
		case isStream(c, f):
			var rc io.ReadCloser
			if rc, err = c.open(f); err == nil {
				err = g.search(f, rc, false)
				rc.Close()
			}
		case err != nil:
		case fi.IsDir() && recursive:
			if st := g.walk(f, false); st != 0 {
				status = st
			}
			continue
		case fi.IsDir():
			if !o.has("s") {
				c.fail("%s: Is a directory", f)
			}
			continue
		case fi.Size() > wholeLimit && g.before == 0:
			err = g.searchLarge(f)
		default:
			err = g.searchFile(f, false)
		}
		if err != nil {
			if !o.has("s") {
				c.fail("%s: %s", f, errText(err))
			}
			status = 2
		}
	}
	if status == 2 && !(g.matched && o.has("q")) {
		return 2
	}
	if g.matched {
		return 0
	}
	return 1
}

// walk searches the tree under root. Names are root as the user wrote it
// joined with the path below it ("." gives "./f.txt", "d/" gives
// "d/f.txt"), as GNU grep prints them; with no operand at all (implicit)
// they are relative to the cwd without a "./".
func (g *grepRun) walk(root string, implicit bool) int {
	prefix := strings.TrimRight(root, "/")
	if prefix == "" {
		prefix = "/"
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	top := g.c.path(root)
	w := grepWalk{g: g, prefix: prefix}
	topName := root
	if implicit {
		w.prefix, topName = "", "."
	}
	fi, err := os.Lstat(top)
	if err != nil {
		w.fail(topName, err)
		return w.status
	}
	w.visit(top, "", topName, fs.FileInfoToDirEntry(fi))
	return w.status
}

// grepWalk walks a directory operand as filepath.WalkDir would (lexical
// order, symlinks not followed, an unreadable directory reported and
// skipped) but names each file by appending to its parent's names instead
// of computing them back with filepath.Rel, which in wasm costs more than
// the search of a small file.
type grepWalk struct {
	g      *grepRun
	prefix string // prepended to the path below the operand
	status int
}

func (w *grepWalk) fail(name string, err error) {
	if !w.g.f.silent {
		w.g.c.fail("%s: %s", name, errText(err))
	}
	w.status = 2
}

// visit handles the entry d at full path p, rel being its path below the
// operand ("" for the operand itself) and name what grep prints for it.
func (w *grepWalk) visit(p, rel, name string, d fs.DirEntry) {
	if _, err := w.g.w.Write(nil); err != nil {
		return // the output is gone (grep -r x | head): stop walking
	}
	f := &w.g.f
	if d.IsDir() {
		if rel != "" && (d.Name() == ".git" || f.excludeDir.match(d.Name())) {
			return
		}
		entries, err := readDir(p)
		if err != nil {
			w.fail(name, err)
			return
		}
		sep := "/"
		if strings.HasSuffix(p, "/") {
			sep = ""
		}
		for _, e := range entries {
			childRel := e.Name()
			if rel != "" {
				childRel = rel + "/" + childRel
			}
			w.visit(p+sep+e.Name(), childRel, w.prefix+childRel, e)
		}
		return
	}
	if !d.Type().IsRegular() {
		return
	}
	if len(f.include) > 0 && !f.include.match(d.Name()) {
		return
	}
	if f.exclude.match(d.Name()) {
		return
	}
	if err := w.g.searchPath(name, p, true); err != nil {
		w.status = 2
	}
}

// nameGlobs are the --include, --exclude or --exclude-dir globs, each
// compiled once; {a,b} braces are expanded first since agents write
// --include='*.{ts,tsx}'.
type nameGlobs []func(string) bool

func compileGlobs(globs []string) nameGlobs {
	var m nameGlobs
	for _, g := range globs {
		for _, alt := range expandBraces(g) {
			m = append(m, nameMatcher(alt))
		}
	}
	return m
}

// match reports whether name matches one of the globs.
func (n nameGlobs) match(name string) bool {
	for _, m := range n {
		if m(name) {
			return true
		}
	}
	return false
}

// nameMatcher returns a matcher of file names for the glob pat (a valid
// path.Match pattern): the usual shapes (a plain name, *suffix, prefix*)
// compare strings, the rest go through path.Match, which in the guest
// costs a dozen calls per name.
func nameMatcher(pat string) func(string) bool {
	const meta = `*?[\`
	switch {
	case !strings.ContainsAny(pat, meta):
		return func(s string) bool { return s == pat }
	case pat[0] == '*' && !strings.ContainsAny(pat[1:], meta):
		suffix := pat[1:]
		return func(s string) bool { return strings.HasSuffix(s, suffix) }
	case pat[len(pat)-1] == '*' && !strings.ContainsAny(pat[:len(pat)-1], meta):
		prefix := pat[:len(pat)-1]
		return func(s string) bool { return strings.HasPrefix(s, prefix) }
	}
	return func(s string) bool {
		ok, _ := path.Match(pat, s)
		return ok
	}
}

func expandBraces(s string) []string {
	open := strings.IndexByte(s, '{')
	end := strings.IndexByte(s, '}')
	if open < 0 || end < open {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(s[open+1:end], ",") {
		out = append(out, expandBraces(s[:open]+alt+s[end+1:])...)
	}
	return out
}
