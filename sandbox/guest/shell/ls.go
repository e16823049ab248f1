package shell

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var lsSpec = flagSpec{short: "laA1RrtShdFGpmQixCnoguUXvcsLBI:N", permute: true, long: map[string]string{
	"all": "a", "almost-all": "A", "human-readable": "h", "reverse": "r", "recursive": "R", "directory": "d",
	"classify": "F", "inode": "i", "numeric-uid-gid": "n", "no-group": "G", "size": "s", "dereference": "L",
	"ignore-backups": "B", "ignore=": "I", "literal": "N", "quote-name": "Q",
	"group-directories-first": "dirsfirst", "full-time": "full-time",
	"color": "color", "colour": "color", // accepted and ignored: the output is never a terminal
}}

func ls(c *cmd, args []string) int {
	o, err := lsSpec.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if o.has("n") || o.has("o") || o.has("g") || o.has("full-time") {
		o.set["l"] = true
	}
	names := o.args
	if len(names) == 0 {
		names = []string{"."}
	}
	var files []fs.FileInfo
	var dirs []string
	status := 0
	stat := os.Lstat
	if o.has("L") {
		stat = os.Stat
	}
	for _, n := range names {
		fi, err := stat(c.path(n))
		if err != nil {
			c.fail("cannot access '%s': %s", n, errText(err))
			status = 2
			continue
		}
		if fi.IsDir() && !o.has("d") {
			dirs = append(dirs, n)
		} else {
			files = append(files, renamed{fi, n})
		}
	}
	sort.Strings(dirs)
	if o.has("r") {
		sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	}
	if len(files) > 0 {
		c.lsPrint(o, "", files)
	}
	header := len(names) > 1 || o.has("R")
	for i, d := range dirs {
		if len(files) > 0 || i > 0 {
			fmt.Fprintln(c.stdout)
		}
		if st := c.lsDir(o, d, header); st != 0 {
			status = st
		}
	}
	return status
}

// renamed shows a FileInfo under the name the user typed.
type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// entryInfo lists a directory entry without the stat behind a full
// FileInfo; a plain ls needs only names and types. The other fields are
// looked up on demand.
type entryInfo struct{ fs.DirEntry }

func (e entryInfo) info() fs.FileInfo {
	if fi, err := e.Info(); err == nil {
		return fi
	}
	return noInfo{}
}

// noInfo stands in for an entry that vanished before it was looked up.
type noInfo struct{}

func (noInfo) Name() string       { return "" }
func (noInfo) Size() int64        { return 0 }
func (noInfo) Mode() fs.FileMode  { return 0 }
func (noInfo) ModTime() time.Time { return time.Time{} }
func (noInfo) IsDir() bool        { return false }
func (noInfo) Sys() any           { return nil }

func (e entryInfo) Size() int64        { return e.info().Size() }
func (e entryInfo) Mode() fs.FileMode  { return e.info().Mode() }
func (e entryInfo) ModTime() time.Time { return e.info().ModTime() }
func (e entryInfo) Sys() any           { return nil }

// lsHidden reports whether an entry is left out: dot files without -a/-A,
// backups with -B, names matching -I.
func lsHidden(o *opts, name string) bool {
	if strings.HasPrefix(name, ".") && !o.has("a") && !o.has("A") {
		return true
	}
	if o.has("B") && strings.HasSuffix(name, "~") {
		return true
	}
	for _, p := range o.vals["I"] {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

func (c *cmd) lsDir(o *opts, d string, header bool) int {
	entries, err := os.ReadDir(c.path(d))
	if err != nil {
		return c.fail("cannot open directory '%s': %s", d, errText(err))
	}
	if header {
		fmt.Fprintf(c.stdout, "%s:\n", d)
	}
	var infos []fs.FileInfo
	if o.has("a") {
		self, err := os.Stat(c.path(d))
		if err == nil {
			infos = append(infos, renamed{self, "."})
			// At a mount's root the parent lies outside the sandbox: show
			// the directory itself for it rather than leave ".." out.
			parent, err := os.Stat(filepath.Join(c.path(d), ".."))
			if err != nil {
				parent = self
			}
			infos = append(infos, renamed{parent, ".."})
		}
	}
	needInfo := o.has("l") || o.has("t") || o.has("S") || o.has("s") || o.has("i") || o.has("c") || o.has("u")
	for _, e := range entries {
		if lsHidden(o, e.Name()) {
			continue
		}
		if !needInfo {
			infos = append(infos, entryInfo{e})
		} else if fi, err := e.Info(); err == nil {
			infos = append(infos, fi)
		}
	}
	if o.has("l") || o.has("s") {
		var blocks int64
		for _, fi := range infos {
			blocks += int64(statOf(fi).blocks+1) / 2
		}
		if o.has("h") {
			fmt.Fprintf(c.stdout, "total %s\n", duHuman(blocks*1024))
		} else {
			fmt.Fprintf(c.stdout, "total %d\n", blocks)
		}
	}
	c.lsPrint(o, d, infos)
	if !o.has("R") {
		return 0
	}
	status := 0
	for _, fi := range sortInfos(o, infos) {
		if fi.IsDir() && fi.Name() != "." && fi.Name() != ".." {
			fmt.Fprintln(c.stdout)
			if st := c.lsDir(o, path.Join(d, fi.Name()), true); st != 0 {
				status = st
			}
		}
	}
	return status
}

func sortInfos(o *opts, infos []fs.FileInfo) []fs.FileInfo {
	out := append([]fs.FileInfo(nil), infos...)
	if o.has("U") {
		return out
	}
	ext := func(n string) string {
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			return n[i:]
		}
		return ""
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case (o.has("t") || o.has("c") || o.has("u")) && !a.ModTime().Equal(b.ModTime()):
			return a.ModTime().After(b.ModTime())
		case o.has("S") && a.Size() != b.Size():
			return a.Size() > b.Size()
		case o.has("X") && ext(a.Name()) != ext(b.Name()):
			return ext(a.Name()) < ext(b.Name())
		case o.has("v"):
			return versionCompare(a.Name(), b.Name()) < 0
		}
		return a.Name() < b.Name()
	})
	if o.has("r") {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	if o.has("dirsfirst") {
		sort.SliceStable(out, func(i, j int) bool { return out[i].IsDir() && !out[j].IsDir() })
	}
	return out
}

// lsName is an entry's name as ls prints it: quoted with -Q, with its
// type mark with -F (/ * @ | =) or -p (/ only).
func lsName(o *opts, fi fs.FileInfo) string {
	name := fi.Name()
	if o.has("Q") {
		name = strconv.Quote(name)
	}
	m := fi.Mode()
	switch {
	case o.has("F") && m.IsDir(), o.has("p") && m.IsDir():
		name += "/"
	case !o.has("F"):
	case m&fs.ModeSymlink != 0 && !o.has("l"):
		name += "@"
	case m&fs.ModeNamedPipe != 0:
		name += "|"
	case m&fs.ModeSocket != 0:
		name += "="
	case m.IsRegular() && m.Perm()&0o111 != 0:
		name += "*"
	}
	return name
}

func (c *cmd) lsPrint(o *opts, dir string, infos []fs.FileInfo) {
	sorted := sortInfos(o, infos)
	if o.has("l") {
		c.lsLong(o, dir, sorted)
		return
	}
	names := make([]string, len(sorted))
	for i, fi := range sorted {
		names[i] = lsName(o, fi)
		if o.has("s") {
			names[i] = strconv.FormatUint((statOf(fi).blocks+1)/2, 10) + " " + names[i]
		}
		if o.has("i") {
			names[i] = strconv.FormatUint(statOf(fi).ino, 10) + " " + names[i]
		}
	}
	switch {
	case o.has("m"):
		fmt.Fprintln(c.stdout, strings.Join(names, ", "))
	case (o.has("C") || o.has("x")) && !o.has("1"):
		lsColumns(c, names, o.has("x"))
	default:
		for _, n := range names {
			fmt.Fprintln(c.stdout, n)
		}
	}
}

// lsColumns prints names in columns two spaces apart within 80 columns,
// down then across (across then down with -x), as ls -C/-x does.
func lsColumns(c *cmd, names []string, across bool) {
	if len(names) == 0 {
		return
	}
	width := 80
	for cols := len(names); cols >= 1; cols-- {
		rows := (len(names) + cols - 1) / cols
		widths := make([]int, cols)
		for i, n := range names {
			col := i / rows
			if across {
				col = i % cols
			}
			widths[col] = max(widths[col], utf8.RuneCountInString(n))
		}
		total := 0
		for _, w := range widths {
			total += w + 2
		}
		if total-2 > width && cols > 1 {
			continue
		}
		for r := range rows {
			var line strings.Builder
			pos := 0
			for col := range cols {
				i := col*rows + r
				if across {
					i = r*cols + col
				}
				if i >= len(names) {
					break
				}
				next := i + rows
				if across {
					next = i + 1
				}
				line.WriteString(names[i])
				end := pos + utf8.RuneCountInString(names[i])
				if col < cols-1 && next < len(names) && (!across || col+1 < cols) {
					to := pos + widths[col] + 2
					lsIndent(&line, end, to)
					end = to
				}
				pos = end
			}
			fmt.Fprintln(c.stdout, line.String())
		}
		return
	}
}

// lsIndent pads from column from to column to as GNU ls does with its
// default tab size of 8: a tab wherever one fits, spaces otherwise.
func lsIndent(b *strings.Builder, from, to int) {
	for from < to {
		if to/8 > (from+1)/8 {
			b.WriteByte('\t')
			from += 8 - from%8
		} else {
			b.WriteByte(' ')
			from++
		}
	}
}

// lsLong prints the -l form: GNU right-aligns links and sizes and
// left-aligns owner and group, each column as wide as its widest entry.
func (c *cmd) lsLong(o *opts, dir string, sorted []fs.FileInfo) {
	rows := make([][6]string, len(sorted))
	var widths [6]int
	for i, fi := range sorted {
		st := statOf(fi)
		size := strconv.FormatInt(fi.Size(), 10)
		if o.has("h") {
			size = duHuman(fi.Size())
		}
		owner, group := ownerName(c, st), groupName(c, st)
		if o.has("n") {
			owner, group = strconv.Itoa(int(st.uid)), strconv.Itoa(int(st.gid))
		}
		inode := ""
		if o.has("i") {
			inode = strconv.FormatUint(st.ino, 10)
		}
		rows[i] = [6]string{inode, modeString(fi.Mode()), strconv.FormatUint(st.nlink, 10), owner, group, size}
		for j, f := range rows[i] {
			widths[j] = max(widths[j], len(f))
		}
	}
	for i, fi := range sorted {
		name := lsName(o, fi)
		if fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(c.path(path.Join(dir, fi.Name()))); err == nil {
				name += " -> " + t
			}
		}
		r := rows[i]
		var b strings.Builder
		if o.has("i") {
			fmt.Fprintf(&b, "%*s ", widths[0], r[0])
		}
		fmt.Fprintf(&b, "%s %*s ", r[1], widths[2], r[2])
		if !o.has("g") {
			fmt.Fprintf(&b, "%-*s ", widths[3], r[3])
		}
		if !o.has("o") && !o.has("G") {
			fmt.Fprintf(&b, "%-*s ", widths[4], r[4])
		}
		when := lsTime(fi.ModTime())
		if o.has("full-time") {
			when = statTime(fi.ModTime())
		}
		fmt.Fprintf(&b, "%*s %s %s", widths[5], r[5], when, name)
		fmt.Fprintln(c.stdout, b.String())
	}
}

func lsTime(t time.Time) string {
	if time.Since(t) > 180*24*time.Hour || time.Until(t) > time.Hour {
		return t.Format("Jan _2  2006")
	}
	return t.Format("Jan _2 15:04")
}
