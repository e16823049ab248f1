package shell

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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

// openWrite opens p for writing, truncating unless appending. The
// devices are served in memory (devices.go): the guest has no /dev, and
// writes to them must never reach a real file.
func openWrite(p string, appending bool) (io.WriteCloser, error) {
	if d, ok := openDevice(p); ok {
		return d, nil
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	return os.OpenFile(p, flag, 0o644)
}

func mkdir(c *cmd, args []string) int {
	o, err := flagSpec{short: "pvm:", permute: true, long: map[string]string{"parents": "p", "verbose": "v", "mode=": "m"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(fmt.Errorf("missing operand"))
	}
	status := 0
	created := func(d string) {
		if o.has("v") {
			fmt.Fprintf(c.stdout, "mkdir: created directory '%s'\n", d)
		}
	}
	for _, d := range o.args {
		if !o.has("p") {
			if err := os.Mkdir(c.path(d), 0o755); err != nil {
				status = c.fail("cannot create directory '%s': %s", d, errText(err))
				continue
			}
			created(d)
			continue
		}
		// create each missing component, naming it as typed
		parts := strings.Split(strings.TrimRight(d, "/"), "/")
		for i := range parts {
			prefix := strings.Join(parts[:i+1], "/")
			if prefix == "" {
				continue
			}
			if fi, err := os.Stat(c.path(prefix)); err == nil && fi.IsDir() {
				continue
			}
			if err := os.Mkdir(c.path(prefix), 0o755); err != nil && !os.IsExist(err) {
				status = c.fail("cannot create directory '%s': %s", prefix, errText(err))
				break
			}
			created(prefix)
		}
	}
	return status
}

func rm(c *cmd, args []string) int {
	o, err := flagSpec{short: "rRfdvI", permute: true, long: map[string]string{"recursive": "r", "force": "f", "dir": "d", "verbose": "v"}}.parse(args)
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
		var report func(shown string, dir bool)
		if o.has("v") {
			report = func(shown string, dir bool) {
				if dir {
					fmt.Fprintf(c.stdout, "removed directory '%s'\n", shown)
				} else {
					fmt.Fprintf(c.stdout, "removed '%s'\n", shown)
				}
			}
		}
		if recursive {
			err = removeTree(p, n, report)
		} else if err = os.Remove(p); err == nil && report != nil {
			report(n, fi.IsDir())
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

// shownDest is where src lands as the user would name it: inside dst
// when dst is a directory.
func (c *cmd) shownDest(src, dst string) string {
	if fi, err := os.Stat(c.path(dst)); err == nil && fi.IsDir() {
		return path.Join(dst, path.Base(strings.TrimRight(src, "/")))
	}
	return dst
}

// copyOptions are the cp flags copyTree honours.
type copyOptions struct {
	preserve, noClobber bool
	report              func(from, to string) // -v
}

func cp(c *cmd, args []string) int {
	o, err := flagSpec{short: "rRfapvnuLPdT", permute: true, long: map[string]string{
		"recursive": "r", "archive": "a", "force": "f", "verbose": "v", "no-clobber": "n", "update": "u", "preserve": "p", "no-target-directory": "T",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) < 2 {
		return c.usage(fmt.Errorf("missing destination file operand"))
	}
	srcs, dst := o.args[:len(o.args)-1], o.args[len(o.args)-1]
	recursive := o.has("r") || o.has("R") || o.has("a")
	opt := copyOptions{preserve: o.has("p") || o.has("a"), noClobber: o.has("n")}
	if o.has("v") {
		opt.report = func(from, to string) { fmt.Fprintf(c.stdout, "'%s' -> '%s'\n", from, to) }
	}
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
		if err := copyTree(c.path(s), to, s, c.shownDest(s, dst), opt); err != nil {
			status = c.fail("cannot copy '%s': %s", s, errText(err))
		}
	}
	return status
}

// copyTree copies src to dst (full paths); shownSrc and shownDst are the
// names -v prints.
func copyTree(src, dst, shownSrc, shownDst string, opt copyOptions) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if opt.noClobber && rel != "." || opt.noClobber && !d.IsDir() {
			if _, err := os.Lstat(to); err == nil && !d.IsDir() {
				return nil
			}
		}
		if opt.report != nil {
			opt.report(path.Join(shownSrc, filepath.ToSlash(rel)), path.Join(shownDst, filepath.ToSlash(rel)))
		}
		switch {
		case d.IsDir():
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, to)
		default:
			if err := copyFile(p, to); err != nil {
				return err
			}
		}
		if opt.preserve {
			if fi, err := d.Info(); err == nil {
				if chmodSupported {
					os.Chmod(to, fi.Mode().Perm())
				}
				os.Chtimes(to, fi.ModTime(), fi.ModTime())
			}
		}
		return nil
	})
}

func mv(c *cmd, args []string) int {
	o, err := flagSpec{short: "fivnuT", permute: true, long: map[string]string{"force": "f", "verbose": "v", "no-clobber": "n", "no-target-directory": "T"}}.parse(args)
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
		if _, err := os.Lstat(to); err == nil && o.has("n") {
			continue
		}
		shown := c.shownDest(s, dst)
		if err := os.Rename(c.path(s), to); err != nil {
			status = c.fail("cannot move '%s': %s", s, errText(err))
			continue
		}
		if o.has("v") {
			fmt.Fprintf(c.stdout, "renamed '%s' -> '%s'\n", s, shown)
		}
	}
	return status
}

func touch(c *cmd, args []string) int {
	o, err := flagSpec{short: "camd:t:r:h", permute: true, long: map[string]string{
		"no-create": "c", "date=": "d", "reference=": "r", "time=": "time", "no-dereference": "h",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	when := time.Now()
	switch {
	case o.has("d"):
		if when, err = parseDate(o.val("d"), when, time.Local); err != nil {
			return c.fail("invalid date format '%s'", o.val("d"))
		}
	case o.has("t"):
		if when, err = touchStamp(o.val("t")); err != nil {
			return c.fail("invalid date format '%s'", o.val("t"))
		}
	case o.has("r"):
		fi, err := os.Stat(c.path(o.val("r")))
		if err != nil {
			return c.fail("failed to get attributes of '%s': %s", o.val("r"), errText(err))
		}
		when = fi.ModTime()
	}
	status := 0
	for _, n := range o.args {
		p := c.path(n)
		fi, err := os.Stat(p)
		if os.IsNotExist(err) {
			if o.has("c") {
				continue
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				status = c.fail("cannot touch '%s': %s", n, errText(err))
				continue
			}
			f.Close()
			fi, _ = os.Stat(p)
		}
		atime, mtime := when, when
		if fi != nil && o.has("a") && !o.has("m") {
			mtime = fi.ModTime()
		}
		if err := os.Chtimes(p, atime, mtime); err != nil {
			status = c.fail("setting times of '%s': %s", n, errText(err))
		}
	}
	return status
}

// touchStamp reads touch -t's [[CC]YY]MMDDhhmm[.ss].
func touchStamp(s string) (time.Time, error) {
	main, sec, _ := strings.Cut(s, ".")
	layouts := map[int]string{8: "01021504", 10: "0601021504", 12: "200601021504"}
	layout, ok := layouts[len(main)]
	if !ok {
		return time.Time{}, fmt.Errorf("bad stamp")
	}
	if sec != "" {
		layout, main = layout+".05", main+"."+sec
	}
	t, err := time.ParseInLocation(layout, main, time.Local)
	if err == nil && len(s) >= 8 && len(strings.Split(s, ".")[0]) == 8 {
		t = t.AddDate(time.Now().Year(), 0, 0)
	}
	return t, err
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
	if o.has("v") {
		fmt.Fprintf(c.stdout, "'%s' -> '%s'\n", c.shownDest(target, o.args[1]), target)
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
