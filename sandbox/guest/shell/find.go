package shell

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var findCommands = map[string]builtinFunc{"find": find}

// findTest is one predicate of a find expression.
type findTest func(p string, d fs.DirEntry, depth int) bool

// findExpr is the parsed expression: an OR of AND-groups of tests.
type findExpr struct {
	groups             [][]findTest
	minDepth, maxDepth int
	print0             bool
	del                bool
}

func (e *findExpr) match(p string, d fs.DirEntry, depth int) bool {
	if len(e.groups) == 0 {
		return true
	}
	for _, g := range e.groups {
		ok := true
		for _, t := range g {
			if !t(p, d, depth) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func parseFind(args []string) (*findExpr, error) {
	e := &findExpr{maxDepth: -1, groups: [][]findTest{nil}}
	negate := false
	add := func(t findTest) {
		if negate {
			inner := t
			t = func(p string, d fs.DirEntry, depth int) bool { return !inner(p, d, depth) }
			negate = false
		}
		g := len(e.groups) - 1
		e.groups[g] = append(e.groups[g], t)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("missing argument to '%s'", a)
			}
			i++
			return args[i], nil
		}
		switch a {
		case "!", "-not":
			negate = !negate
			continue
		case "-o", "-or":
			e.groups = append(e.groups, nil)
			continue
		case "-a", "-and", "(", ")", "-print":
			continue
		case "-print0":
			e.print0 = true
			continue
		case "-delete":
			e.del = true
			continue
		}
		v, err := val()
		if err != nil {
			return nil, err
		}
		switch a {
		case "-name", "-iname":
			pat := v
			fold := a == "-iname"
			add(func(p string, _ fs.DirEntry, _ int) bool {
				name := path.Base(p)
				if fold {
					ok, _ := path.Match(strings.ToLower(pat), strings.ToLower(name))
					return ok
				}
				ok, _ := path.Match(pat, name)
				return ok
			})
		case "-path", "-wholename":
			re := starSlashRegexp(v)
			add(func(p string, _ fs.DirEntry, _ int) bool { return re.MatchString(p) })
		case "-type":
			want := v
			add(func(_ string, d fs.DirEntry, _ int) bool {
				switch want {
				case "f":
					return d.Type().IsRegular()
				case "d":
					return d.IsDir()
				case "l":
					return d.Type()&fs.ModeSymlink != 0
				}
				return false
			})
		case "-maxdepth":
			e.maxDepth, err = strconv.Atoi(v)
		case "-mindepth":
			e.minDepth, err = strconv.Atoi(v)
		case "-size":
			add(sizeTest(v))
		case "-mtime", "-mmin":
			add(ageTest(v, a == "-mmin"))
		case "-newer":
			fi, serr := os.Stat(v)
			if serr != nil {
				return nil, fmt.Errorf("'%s': %s", v, errText(serr))
			}
			ref := fi.ModTime()
			add(func(_ string, d fs.DirEntry, _ int) bool {
				info, err := d.Info()
				return err == nil && info.ModTime().After(ref)
			})
		default:
			return nil, fmt.Errorf("unknown predicate '%s' (supported: -name -iname -path -type -maxdepth -mindepth -size -mtime -mmin -newer -not -o -print -print0 -delete)", a)
		}
		if err != nil {
			return nil, fmt.Errorf("invalid argument '%s' to %s", v, a)
		}
	}
	return e, nil
}

// starSlashRegexp compiles a find -path pattern, where * also matches '/',
// once for the whole walk.
func starSlashRegexp(pat string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pat {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func sizeTest(v string) findTest {
	cmp := 0
	switch v[0] {
	case '+':
		cmp, v = 1, v[1:]
	case '-':
		cmp, v = -1, v[1:]
	}
	unit := int64(512)
	if n := len(v); n > 0 {
		switch v[n-1] {
		case 'c':
			unit, v = 1, v[:n-1]
		case 'k':
			unit, v = 1024, v[:n-1]
		case 'M':
			unit, v = 1<<20, v[:n-1]
		case 'G':
			unit, v = 1<<30, v[:n-1]
		}
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return func(_ string, d fs.DirEntry, _ int) bool {
		info, err := d.Info()
		if err != nil {
			return false
		}
		size := (info.Size() + unit - 1) / unit
		return (cmp == 0 && size == n) || (cmp > 0 && size > n) || (cmp < 0 && size < n)
	}
}

func ageTest(v string, minutes bool) findTest {
	cmp := 0
	switch v[0] {
	case '+':
		cmp, v = 1, v[1:]
	case '-':
		cmp, v = -1, v[1:]
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	unit := 24 * time.Hour
	if minutes {
		unit = time.Minute
	}
	return func(_ string, d fs.DirEntry, _ int) bool {
		info, err := d.Info()
		if err != nil {
			return false
		}
		age := int64(time.Since(info.ModTime()) / unit)
		return (cmp == 0 && age == n) || (cmp > 0 && age > n) || (cmp < 0 && age < n)
	}
}

func find(c *cmd, args []string) int {
	var roots []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "!" && args[0] != "(" {
		roots, args = append(roots, args[0]), args[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	e, err := parseFind(args)
	if err != nil {
		return c.fail("%v", err)
	}
	end := "\n"
	if e.print0 {
		end = "\x00"
	}
	status := 0
	for _, root := range roots {
		base := c.path(root)
		var doomed []string
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(base, p)
			shown := root
			if rel != "." {
				shown = path.Join(root, filepath.ToSlash(rel))
				if root == "." {
					shown = "./" + filepath.ToSlash(rel)
				}
			}
			if err != nil {
				status = c.fail("'%s': %s", shown, errText(err))
				return nil
			}
			depth := 0
			if rel != "." {
				depth = strings.Count(filepath.ToSlash(rel), "/") + 1
			}
			if e.maxDepth >= 0 && depth > e.maxDepth {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if depth >= e.minDepth && e.match(shown, d, depth) {
				if e.del {
					doomed = append(doomed, p)
				} else {
					io.WriteString(c.stdout, shown+end)
				}
			}
			return nil
		})
		if err != nil {
			status = c.fail("'%s': %s", root, errText(err))
		}
		for i := len(doomed) - 1; i >= 0; i-- {
			if err := os.Remove(doomed[i]); err != nil {
				status = c.fail("cannot delete '%s': %s", doomed[i], errText(err))
			}
		}
	}
	return status
}
