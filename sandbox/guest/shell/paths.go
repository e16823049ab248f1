package shell

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// canonical resolves every symlink in the absolute path p; mode 'f' (the
// default of realpath) needs all but the last component to exist, 'e' all
// of them, 'm' none. It walks the components itself rather than use
// filepath.EvalSymlinks: in the sandbox a mount can sit below directories
// that are not visible (a workspace under /tmp/x/y), and a prefix that
// cannot be looked up while the whole path can is one of those.
func canonical(p string, mode byte) (string, error) {
	rest := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for hops := 0; len(rest) > 0; {
		comp := rest[0]
		rest = rest[1:]
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, comp)
		fi, err := os.Lstat(next)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			if hops++; hops > 40 {
				return "", &os.PathError{Op: "readlink", Path: p, Err: errors.New("Too many levels of symbolic links")}
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if filepath.IsAbs(target) {
				cur = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		case err == nil:
		case len(rest) > 0 && existsPath(filepath.Join(append([]string{next}, rest...)...)):
			// a directory above a mount
		case mode == 'm', mode == 'f' && len(rest) == 0 && !os.IsPermission(err):
		default:
			return "", err
		}
		cur = next
	}
	return cur, nil
}

func existsPath(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func realpath(c *cmd, args []string) int {
	o, err := flagSpec{short: "emsqzL", permute: true, long: map[string]string{
		"canonicalize-existing": "e", "canonicalize-missing": "m", "no-symlinks": "s", "strip": "s", "quiet": "q",
		"relative-to=": "relative-to", "zero": "z",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("missing operand"))
	}
	mode := byte('f')
	switch {
	case o.has("e"):
		mode = 'e'
	case o.has("m"):
		mode = 'm'
	}
	end := "\n"
	if o.has("z") {
		end = "\x00"
	}
	status := 0
	for _, n := range o.args {
		p := c.path(n)
		if !o.has("s") {
			if p, err = canonical(p, mode); err != nil {
				if !o.has("q") {
					c.fail("%s: %s", n, errText(err))
				}
				status = 1
				continue
			}
		}
		if rel := o.val("relative-to"); rel != "" {
			base, err := canonical(c.path(rel), 'm')
			if err == nil {
				if r, err := filepath.Rel(base, p); err == nil {
					p = r
				}
			}
		}
		fmt.Fprint(c.stdout, p+end)
	}
	return status
}

func readlink(c *cmd, args []string) int {
	o, err := flagSpec{short: "femnqsvz", permute: true, long: map[string]string{
		"canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m", "no-newline": "n", "quiet": "q", "silent": "s",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) == 0 {
		return c.usage(errors.New("missing operand"))
	}
	end := "\n"
	if o.has("n") {
		end = ""
	}
	status := 0
	for _, n := range o.args {
		var out string
		switch {
		case o.has("f"), o.has("e"), o.has("m"):
			mode := byte('f')
			if o.has("e") {
				mode = 'e'
			} else if o.has("m") {
				mode = 'm'
			}
			out, err = canonical(c.path(n), mode)
		default:
			out, err = os.Readlink(c.path(n))
		}
		if err != nil {
			if o.has("v") {
				c.fail("%s: %s", n, errText(err))
			}
			status = 1
			continue
		}
		fmt.Fprint(c.stdout, out+end)
	}
	return status
}

// randomName fills each X at the end of template with a random letter
// or digit.
func randomName(template string) (string, error) {
	n := len(template) - len(strings.TrimRight(template, "X"))
	if n < 3 {
		return "", fmt.Errorf("too few X's in template '%s'", template)
	}
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = chars[int(b[i])%len(chars)]
	}
	return template[:len(template)-n] + string(b), nil
}

func mktemp(c *cmd, args []string) int {
	o, err := flagSpec{short: "dqtup:", permute: true, long: map[string]string{
		"directory": "d", "quiet": "q", "dry-run": "u", "tmpdir=": "p", "suffix=": "suffix",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	template := "tmp.XXXXXXXXXX"
	explicit := len(o.args) > 0
	if explicit {
		template = o.args[0]
	}
	dir := ""
	if o.has("p") || o.has("t") || !explicit {
		dir = o.val("p")
		if dir == "" {
			dir = c.hc.Env.Get("TMPDIR").String()
		}
		if dir == "" {
			dir = "/tmp"
		}
	}
	for range 100 {
		name, err := randomName(template)
		if err != nil {
			return c.fail("%v", err)
		}
		name += o.val("suffix")
		shown := name
		if dir != "" {
			shown = filepath.Join(dir, name)
		}
		p := c.path(shown)
		if o.has("u") {
			fmt.Fprintln(c.stdout, shown)
			return 0
		}
		if o.has("d") {
			err = os.Mkdir(p, 0o700)
		} else {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
				f.Close()
			}
		}
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			if !o.has("q") {
				c.fail("failed to create %s via template '%s': %s", map[bool]string{true: "directory", false: "file"}[o.has("d")], shown, errText(err))
			}
			return 1
		}
		fmt.Fprintln(c.stdout, shown)
		return 0
	}
	return c.fail("failed to create a unique name from template '%s'", template)
}
