package hostexec

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultPrograms are the host programs a preset allows when it names
// none: the common toolchains and the tools their builds call.
var DefaultPrograms = []string{
	"bash", "sh", "make", "git",
	"go", "gofmt",
	"node", "npm", "npx", "yarn", "pnpm", "tsc",
	"python", "python3", "pip", "pip3", "pytest",
	"cargo", "rustc", "rustfmt",
	"cc", "gcc", "g++", "clang", "ld",
	"java", "javac", "mvn", "gradle",
	"ruby", "gem", "bundle", "perl",
}

// systemRoots are mounted read-only in every sandbox: what programs need
// to run (binaries, libraries, /etc). A program found elsewhere brings
// its toolchain root (see Resolver.Lookup).
var systemRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}

// Resolver finds allowed host programs. It is built once and never
// changes after.
type Resolver struct {
	allowed map[string]bool
	dirs    []string // where programs are looked up, in order
	home    string   // the user's HOME: nothing of it is mounted
}

// NewResolver allows programs (nil means DefaultPrograms) found in the
// host's PATH, leaving out entries that are relative or lie under home or
// inside workspace: a program from the user's HOME (~/.cargo/bin,
// ~/go/bin, pyenv shims) would need that part of HOME inside the sandbox,
// and one from the workspace is the repository's own code. extra lists
// further directories to search (before PATH), for toolchains the user
// chose to mount read-only.
func NewResolver(programs []string, pathEnv, home string, extra []string) *Resolver {
	if programs == nil {
		programs = DefaultPrograms
	}
	r := &Resolver{allowed: map[string]bool{}, home: home}
	for _, p := range programs {
		r.allowed[p] = true
	}
	for _, d := range append(append([]string(nil), extra...), filepath.SplitList(pathEnv)...) {
		d = filepath.Clean(d)
		if !filepath.IsAbs(d) || home != "" && (d == home || strings.HasPrefix(d, home+"/")) || slices.Contains(r.dirs, d) {
			continue
		}
		r.dirs = append(r.dirs, d)
	}
	return r
}

// Dirs are the directories searched, which also make up the sandbox's
// PATH.
func (r *Resolver) Dirs() []string { return append([]string(nil), r.dirs...) }

// Allowed lists the allowed program names, sorted.
func (r *Resolver) Allowed() []string {
	out := make([]string, 0, len(r.allowed))
	for p := range r.allowed {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// NotAllowedError is Lookup's answer for a program the preset does not
// allow.
type NotAllowedError struct{ Name string }

func (e *NotAllowedError) Error() string {
	return fmt.Sprintf("%s is not among the host programs this preset allows", e.Name)
}

// Lookup returns the host path of an allowed program and the read-only
// mount its toolchain needs beyond the system roots ("" when none). Only
// bare names are looked up: a path (./x, /usr/bin/x) is not a host
// program.
func (r *Resolver) Lookup(name string) (path, root string, err error) {
	if name == "" || strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return "", "", fmt.Errorf("%q is not a program name", name)
	}
	if !r.allowed[name] {
		return "", "", &NotAllowedError{name}
	}
	for _, d := range r.dirs {
		p := filepath.Join(d, name)
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		root := toolchainRoot(real)
		if root != "" && r.home != "" && (r.home == root || strings.HasPrefix(root, r.home+"/") || strings.HasPrefix(r.home, root+"/")) {
			continue // it lives in (or would expose) the user's HOME
		}
		return p, root, nil
	}
	return "", "", fmt.Errorf("%s was not found on the host", name)
}

// toolchainRoot is the directory to mount read-only so that the program
// at real (a resolved path) runs: nothing for one under a system root,
// else its bin directory's parent (/usr/local/go for .../go/bin/go).
func toolchainRoot(real string) string {
	for _, r := range systemRoots {
		if real == r || strings.HasPrefix(real, r+"/") {
			return ""
		}
	}
	dir := filepath.Dir(real)
	if filepath.Base(dir) == "bin" {
		dir = filepath.Dir(dir)
	}
	if dir == "/" {
		return ""
	}
	return dir
}

// UserHome is the user's home directory: the account's (from the user
// database), which is what holds their keys and toolchains even when
// $HOME says otherwise; $HOME when the account has none. Nothing of it
// is mounted into a sandbox.
func UserHome() string {
	if u, err := user.Current(); err == nil && u.HomeDir != "" && u.HomeDir != "/" {
		return u.HomeDir
	}
	home, _ := os.UserHomeDir()
	return home
}

// Command finds the program a confined command line names (an MCP
// server's command): a bare name on pathEnv (outside home), or a path,
// relative to dir, that lies in workspace or under a toolchain root
// outside home. It returns the path to run and the read-only mount its
// toolchain needs ("" when none).
func Command(name, dir, workspace, pathEnv, home string) (path, root string, err error) {
	if !strings.ContainsRune(name, '/') {
		return NewResolver([]string{name}, pathEnv, home, nil).Lookup(name)
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return "", "", fmt.Errorf("%s is not an executable file", name)
	}
	if ws, err := filepath.EvalSymlinks(workspace); err == nil && within(real, ws) {
		return real, "", nil
	}
	root = toolchainRoot(real)
	if home != "" && (within(real, home) || root != "" && within(home, root)) {
		return "", "", fmt.Errorf("%s lies in your HOME, which confined programs never see", name)
	}
	return real, root, nil
}
