package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var fileInfoCommands = map[string]builtinFunc{
	"stat":     statCmd,
	"du":       du,
	"realpath": realpath,
	"readlink": readlink,
	"mktemp":   mktemp,
	"truncate": truncateCmd,
	"rmdir":    rmdir,
	"chmod":    chmod,
	"whoami":   whoami,
}

// estimateBlocks guesses allocated 512-byte blocks where the platform does
// not say: whole 4 KiB pages, one for a directory.
func estimateBlocks(fi fs.FileInfo) uint64 {
	if fi.IsDir() {
		return 8
	}
	return uint64((fi.Size()+4095)/4096) * 8
}

// sandboxUser is the name the sandbox shows for the user: $USER, else
// $LOGNAME, else "user".
func sandboxUser(c *cmd) string {
	for _, v := range []string{"USER", "LOGNAME"} {
		if u := c.hc.Env.Get(v).String(); u != "" {
			return u
		}
	}
	return "user"
}

func whoami(c *cmd, _ []string) int {
	fmt.Fprintln(c.stdout, sandboxUser(c))
	return 0
}

// fileKind names a file's type as stat %F does.
func fileKind(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsRegular() && fi.Size() == 0:
		return "regular empty file"
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	}
	return "weird file"
}

// modeString is the ls/stat form of a mode: drwxr-xr-x.
func modeString(m fs.FileMode) string {
	s := []byte(m.Perm().String()) // -rwxr-xr-x
	switch {
	case m.IsDir():
		s[0] = 'd'
	case m&fs.ModeSymlink != 0:
		s[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		s[0] = 'p'
	case m&fs.ModeSocket != 0:
		s[0] = 's'
	case m&fs.ModeCharDevice != 0:
		s[0] = 'c'
	case m&fs.ModeDevice != 0:
		s[0] = 'b'
	}
	special := func(bit fs.FileMode, i int, set, noExec byte) {
		if m&bit != 0 {
			if s[i] == 'x' {
				s[i] = set
			} else {
				s[i] = noExec
			}
		}
	}
	special(fs.ModeSetuid, 3, 's', 'S')
	special(fs.ModeSetgid, 6, 's', 'S')
	special(fs.ModeSticky, 9, 't', 'T')
	return string(s)
}

// unixPerm is the octal permission word of m, special bits included.
func unixPerm(m fs.FileMode) uint32 {
	p := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		p |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		p |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		p |= 0o1000
	}
	return p
}

func statTime(t time.Time) string { return t.Format("2006-01-02 15:04:05.000000000 -0700") }

func statCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "c:Lt", permute: true, long: map[string]string{"format=": "c", "printf=": "printf", "dereference": "L", "terse": "t"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("missing operand"))
	}
	status := 0
	for _, n := range o.args {
		var fi fs.FileInfo
		if o.has("L") {
			fi, err = os.Stat(c.path(n))
		} else {
			fi, err = os.Lstat(c.path(n))
		}
		if err != nil {
			status = c.fail("cannot statx '%s': %s", n, errText(err))
			continue
		}
		switch {
		case o.has("c"):
			fmt.Fprintln(c.stdout, c.statFormat(o.val("c"), n, fi))
		case o.has("printf"):
			fmt.Fprint(c.stdout, c.statFormat(unescapePrintf(o.val("printf")), n, fi))
		default:
			c.statLong(n, fi)
		}
	}
	return status
}

func (c *cmd) statLong(n string, fi fs.FileInfo) {
	st := statOf(fi)
	name := n
	if fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(c.path(n)); err == nil {
			name += " -> " + t
		}
	}
	fmt.Fprintf(c.stdout, "  File: %s\n  Size: %-10d\tBlocks: %-10d IO Block: 4096   %s\n", name, fi.Size(), st.blocks, fileKind(fi))
	fmt.Fprintf(c.stdout, "Device: 0,0\tInode: %-11d Links: %d\n", st.ino, st.nlink)
	fmt.Fprintf(c.stdout, "Access: (%04o/%s)  Uid: (%5d/%8s)   Gid: (%5d/%8s)\n", unixPerm(fi.Mode()), modeString(fi.Mode()), st.uid, ownerName(c, st), st.gid, groupName(c, st))
	t := statTime(fi.ModTime())
	fmt.Fprintf(c.stdout, "Access: %s\nModify: %s\nChange: %s\n Birth: -\n", t, t, t)
}

// statFormat expands stat's %-directives for one file.
func (c *cmd) statFormat(format, n string, fi fs.FileInfo) string {
	st := statOf(fi)
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch format[i] {
		case 'n':
			b.WriteString(n)
		case 'N':
			b.WriteString("'" + n + "'")
			if fi.Mode()&fs.ModeSymlink != 0 {
				if t, err := os.Readlink(c.path(n)); err == nil {
					b.WriteString(" -> '" + t + "'")
				}
			}
		case 's':
			b.WriteString(strconv.FormatInt(fi.Size(), 10))
		case 'a':
			b.WriteString(strconv.FormatUint(uint64(unixPerm(fi.Mode())), 8))
		case 'A':
			b.WriteString(modeString(fi.Mode()))
		case 'F':
			b.WriteString(fileKind(fi))
		case 'U':
			b.WriteString(ownerName(c, st))
		case 'G':
			b.WriteString(groupName(c, st))
		case 'u':
			b.WriteString(strconv.Itoa(int(st.uid)))
		case 'g':
			b.WriteString(strconv.Itoa(int(st.gid)))
		case 'h':
			b.WriteString(strconv.FormatUint(st.nlink, 10))
		case 'i':
			b.WriteString(strconv.FormatUint(st.ino, 10))
		case 'b':
			b.WriteString(strconv.FormatUint(st.blocks, 10))
		case 'B':
			b.WriteString("512")
		case 'o':
			b.WriteString("4096")
		case 'Y', 'X', 'Z':
			b.WriteString(strconv.FormatInt(fi.ModTime().Unix(), 10))
		case 'y', 'x', 'z':
			b.WriteString(statTime(fi.ModTime()))
		case 'W':
			b.WriteString("0")
		case 'w':
			b.WriteString("-")
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// unescapePrintf expands the backslash escapes of stat --printf.
func unescapePrintf(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\"`, `"`).Replace(s)
}

// du prints disk usage in KiB blocks (allocated space where the platform
// reports it, whole 4 KiB pages otherwise).
func du(c *cmd, args []string) int {
	o, err := flagSpec{short: "ashckbmd:x", permute: true, long: map[string]string{
		"all": "a", "summarize": "s", "human-readable": "h", "total": "c", "bytes": "b", "max-depth=": "d", "apparent-size": "A",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	maxDepth := -1
	if o.has("s") {
		maxDepth = 0
	}
	if v := o.val("d"); v != "" {
		if maxDepth, err = strconv.Atoi(v); err != nil {
			return c.fail("invalid maximum depth '%s'", v)
		}
	}
	names := o.args
	if len(names) == 0 {
		names = []string{"."}
	}
	show := func(n int64, name string) {
		var s string
		switch {
		case o.has("h"):
			s = duHuman(n)
		case o.has("b"):
			s = strconv.FormatInt(n, 10)
		case o.has("m"):
			s = strconv.FormatInt((n+1<<20-1)>>20, 10)
		default:
			s = strconv.FormatInt((n+1023)/1024, 10)
		}
		fmt.Fprintf(c.stdout, "%s\t%s\n", s, name)
	}
	apparent := o.has("b") || o.has("A")
	size := func(fi fs.FileInfo) int64 {
		if apparent {
			if fi.IsDir() {
				return 0
			}
			return fi.Size()
		}
		return int64(statOf(fi).blocks) * 512
	}
	status := 0
	var total int64
	for _, root := range names {
		var walk func(p, shown string, depth int) int64
		walk = func(p, shown string, depth int) int64 {
			fi, err := os.Lstat(p)
			if err != nil {
				status = c.fail("cannot access '%s': %s", shown, errText(err))
				return 0
			}
			sum := size(fi)
			if fi.IsDir() {
				entries, err := os.ReadDir(p)
				if err != nil {
					status = c.fail("cannot read directory '%s': %s", shown, errText(err))
				}
				for _, e := range entries {
					sum += walk(filepath.Join(p, e.Name()), strings.TrimSuffix(shown, "/")+"/"+e.Name(), depth+1)
				}
			}
			if (fi.IsDir() || o.has("a") || depth == 0) && (maxDepth < 0 || depth <= maxDepth) {
				show(sum, shown)
			}
			return sum
		}
		total += walk(c.path(root), root, 0)
	}
	if o.has("c") {
		show(total, "total")
	}
	return status
}

// duHuman formats bytes as du -h does: one decimal below 10, rounding up.
func duHuman(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	f := float64(n)
	units := "KMGTPE"
	i := -1
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if f < 10 {
		x := float64(int64(f*10+0.9999)) / 10
		if x < 10 {
			return fmt.Sprintf("%.1f%c", x, units[i])
		}
		f = x
	}
	return fmt.Sprintf("%d%c", int64(f+0.9999), units[i])
}

func truncateCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "s:cor:", permute: true, long: map[string]string{"size=": "s", "no-create": "c", "reference=": "r"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	spec := o.val("s")
	if spec == "" && !o.has("r") {
		return c.usage(errors.New("you must specify either '--size' or '--reference'"))
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("missing file operand"))
	}
	op := byte(0)
	if spec != "" && strings.IndexByte("+-<>/%", spec[0]) >= 0 {
		op, spec = spec[0], spec[1:]
	}
	var size int64
	if o.has("r") {
		fi, err := os.Stat(c.path(o.val("r")))
		if err != nil {
			return c.fail("cannot stat '%s': %s", o.val("r"), errText(err))
		}
		size = fi.Size()
	} else if size, err = parseSize(spec); err != nil {
		return c.fail("Invalid number: '%s'", o.val("s"))
	}
	status := 0
	for _, n := range o.args {
		p := c.path(n)
		fi, err := os.Stat(p)
		cur := int64(0)
		switch {
		case err == nil:
			cur = fi.Size()
		case os.IsNotExist(err) && o.has("c"):
			continue
		case os.IsNotExist(err):
		default:
			status = c.fail("cannot open '%s' for writing: %s", n, errText(err))
			continue
		}
		want := size
		switch op {
		case '+':
			want = cur + size
		case '-':
			want = max(cur-size, 0)
		case '<':
			want = min(cur, size)
		case '>':
			want = max(cur, size)
		case '/':
			if size > 0 {
				want = cur / size * size
			}
		case '%':
			if size > 0 {
				want = (cur + size - 1) / size * size
			}
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			err = f.Truncate(want)
			f.Close()
		}
		if err != nil {
			status = c.fail("cannot open '%s' for writing: %s", n, errText(err))
		}
	}
	return status
}

func rmdir(c *cmd, args []string) int {
	o, err := flagSpec{short: "pv", permute: true, long: map[string]string{"parents": "p", "ignore-fail-on-non-empty": "ignore", "verbose": "v"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("missing operand"))
	}
	status := 0
	remove := func(n string) bool {
		p := c.path(n)
		fi, err := os.Lstat(p)
		if err == nil && !fi.IsDir() {
			status = c.fail("failed to remove '%s': Not a directory", n)
			return false
		}
		if err == nil {
			if entries, rerr := os.ReadDir(p); rerr == nil && len(entries) > 0 {
				if !o.has("ignore") {
					status = c.fail("failed to remove '%s': Directory not empty", n)
				}
				return false
			}
			err = os.Remove(p)
		}
		if err != nil {
			status = c.fail("failed to remove '%s': %s", n, errText(err))
			return false
		}
		if o.has("v") {
			fmt.Fprintf(c.stdout, "rmdir: removing directory, '%s'\n", n)
		}
		return true
	}
	for _, n := range o.args {
		if !remove(n) || !o.has("p") {
			continue
		}
		for d := filepath.Dir(strings.TrimRight(n, "/")); d != "." && d != "/"; d = filepath.Dir(d) {
			if !remove(d) {
				break
			}
		}
	}
	return status
}

// removeTree deletes p and everything below it with at most one
// directory open at a time (os.RemoveAll keeps one open per level, which
// a deep tree turns into running out of file descriptors). report, when
// set, hears of each removal by the name shown (files before their
// directory, as rm -v prints them).
func removeTree(p, shown string, report func(shown string, dir bool)) error {
	fi, err := os.Lstat(p)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if fi.IsDir() {
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		var first error
		for _, e := range entries {
			if err := removeTree(filepath.Join(p, e.Name()), path.Join(shown, e.Name()), report); err != nil && first == nil {
				first = err
			}
		}
		if first != nil {
			return first
		}
	}
	if err := os.Remove(p); err != nil {
		return err
	}
	if report != nil {
		report(shown, fi.IsDir())
	}
	return nil
}
