// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is cd and pwd as
// bash has them: upstream cleans "missing/.." away lexically, so cd into a
// directory that does not exist succeeded; it also lacks -L/-P, CDPATH,
// "--", the "too many arguments" error, and its pwd printed $PWD (which a
// script can overwrite) instead of the directory the shell is in.

package interp

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
)

func (r *Runner) ptcCd(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	physical := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if strings.Trim(args[0][1:], "LPe@") != "" {
			break // "-" alone, or not an option: an operand
		}
		physical = strings.LastIndexByte(args[0], 'P') > strings.LastIndexByte(args[0], 'L')
		args = args[1:]
	}
	var path string
	switch len(args) {
	case 0:
		path = r.envGet("HOME")
		if path == "" {
			r.errf("cd: HOME not set\n")
			exit.code = 1
			return exit
		}
	case 1:
		path = args[0]
	default:
		r.errf("cd: too many arguments\n")
		exit.code = 1
		return exit
	}
	show := false
	if path == "-" {
		path = r.envGet("OLDPWD")
		if path == "" {
			r.errf("cd: OLDPWD not set\n")
			exit.code = 1
			return exit
		}
		show = true
	}
	dir, viaCDPATH, ok := r.cdTarget(ctx, path)
	if !ok {
		r.errf("cd: %s: No such file or directory\n", path)
		exit.code = 1
		return exit
	}
	if physical {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
	}
	if r.access(ctx, dir, AccessExec) != nil {
		r.errf("cd: %s: Permission denied\n", path)
		exit.code = 1
		return exit
	}
	old := r.Dir
	if pwd := r.lookupVar("PWD"); pwd.IsSet() {
		old = pwd.String()
	}
	r.Dir = dir
	r.setExported("OLDPWD", old)
	r.setExported("PWD", dir)
	if show || viaCDPATH {
		r.outf("%s\n", dir)
	}
	return exit
}

func (r *Runner) setExported(name, val string) {
	r.setVar(name, expand.Variable{Set: true, Kind: expand.String, Str: val, Exported: true})
}

// cdTarget resolves the operand of cd to an absolute directory, trying
// CDPATH for a relative name, and checking that every directory a ".."
// steps out of exists, as the kernel's chdir would.
func (r *Runner) cdTarget(ctx context.Context, path string) (dir string, viaCDPATH, ok bool) {
	if path == "" {
		return r.Dir, false, true
	}
	if !filepath.IsAbs(path) && !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") && path != "." && path != ".." {
		for _, base := range strings.Split(r.envGet("CDPATH"), ":") {
			if base == "" {
				continue
			}
			cand := filepath.Join(r.absPath(base), path)
			if r.isDir(ctx, cand) && r.stepsExist(ctx, r.absPath(base), path) {
				return cand, true, true
			}
		}
	}
	base := r.Dir
	if filepath.IsAbs(path) {
		base = "/"
	}
	cand := r.absPath(path)
	return cand, false, r.isDir(ctx, cand) && r.stepsExist(ctx, base, path)
}

func (r *Runner) isDir(ctx context.Context, p string) bool {
	info, err := r.stat(ctx, p)
	return err == nil && info.IsDir()
}

// stepsExist checks that each prefix of rel that is followed by ".."
// names a directory: "missing/.." is not the current directory.
func (r *Runner) stepsExist(ctx context.Context, base, rel string) bool {
	parts := strings.Split(rel, "/")
	cur := base
	for i, p := range parts {
		if p == "" || p == "." {
			continue
		}
		if p == ".." {
			if !r.isDir(ctx, cur) {
				return false
			}
			cur = filepath.Dir(cur)
			continue
		}
		cur = filepath.Join(cur, p)
		if i+1 < len(parts) && parts[i+1] == ".." && !r.isDir(ctx, cur) {
			return false
		}
	}
	return true
}

// ptcPwd prints the directory the shell is in (-P: with symlinks
// resolved). Arguments are ignored, as bash ignores them.
func (r *Runner) ptcPwd(args []string) exitStatus {
	var exit exitStatus
	physical := false
	for _, a := range args {
		switch a {
		case "-P":
			physical = true
		case "-L":
			physical = false
		}
	}
	dir := r.Dir
	if physical {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
	}
	r.outf("%s\n", dir)
	return exit
}
