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
