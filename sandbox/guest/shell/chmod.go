package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// chmodUmask is applied to symbolic modes that name no one (+x), as
// chmod does with the usual umask.
const chmodUmask = 0o022

// applyMode computes the new permission word for a chmod MODE: octal, or
// comma-separated symbolic clauses like u+x, go-w, a=r, +x, u=rwx,g=rx.
func applyMode(spec string, cur uint32, isDir bool) (uint32, error) {
	if spec != "" && strings.Trim(spec, "01234567") == "" {
		n, err := strconv.ParseUint(spec, 8, 32)
		if err != nil || n > 0o7777 {
			return 0, fmt.Errorf("invalid mode: '%s'", spec)
		}
		return uint32(n), nil
	}
	mode := cur
	for _, clause := range strings.Split(spec, ",") {
		i := 0
		var who uint32
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			who |= map[byte]uint32{'u': 0o4700, 'g': 0o2070, 'o': 0o1007, 'a': 0o7777}[clause[i]]
		}
		masked := who == 0
		if masked {
			who = 0o7777
		}
		if i == len(clause) {
			return 0, fmt.Errorf("invalid mode: '%s'", spec)
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, fmt.Errorf("invalid mode: '%s'", spec)
			}
			i++
			var bits uint32
			for ; i < len(clause) && strings.IndexByte("rwxXstugo", clause[i]) >= 0; i++ {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x':
					bits |= 0o111
				case 'X':
					if isDir || mode&0o111 != 0 {
						bits |= 0o111
					}
				case 's':
					bits |= 0o6000
				case 't':
					bits |= 0o1000
				case 'u':
					bits |= copyClass(mode >> 6 & 7)
				case 'g':
					bits |= copyClass(mode >> 3 & 7)
				case 'o':
					bits |= copyClass(mode & 7)
				}
			}
			bits &= who
			if masked {
				bits &^= chmodUmask
			}
			switch op {
			case '+':
				mode |= bits
			case '-':
				mode &^= bits
			case '=':
				clear := who &^ 0o7000
				if masked {
					clear = 0o777
				}
				mode = mode&^clear | bits
			}
		}
	}
	return mode, nil
}

// copyClass spreads one rwx triplet to all three classes (for g=u).
func copyClass(t uint32) uint32 { return t<<6 | t<<3 | t }

// toFileMode turns a permission word into an fs.FileMode for os.Chmod.
func toFileMode(p uint32) fs.FileMode {
	m := fs.FileMode(p & 0o777)
	if p&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if p&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if p&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

func chmod(c *cmd, args []string) int {
	var flags, rest []string
	for i, a := range args { // -w, -x, -r are modes, not flags
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if a == "-R" || a == "--recursive" || a == "-v" || a == "-c" || a == "-f" {
			flags = append(flags, a)
			continue
		}
		rest = append(rest, a)
	}
	o, err := flagSpec{short: "Rvcf", long: map[string]string{"recursive": "R"}}.parse(flags)
	if err != nil {
		return c.usage(err)
	}
	if len(rest) < 2 {
		return c.usage(errors.New("missing operand"))
	}
	if !chmodSupported {
		return c.fail("changing permissions is not supported in the sandbox (its file system has no permission bits); run chmod with sandbox_permissions \"danger-full-access\" if the mode matters")
	}
	spec, names := rest[0], rest[1:]
	status := 0
	change := func(p, shown string) {
		fi, err := os.Stat(p)
		if err != nil {
			status = c.fail("cannot access '%s': %s", shown, errText(err))
			return
		}
		mode, err := applyMode(spec, unixPerm(fi.Mode()), fi.IsDir())
		if err != nil {
			status = c.fail("%v", err)
			return
		}
		if err := os.Chmod(p, toFileMode(mode)); err != nil {
			status = c.fail("changing permissions of '%s': %s", shown, errText(err))
		}
	}
	for _, n := range names {
		if !o.has("R") {
			change(c.path(n), n)
			continue
		}
		filepath.WalkDir(c.path(n), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				status = c.fail("cannot access '%s': %s", p, errText(err))
				return nil
			}
			if d.Type()&fs.ModeSymlink == 0 {
				change(p, p)
			}
			return nil
		})
	}
	return status
}
