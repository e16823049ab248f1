package shell

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

var findCommands = map[string]builtinFunc{"find": find}

// findEntry is one file the walk visits.
type findEntry struct {
	shown string // the path as find prints it
	full  string // the path in the file system
	d     fs.DirEntry
	depth int
}

func (e *findEntry) info() (fs.FileInfo, error) { return e.d.Info() }

// findNode is one node of a parsed find expression.
type findNode interface {
	eval(w *findWalk, e *findEntry) bool
}

type (
	findAnd  struct{ l, r findNode }
	findOr   struct{ l, r findNode }
	findNot  struct{ x findNode }
	findTest func(w *findWalk, e *findEntry) bool
)

func (n findAnd) eval(w *findWalk, e *findEntry) bool  { return n.l.eval(w, e) && n.r.eval(w, e) }
func (n findOr) eval(w *findWalk, e *findEntry) bool   { return n.l.eval(w, e) || n.r.eval(w, e) }
func (n findNot) eval(w *findWalk, e *findEntry) bool  { return !n.x.eval(w, e) }
func (t findTest) eval(w *findWalk, e *findEntry) bool { return t(w, e) }

// findParser parses the expression after the starting points:
// expr := or; or := and {-o and}; and := unary {[-a] unary};
// unary := ! unary | ( expr ) | primary.
type findParser struct {
	c         *cmd
	args      []string
	i         int
	hasAction bool
	minDepth  int
	maxDepth  int
	depthLast bool // -depth: directories after their contents
	batches   []*findBatch
}

func (p *findParser) peek() string {
	if p.i < len(p.args) {
		return p.args[p.i]
	}
	return ""
}

func (p *findParser) or() (findNode, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek() == "-o" || p.peek() == "-or" {
		p.i++
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = findOr{l, r}
	}
	return l, nil
}

func (p *findParser) and() (findNode, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.i < len(p.args) {
		switch p.peek() {
		case "-o", "-or", ")":
			return l, nil
		case "-a", "-and":
			p.i++
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = findAnd{l, r}
	}
	return l, nil
}

func (p *findParser) unary() (findNode, error) {
	switch p.peek() {
	case "":
		return nil, errors.New("expected an expression")
	case "!", "-not":
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return findNot{x}, nil
	case "(":
		p.i++
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errors.New("invalid expression; I was expecting to find a ')' somewhere but did not see one")
		}
		p.i++
		return x, nil
	}
	return p.primary()
}

func (p *findParser) value(name string) (string, error) {
	if p.i >= len(p.args) {
		return "", fmt.Errorf("missing argument to '%s'", name)
	}
	v := p.args[p.i]
	p.i++
	return v, nil
}

func always(v bool) findTest { return func(*findWalk, *findEntry) bool { return v } }

func (p *findParser) primary() (findNode, error) {
	a := p.args[p.i]
	p.i++
	switch a {
	case "-print", "-print0", "-ls":
		p.hasAction = true
		end := "\n"
		if a == "-print0" {
			end = "\x00"
		}
		long := a == "-ls"
		return findTest(func(w *findWalk, e *findEntry) bool {
			if long {
				w.ls(e)
			} else {
				w.print(e.shown + end)
			}
			return true
		}), nil
	case "-delete":
		p.hasAction, p.depthLast = true, true
		return findTest(func(w *findWalk, e *findEntry) bool {
			w.doomed = append(w.doomed, e)
			return true
		}), nil
	case "-prune":
		return findTest(func(w *findWalk, e *findEntry) bool {
			if e.d.IsDir() {
				w.prune = true
			}
			return true
		}), nil
	case "-quit":
		p.hasAction = true
		return findTest(func(w *findWalk, _ *findEntry) bool { w.quit = true; return true }), nil
	case "-true":
		return always(true), nil
	case "-false":
		return findTest(func(*findWalk, *findEntry) bool { return false }), nil
	case "-depth", "-d":
		p.depthLast = true
		return always(true), nil
	case "-empty":
		return findTest(func(w *findWalk, e *findEntry) bool {
			if e.d.IsDir() {
				entries, err := readDir(e.full)
				return err == nil && len(entries) == 0
			}
			fi, err := e.info()
			return err == nil && fi.Mode().IsRegular() && fi.Size() == 0
		}), nil
	case "-executable":
		return findTest(func(w *findWalk, e *findEntry) bool {
			fi, err := e.info()
			return err == nil && fi.Mode().Perm()&0o111 != 0
		}), nil
	case "-readable", "-writable", "-nouser", "-nogroup":
		return always(a != "-nouser" && a != "-nogroup"), nil
	case "-exec", "-execdir", "-ok", "-okdir":
		return p.exec(a)
	}
	v, err := p.value(a)
	if err != nil {
		return nil, err
	}
	return p.valued(a, v)
}

func (p *findParser) valued(a, v string) (findNode, error) {
	bad := func() error { return fmt.Errorf("invalid argument '%s' to '%s'", v, a) }
	switch a {
	case "-name", "-iname":
		pat, fold := v, a == "-iname"
		if fold {
			pat = strings.ToLower(pat)
		}
		if _, err := path.Match(pat, ""); err != nil {
			return nil, bad()
		}
		match := nameMatcher(pat)
		return findTest(func(_ *findWalk, e *findEntry) bool {
			name := e.d.Name() // below the operands, the base of shown
			if e.depth == 0 {
				name = path.Base(e.shown)
			}
			if fold {
				name = strings.ToLower(name)
			}
			return match(name)
		}), nil
	case "-path", "-wholename", "-ipath", "-iwholename":
		re := starSlashRegexp(v)
		if strings.HasPrefix(a, "-i") {
			re = regexp.MustCompile("(?i)" + re.String())
		}
		return findTest(func(_ *findWalk, e *findEntry) bool { return re.MatchString(e.shown) }), nil
	case "-regex", "-iregex":
		expr := "^(?:" + v + ")$"
		if a == "-iregex" {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, bad()
		}
		return findTest(func(_ *findWalk, e *findEntry) bool { return re.MatchString(e.shown) }), nil
	case "-type", "-xtype":
		for _, t := range strings.Split(v, ",") {
			if len(t) != 1 || strings.IndexByte("fdlpsbc", t[0]) < 0 {
				return nil, fmt.Errorf("Unknown argument to -type: %s", v)
			}
		}
		return findTest(func(_ *findWalk, e *findEntry) bool {
			for _, t := range strings.Split(v, ",") {
				if typeMatches(t[0], e.d.Type()) {
					return true
				}
			}
			return false
		}), nil
	case "-maxdepth", "-mindepth":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, bad()
		}
		if a == "-maxdepth" {
			p.maxDepth = n
		} else {
			p.minDepth = n
		}
		return always(true), nil
	case "-size":
		if v == "" {
			return nil, bad()
		}
		return sizeTest(v), nil
	case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin":
		if v == "" {
			return nil, bad()
		}
		return ageTest(v, strings.HasSuffix(a, "min")), nil
	case "-newer", "-anewer", "-cnewer":
		fi, err := os.Stat(p.c.path(v))
		if err != nil {
			return nil, fmt.Errorf("'%s': %s", v, errText(err))
		}
		ref := fi.ModTime()
		return findTest(func(_ *findWalk, e *findEntry) bool {
			info, err := e.info()
			return err == nil && info.ModTime().After(ref)
		}), nil
	case "-links":
		return numericTest(v, func(e *findEntry) int64 {
			fi, err := e.info()
			if err != nil {
				return -1
			}
			return int64(statOf(fi).nlink)
		})
	case "-perm":
		return p.perm(v)
	case "-user", "-group", "-uid", "-gid":
		return always(true), nil
	case "-printf", "-fprintf":
		p.hasAction = true
		format := v
		return findTest(func(w *findWalk, e *findEntry) bool {
			w.out.WriteString(w.printf(format, e))
			return true
		}), nil
	}
	return nil, fmt.Errorf("unknown predicate '%s'", a)
}

func typeMatches(t byte, m fs.FileMode) bool {
	switch t {
	case 'f':
		return m.IsRegular()
	case 'd':
		return m.IsDir()
	case 'l':
		return m&fs.ModeSymlink != 0
	case 'p':
		return m&fs.ModeNamedPipe != 0
	case 's':
		return m&fs.ModeSocket != 0
	case 'c':
		return m&fs.ModeCharDevice != 0
	case 'b':
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	}
	return false
}

// perm implements -perm MODE, -perm -MODE (all bits) and -perm /MODE (any).
func (p *findParser) perm(v string) (findNode, error) {
	kind := byte(0)
	if v != "" && (v[0] == '-' || v[0] == '/' || v[0] == '+') {
		kind, v = v[0], v[1:]
	}
	want, err := applyMode(v, 0, false)
	if err != nil {
		return nil, fmt.Errorf("invalid mode '%s'", v)
	}
	return findTest(func(_ *findWalk, e *findEntry) bool {
		fi, err := e.info()
		if err != nil {
			return false
		}
		have := unixPerm(fi.Mode())
		switch kind {
		case '-':
			return have&want == want
		case '/', '+':
			return want == 0 || have&want != 0
		}
		return have&0o7777 == want
	}), nil
}

// numericTest compares a number as find does: +N more, -N less, N exactly.
func numericTest(v string, of func(*findEntry) int64) (findNode, error) {
	cmp := 0
	if v != "" && (v[0] == '+' || v[0] == '-') {
		cmp = map[byte]int{'+': 1, '-': -1}[v[0]]
		v = v[1:]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("invalid argument '%s'", v)
	}
	return findTest(func(_ *findWalk, e *findEntry) bool {
		x := of(e)
		return cmp == 0 && x == n || cmp > 0 && x > n || cmp < 0 && x >= 0 && x < n
	}), nil
}

// findBatch gathers the paths of one -exec … {} + for running at the end.
type findBatch struct {
	argv  []string // with "{}" where the paths go
	paths []string
}

// exec parses -exec/-execdir COMMAND… ; and COMMAND… {} +. The command
// runs through the shell's own interpreter (builtins and functions).
func (p *findParser) exec(a string) (findNode, error) {
	p.hasAction = true
	var argv []string
	for {
		if p.i >= len(p.args) {
			return nil, fmt.Errorf("missing argument to '%s'", a)
		}
		x := p.args[p.i]
		p.i++
		if x == ";" {
			break
		}
		if x == "+" && len(argv) > 0 && argv[len(argv)-1] == "{}" {
			b := &findBatch{argv: argv}
			p.batches = append(p.batches, b)
			return findTest(func(w *findWalk, e *findEntry) bool {
				b.paths = append(b.paths, w.execPath(a, e))
				return true
			}), nil
		}
		argv = append(argv, x)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("missing argument to '%s'", a)
	}
	return findTest(func(w *findWalk, e *findEntry) bool {
		target := w.execPath(a, e)
		run := make([]string, len(argv))
		for i, x := range argv {
			run[i] = strings.ReplaceAll(x, "{}", target)
		}
		dir := w.c.dir
		if strings.HasSuffix(a, "dir") {
			dir = filepath.Dir(e.full)
		}
		return w.c.reenterIn(dir, run) == 0
	}), nil
}

// findWalk is the state of one find run.
type findWalk struct {
	c      *cmd
	out    *bufio.Writer
	expr   findNode
	p      *findParser
	prune  bool
	quit   bool
	doomed []*findEntry
	status int
}

// print writes s and ends the walk once the output is gone (find | head).
func (w *findWalk) print(s string) {
	if _, err := w.out.WriteString(s); err != nil {
		w.quit = true
	}
}

func (w *findWalk) execPath(a string, e *findEntry) string {
	if strings.HasSuffix(a, "dir") {
		return "./" + path.Base(e.full)
	}
	return e.shown
}

func find(c *cmd, args []string) int {
	var roots []string
	for len(args) > 0 && (!strings.HasPrefix(args[0], "-") || args[0] == "-") && args[0] != "!" && args[0] != "(" {
		roots, args = append(roots, args[0]), args[1:]
	}
	for len(args) > 0 && (args[0] == "-L" || args[0] == "-H" || args[0] == "-P") {
		args = args[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	p := &findParser{c: c, args: args, maxDepth: -1}
	var expr findNode = always(true)
	if len(args) > 0 {
		e, err := p.or()
		if err == nil && p.i < len(args) {
			err = fmt.Errorf("unexpected '%s'", args[p.i])
		}
		if err != nil {
			return c.fail("%v", err)
		}
		expr = e
	}
	if !p.hasAction {
		inner := expr
		expr = findAnd{inner, findTest(func(w *findWalk, e *findEntry) bool {
			w.print(e.shown + "\n")
			return true
		})}
	}
	w := &findWalk{c: c, out: c.bufOut(), expr: expr, p: p}
	defer c.flushOut()
	for _, root := range roots {
		if w.quit {
			break
		}
		w.walkRoot(root)
	}
	for _, b := range p.batches {
		for start := 0; start < len(b.paths); start += 2048 {
			batch := b.paths[start:min(start+2048, len(b.paths))]
			argv := append(append([]string(nil), b.argv[:len(b.argv)-1]...), batch...)
			if st := c.reenterIn(c.dir, argv); st != 0 {
				w.status = 1
			}
		}
	}
	for i := len(w.doomed) - 1; i >= 0; i-- {
		e := w.doomed[i]
		if e.depth == 0 && (e.shown == "." || e.shown == "..") {
			continue
		}
		if err := os.Remove(e.full); err != nil {
			w.status = c.fail("cannot delete '%s': %s", e.shown, errText(err))
		}
	}
	return w.status
}

func (w *findWalk) walkRoot(root string) {
	full := w.c.path(root)
	fi, err := os.Lstat(full)
	if err != nil {
		w.status = w.c.fail("'%s': %s", root, errText(err))
		return
	}
	w.visit(&findEntry{shown: root, full: full, d: fs.FileInfoToDirEntry(fi)})
}

// visit evaluates the expression on e and descends into directories,
// reading each directory whole before recursing (one open at a time).
func (w *findWalk) visit(e *findEntry) {
	p := w.p
	inRange := e.depth >= p.minDepth && (p.maxDepth < 0 || e.depth <= p.maxDepth)
	w.prune = false
	if inRange && !p.depthLast {
		w.expr.eval(w, e)
	}
	pruned := w.prune
	if w.quit {
		return
	}
	if e.d.IsDir() && !pruned && (p.maxDepth < 0 || e.depth < p.maxDepth) {
		entries, err := readDir(e.full)
		if err != nil {
			w.status = w.c.fail("'%s': %s", e.shown, errText(err))
		}
		shown, full := e.shown, e.full
		if !strings.HasSuffix(shown, "/") {
			shown += "/"
		}
		if !strings.HasSuffix(full, "/") {
			full += "/"
		}
		for _, d := range entries {
			// full is clean and a directory entry's name is one element,
			// so the concatenation is filepath.Join without its Clean,
			// which in the guest costs as much as the rest of the visit.
			w.visit(&findEntry{shown: shown + d.Name(), full: full + d.Name(), d: d, depth: e.depth + 1})
			if w.quit {
				return
			}
		}
	}
	if inRange && p.depthLast {
		w.expr.eval(w, e)
	}
}
