package shell

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

var fileCommands = map[string]builtinFunc{
	"ls":       ls,
	"mkdir":    mkdir,
	"rm":       rm,
	"cp":       cp,
	"mv":       mv,
	"touch":    touch,
	"ln":       ln,
	"basename": basename,
	"dirname":  dirname,
	"pwd":      pwd,
}

// openWrite opens p for writing, truncating unless appending. /dev/null
// is served in memory: the guest has no /dev, and writes to it must never
// reach a real file.
func openWrite(p string, appending bool) (io.WriteCloser, error) {
	if isDevNull(p) {
		return devNull{}, nil
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	return os.OpenFile(p, flag, 0o644)
}

func ls(c *cmd, args []string) int {
	o, err := flagSpec{short: "laA1RrtShdF", permute: true, long: map[string]string{"all": "a", "almost-all": "A"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	names := o.args
	if len(names) == 0 {
		names = []string{"."}
	}
	var files []string
	var dirs []string
	status := 0
	for _, n := range names {
		fi, err := os.Lstat(c.path(n))
		if err != nil {
			c.fail("cannot access '%s': %s", n, errText(err))
			status = 2
			continue
		}
		if fi.IsDir() && !o.has("d") {
			dirs = append(dirs, n)
		} else {
			files = append(files, n)
		}
	}
	if len(files) > 0 {
		var infos []fs.FileInfo
		for _, f := range files {
			fi, _ := os.Lstat(c.path(f))
			infos = append(infos, renamed{fi, f})
		}
		c.lsPrint(o, "", infos)
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
	needInfo := o.has("l") || o.has("t") || o.has("S")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && !o.has("a") && !o.has("A") {
			continue
		}
		if !needInfo {
			infos = append(infos, entryInfo{e})
		} else if fi, err := e.Info(); err == nil {
			infos = append(infos, fi)
		}
	}
	if o.has("l") {
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
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case o.has("t") && !a.ModTime().Equal(b.ModTime()):
			return a.ModTime().After(b.ModTime())
		case o.has("S") && a.Size() != b.Size():
			return a.Size() > b.Size()
		}
		return a.Name() < b.Name()
	})
	if o.has("r") {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

func (c *cmd) lsPrint(o *opts, dir string, infos []fs.FileInfo) {
	sorted := sortInfos(o, infos)
	if !o.has("l") {
		for _, fi := range sorted {
			name := fi.Name()
			if o.has("F") && fi.IsDir() {
				name += "/"
			}
			fmt.Fprintln(c.stdout, name)
		}
		return
	}
	// GNU ls -l right-aligns links and sizes and left-aligns owner and
	// group, each column as wide as its widest entry.
	rows := make([][5]string, len(sorted))
	var widths [5]int
	for i, fi := range sorted {
		st := statOf(fi)
		size := strconv.FormatInt(fi.Size(), 10)
		if o.has("h") {
			size = duHuman(fi.Size())
		}
		rows[i] = [5]string{modeString(fi.Mode()), strconv.FormatUint(st.nlink, 10), ownerName(c, st), groupName(c, st), size}
		for j, f := range rows[i] {
			widths[j] = max(widths[j], len(f))
		}
	}
	for i, fi := range sorted {
		name := fi.Name()
		if o.has("F") && fi.IsDir() {
			name += "/"
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(c.path(path.Join(dir, fi.Name()))); err == nil {
				name += " -> " + t
			}
		}
		r := rows[i]
		fmt.Fprintf(c.stdout, "%s %*s %-*s %-*s %*s %s %s\n", r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3], widths[4], r[4], lsTime(fi.ModTime()), name)
	}
}

func lsTime(t time.Time) string {
	if time.Since(t) > 180*24*time.Hour || time.Until(t) > time.Hour {
		return t.Format("Jan _2  2006")
	}
	return t.Format("Jan _2 15:04")
}

func mkdir(c *cmd, args []string) int {
	o, err := flagSpec{short: "pvm:", permute: true, long: map[string]string{"parents": "p"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(fmt.Errorf("missing operand"))
	}
	status := 0
	for _, d := range o.args {
		var err error
		if o.has("p") {
			err = os.MkdirAll(c.path(d), 0o755)
		} else {
			err = os.Mkdir(c.path(d), 0o755)
		}
		if err != nil {
			status = c.fail("cannot create directory '%s': %s", d, errText(err))
		}
	}
	return status
}

func rm(c *cmd, args []string) int {
	o, err := flagSpec{short: "rRfdv", permute: true, long: map[string]string{"recursive": "r", "force": "f"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 && !o.has("f") {
		return c.usage(fmt.Errorf("missing operand"))
	}
	recursive := o.has("r") || o.has("R")
	status := 0
	for _, n := range o.args {
		p := c.path(n)
		fi, err := os.Lstat(p)
		if err != nil {
			if !o.has("f") {
				status = c.fail("cannot remove '%s': %s", n, errText(err))
			}
			continue
		}
		if fi.IsDir() && !recursive && !o.has("d") {
			status = c.fail("cannot remove '%s': Is a directory", n)
			continue
		}
		if recursive {
			err = removeTree(p)
		} else {
			err = os.Remove(p)
		}
		if err != nil {
			status = c.fail("cannot remove '%s': %s", n, errText(err))
		}
	}
	return status
}

// destFor returns where src lands when copied or moved to dst: inside dst
// when dst is an existing directory.
func (c *cmd) destFor(src, dst string, many bool) (string, error) {
	d := c.path(dst)
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return filepath.Join(d, filepath.Base(c.path(src))), nil
	}
	if many {
		return "", fmt.Errorf("target '%s' is not a directory", dst)
	}
	return d, nil
}

func cp(c *cmd, args []string) int {
	o, err := flagSpec{short: "rRfapvn", permute: true, long: map[string]string{"recursive": "r"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) < 2 {
		return c.usage(fmt.Errorf("missing destination file operand"))
	}
	srcs, dst := o.args[:len(o.args)-1], o.args[len(o.args)-1]
	recursive := o.has("r") || o.has("R") || o.has("a")
	status := 0
	for _, s := range srcs {
		to, err := c.destFor(s, dst, len(srcs) > 1)
		if err != nil {
			return c.fail("%v", err)
		}
		fi, err := os.Stat(c.path(s))
		if err != nil {
			status = c.fail("cannot stat '%s': %s", s, errText(err))
			continue
		}
		if fi.IsDir() && !recursive {
			status = c.fail("-r not specified; omitting directory '%s'", s)
			continue
		}
		if err := copyTree(c.path(s), to); err != nil {
			status = c.fail("cannot copy '%s': %s", s, errText(err))
		}
	}
	return status
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, to)
		}
		return copyFile(p, to)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := openWrite(dst, false)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func mv(c *cmd, args []string) int {
	o, err := flagSpec{short: "fivn", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) < 2 {
		return c.usage(fmt.Errorf("missing destination file operand"))
	}
	srcs, dst := o.args[:len(o.args)-1], o.args[len(o.args)-1]
	status := 0
	for _, s := range srcs {
		to, err := c.destFor(s, dst, len(srcs) > 1)
		if err != nil {
			return c.fail("%v", err)
		}
		if err := os.Rename(c.path(s), to); err != nil {
			status = c.fail("cannot move '%s': %s", s, errText(err))
		}
	}
	return status
}

func touch(c *cmd, args []string) int {
	o, err := flagSpec{short: "cam", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	now := time.Now()
	status := 0
	for _, n := range o.args {
		p := c.path(n)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if o.has("c") {
				continue
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				status = c.fail("cannot touch '%s': %s", n, errText(err))
				continue
			}
			f.Close()
			continue
		}
		if err := os.Chtimes(p, now, now); err != nil {
			status = c.fail("setting times of '%s': %s", n, errText(err))
		}
	}
	return status
}

func ln(c *cmd, args []string) int {
	o, err := flagSpec{short: "sfnv", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) != 2 {
		return c.usage(fmt.Errorf("expected a target and a link name"))
	}
	target, link := o.args[0], c.path(o.args[1])
	if fi, err := os.Stat(link); err == nil && fi.IsDir() && !o.has("n") {
		link = filepath.Join(link, filepath.Base(target))
	}
	if o.has("f") {
		os.Remove(link)
	}
	if o.has("s") {
		err = os.Symlink(target, link)
	} else {
		err = os.Link(c.path(target), link)
	}
	if err != nil {
		return c.fail("failed to create link '%s': %s", o.args[1], errText(err))
	}
	return 0
}

func basename(c *cmd, args []string) int {
	o, err := flagSpec{short: "as:z", permute: true, long: map[string]string{"multiple": "a", "suffix=": "s", "zero": "z"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(fmt.Errorf("missing operand"))
	}
	names, suffix := o.args, o.val("s")
	if !o.has("a") && !o.has("s") {
		if len(names) > 2 {
			return c.usage(fmt.Errorf("extra operand '%s'", names[2]))
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	end := "\n"
	if o.has("z") {
		end = "\x00"
	}
	for _, n := range names {
		b := path.Base(n)
		if suffix != "" && b != suffix {
			b = strings.TrimSuffix(b, suffix)
		}
		fmt.Fprint(c.stdout, b+end)
	}
	return 0
}

func dirname(c *cmd, args []string) int {
	if len(args) == 0 {
		return c.usage(fmt.Errorf("missing operand"))
	}
	for _, a := range args {
		fmt.Fprintln(c.stdout, path.Dir(a))
	}
	return 0
}

func pwd(c *cmd, _ []string) int {
	fmt.Fprintln(c.stdout, c.dir)
	return 0
}
