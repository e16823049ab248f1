package shell

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

var treeCommands = map[string]builtinFunc{
	"tree":    tree,
	"hexdump": hexdump,
	"hd":      func(c *cmd, args []string) int { return hexdump(c, append([]string{"-C"}, args...)) },
	"strings": stringsCmd,
	"less":    pager,
	"more":    pager,
}

// pager is less/more without a terminal: like those, it copies its input.
func pager(c *cmd, args []string) int {
	var files []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			files = append(files, a)
		}
	}
	return cat(c, files)
}

// treeWalk is one tree run: its options and counts.
type treeWalk struct {
	c                *cmd
	w                *bufio.Writer
	all, dirsOnly    bool
	full, classify   bool
	dirsFirst        bool
	maxLevel         int
	lines            [4]string // branch, last branch, bar, blank
	exclude, include []string
	dirs, files      int
}

func (t *treeWalk) excluded(name string, isDir bool) bool {
	if !t.all && strings.HasPrefix(name, ".") {
		return true
	}
	for _, p := range t.exclude {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	if len(t.include) > 0 && !isDir {
		for _, p := range t.include {
			if ok, _ := path.Match(p, name); ok {
				return false
			}
		}
		return true
	}
	return t.dirsOnly && !isDir
}

// tree draws directories as tree 2 does: entries in name order, hidden
// ones left out unless -a, then a count of directories and files.
func tree(c *cmd, args []string) int {
	o, err := flagSpec{short: "adfFL:I:P:", permute: true, long: map[string]string{
		"noreport": "noreport", "dirsfirst": "dirsfirst", "charset=": "charset", "gitignore": "gitignore",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	t := &treeWalk{c: c, w: c.bufOut(), all: o.has("a"), dirsOnly: o.has("d"), full: o.has("f"), classify: o.has("F"),
		dirsFirst: o.has("dirsfirst"), maxLevel: -1}
	defer t.w.Flush()
	t.lines = [4]string{"|-- ", "`-- ", "|   ", "    "}
	if utf8Locale(c) {
		t.lines = [4]string{"├── ", "└── ", "│\u00a0\u00a0 ", "    "} // tree 2 pads bars with no-break spaces
	}
	if v := o.val("L"); v != "" {
		if t.maxLevel, err = strconv.Atoi(v); err != nil || t.maxLevel < 1 {
			return c.fail("Invalid level, must be greater than 0.")
		}
	}
	for _, v := range o.vals["I"] {
		t.exclude = append(t.exclude, strings.Split(v, "|")...)
	}
	for _, v := range o.vals["P"] {
		t.include = append(t.include, strings.Split(v, "|")...)
	}
	roots := o.args
	if len(roots) == 0 {
		roots = []string{"."}
	}
	status := 0
	for _, root := range roots {
		fi, err := os.Stat(c.path(root))
		switch {
		case err != nil:
			fmt.Fprintf(t.w, "%s  [error opening dir]\n", root)
			status = 2
			continue
		case !fi.IsDir():
			fmt.Fprintln(t.w, root)
			t.files++
			continue
		}
		shown := root
		if t.classify && !strings.HasSuffix(shown, "/") {
			shown += "/"
		}
		fmt.Fprintln(t.w, shown)
		t.dirs++
		t.walk(c.path(root), root, "", 1)
	}
	if !o.has("noreport") {
		if t.dirsOnly {
			fmt.Fprintf(t.w, "\n%d director%s\n", t.dirs, map[bool]string{true: "y", false: "ies"}[t.dirs == 1])
		} else {
			fmt.Fprintf(t.w, "\n%d director%s, %d file%s\n", t.dirs, map[bool]string{true: "y", false: "ies"}[t.dirs == 1], t.files, plural(t.files))
		}
	}
	return status
}

func (t *treeWalk) walk(full, shown, indent string, level int) {
	if t.maxLevel > 0 && level > t.maxLevel {
		return
	}
	entries, err := os.ReadDir(full)
	if err != nil {
		return
	}
	var kept []fs.DirEntry
	for _, e := range entries {
		if !t.excluded(e.Name(), t.isDir(full, e)) {
			kept = append(kept, e)
		}
	}
	if t.dirsFirst {
		sort.SliceStable(kept, func(i, j int) bool { return t.isDir(full, kept[i]) && !t.isDir(full, kept[j]) })
	}
	for i, e := range kept {
		last := i == len(kept)-1
		branch, next := t.lines[0], t.lines[2]
		if last {
			branch, next = t.lines[1], t.lines[3]
		}
		p := filepath.Join(full, e.Name())
		name := e.Name()
		if t.full {
			name = path.Join(shown, e.Name())
		}
		isDir := t.isDir(full, e)
		if e.Type()&fs.ModeSymlink != 0 {
			if target, err := os.Readlink(p); err == nil {
				name += " -> " + target
			}
		} else if t.classify && isDir {
			name += "/"
		}
		fmt.Fprintln(t.w, indent+branch+name)
		if isDir {
			t.dirs++
			if e.Type()&fs.ModeSymlink == 0 {
				t.walk(p, path.Join(shown, e.Name()), indent+next, level+1)
			}
		} else {
			t.files++
		}
	}
}

// utf8Locale reports whether the shell's locale (LC_ALL, else LC_CTYPE,
// else LANG) uses UTF-8, which is when tree draws with box characters.
func utf8Locale(c *cmd) bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if l := c.hc.Env.Get(v).String(); l != "" {
			l = strings.ToLower(l)
			return strings.Contains(l, "utf-8") || strings.Contains(l, "utf8")
		}
	}
	return false
}

func (t *treeWalk) isDir(dir string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink != 0 {
		fi, err := os.Stat(filepath.Join(dir, e.Name()))
		return err == nil && fi.IsDir()
	}
	return false
}

// hexdump supports the canonical -C layout (the one agents ask for), with
// -n LENGTH and -s OFFSET; without -C it prints two-byte words as od -x.
func hexdump(c *cmd, args []string) int {
	o, err := flagSpec{short: "Cn:s:vx", permute: true, long: map[string]string{"canonical": "C", "length=": "n", "skip=": "s"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	data, st := c.readInputBytes(o.args)
	data, skip, err := window(data, o, "s", "n")
	if err != nil {
		return c.fail("%v", err)
	}
	w := c.bufOut()
	defer w.Flush()
	if !o.has("C") {
		t, _ := parseODType("x2")
		odDump(w, data, skip, t, 'x', 16, o.has("v"))
		return st
	}
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(off+16, len(data))]
		if !o.has("v") && prev != nil && len(line) == 16 && string(line) == string(prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			continue
		}
		prev, starred = line, false
		var hexPart strings.Builder
		for i := range 16 {
			if i == 8 {
				hexPart.WriteByte(' ')
			}
			if i < len(line) {
				fmt.Fprintf(&hexPart, "%02x ", line[i])
			} else {
				hexPart.WriteString("   ")
			}
		}
		fmt.Fprintf(w, "%08x  %s |%s|\n", skip+int64(off), hexPart.String(), printable(line))
	}
	if len(data) > 0 || skip > 0 {
		fmt.Fprintf(w, "%08x\n", skip+int64(len(data)))
	}
	return st
}

// stringsCmd prints the runs of at least -n (4) printable characters.
func stringsCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:at:", numeric: "n", permute: true, long: map[string]string{"bytes=": "n", "all": "a", "radix=": "t"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	minLen := 4
	if v := o.val("n"); v != "" {
		if minLen, err = strconv.Atoi(v); err != nil || minLen < 1 {
			return c.fail("invalid minimum string length %s", v)
		}
	}
	data, st := c.readInputBytes(o.args)
	w := c.bufOut()
	defer w.Flush()
	start := -1
	for i := 0; i <= len(data); i++ {
		if i < len(data) && (data[i] >= 32 && data[i] < 127 || data[i] == '\t') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minLen {
			switch o.val("t") {
			case "d":
				fmt.Fprintf(w, "%7d ", start)
			case "x":
				fmt.Fprintf(w, "%7x ", start)
			case "o":
				fmt.Fprintf(w, "%7o ", start)
			}
			w.Write(data[start:i])
			w.WriteByte('\n')
		}
		start = -1
	}
	return st
}
