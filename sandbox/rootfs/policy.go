package rootfs

import (
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// DefaultProtected are the paths that stay read-only in workspace-write
// mode. Each is a bare name, so it matches that component anywhere in the
// tree: every .git (directory or gitdir file, top-level or nested), ptc's
// project directory and the project MCP file. Writing any of them gives
// code execution outside the sandbox the next time the user runs git or
// ptc (hooks, core.fsmonitor, commondir, an MCP server command line).
var DefaultProtected = []string{".git", ".ptc", ".mcp.json"}

// GitWriteKept are the paths under the top-level .git that stay read-only
// even in git-write mode: the files git reads to decide what to run or
// where its configuration lives. Everything else there (objects, refs,
// index, logs, HEAD, stash) is git's own data and writable.
//
// The object store's alternates (which could pull another repository's
// objects into this one) and the legacy remotes and branches files (remote
// URLs git fetches from) are kept too: git in the sandbox has no business
// writing them. What git runs from the rest of its state is removed after
// each command instead (DisarmGitState).
var GitWriteKept = []string{
	".git/config", ".git/config.worktree", ".git/commondir", ".git/gitdir",
	".git/hooks/**", ".git/modules/**", ".git/worktrees/**",
	".git/objects/info/alternates", ".git/objects/info/http-alternates", ".git/remotes/**", ".git/branches/**",
}

// maxHops bounds the symlinks followed while resolving one path.
const maxHops = 40

// clean turns a path wazero hands to the FS (relative to the mount, at
// times with a leading slash) into a clean root-relative path. A path
// that lexically leaves the root is refused.
func clean(p string) (string, experimentalsys.Errno) {
	p = path.Clean(strings.TrimLeft(p, "/"))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", experimentalsys.EPERM
	}
	return p, 0
}

// protector decides whether a real root-relative path is protected.
// Patterns come in three kinds: a bare name ("x", no slash) protects every
// component named x and everything below it; "p" protects the root-relative
// path p; "p/**" protects p and everything under it.
type protector struct {
	names    map[string]bool
	exact    []string
	trees    []string
	gitWrite bool     // the top-level .git is writable except kept
	kept     []string // GitWriteKept as trees/exact, checked under .git
}

func newProtector(patterns []string, gitWrite bool) protector {
	pr := protector{names: map[string]bool{}, gitWrite: gitWrite}
	for _, p := range patterns {
		switch t, tree := strings.CutSuffix(p, "/**"); {
		case tree:
			pr.trees = append(pr.trees, path.Clean(t))
		case !strings.Contains(p, "/"):
			pr.names[p] = true
		default:
			pr.exact = append(pr.exact, path.Clean(p))
		}
	}
	pr.kept = GitWriteKept
	return pr
}

func (pr *protector) empty() bool {
	return len(pr.names) == 0 && len(pr.exact) == 0 && len(pr.trees) == 0
}

// protects reports whether p may not be mutated. With moving set (p is
// removed or renamed away) an ancestor of a root-relative protected path
// counts too, since moving it would carry the protected path elsewhere; a
// protected name needs no such rule, it stays protected wherever it goes.
func (pr *protector) protects(p string, moving bool) bool {
	if p == "." || p == "" {
		return false
	}
	if len(pr.names) > 0 && pr.namedComponent(p) {
		return true
	}
	for _, e := range pr.exact {
		if p == e || moving && isUnder(e, p) {
			return true
		}
	}
	for _, t := range pr.trees {
		if p == t || isUnder(p, t) || moving && isUnder(t, p) {
			return true
		}
	}
	return false
}

// namedComponent reports whether a component of p is a protected name,
// applying the git-write exemption for what lies under the top-level .git.
func (pr *protector) namedComponent(p string) bool {
	first := true
	rest := p
	for rest != "" {
		c, tail, _ := strings.Cut(rest, "/")
		if pr.names[c] {
			if !(first && c == ".git" && tail != "" && pr.gitWrite) {
				return true
			}
			if gitKept(p, pr.kept) {
				return true
			}
		}
		first, rest = false, tail
	}
	return false
}

// gitKept reports whether p (under the top-level .git) matches one of the
// git-write exceptions.
func gitKept(p string, kept []string) bool {
	for _, k := range kept {
		if t, ok := strings.CutSuffix(k, "/**"); ok {
			if p == t || isUnder(p, t) {
				return true
			}
		} else if p == k {
			return true
		}
	}
	return false
}

// isUnder reports whether p lies strictly below dir ("." is every path's
// ancestor, but the root itself is never protected).
func isUnder(p, dir string) bool {
	if dir == "." {
		return false
	}
	return strings.HasPrefix(p, dir+"/")
}

// escapingTarget reports whether a symlink at linkPath with the given
// target is absolute or resolves (lexically, from the link's directory)
// outside the root.
func escapingTarget(target, linkPath string) bool {
	if target == "" || path.IsAbs(target) || strings.HasPrefix(target, "\\") {
		return true
	}
	joined := path.Join(path.Dir(linkPath), target)
	return joined == ".." || strings.HasPrefix(joined, "../")
}
