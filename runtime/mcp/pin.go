package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// An approval of a project server binds more than its command line:
// `python3 tools/server.py` approved once would otherwise run whatever a
// sandboxed write later put in tools/server.py. The fingerprint an
// approval records covers the definition as written (every field:
// command, args, cwd, env, headers, url, the sandbox and network asked
// for) and the contents of every workspace file the command line names:
// a script, a directory's entry points (package.json and its main and
// bin, index.*, __main__.py, ...), a module run with -m. A change to any
// of them asks again. What those files import is not pinned; the
// confinement (sandbox read-only, no network unless approved, no key in
// its environment) is what bounds a server's code, the pin only keeps
// the approved entry point from being swapped.

// PinnedFile is one workspace file an approval covers.
type PinnedFile struct {
	Path   string `json:"path"`   // workspace-relative
	SHA256 string `json:"sha256"` // of the contents, or "unreadable: ..." / "missing"
}

// Limits of pinning: a command line naming more files, or a directory
// with more entry points, pins the first ones (sorted), and says so.
const maxPinned = 64

// entryPoints are the names in a directory the command line names that
// are pinned (the directory is a package whose entry they are).
var entryPoints = []string{
	"package.json", "index.js", "index.mjs", "index.cjs", "index.ts", "main.js", "server.js",
	"__main__.py", "__init__.py", "main.py", "server.py", "pyproject.toml", "setup.py",
	"go.mod", "main.go", "Cargo.toml", "deno.json", "mod.ts", "main.ts",
}

// Pin lists the workspace files s's command line names, with their
// contents' hashes, sorted by path. getenv expands the values the way a
// start will (nil: the process environment).
func (s Server) Pin(workspace string, getenv func(string) string) []PinnedFile {
	if s.Transport() != "stdio" || workspace == "" {
		return nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	x := s.expanded(getenv, workspace)
	real, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		real = workspace
	}
	p := pinner{ws: filepath.Clean(workspace), real: real, seen: map[string]bool{}}
	words := append([]string{x.Command}, x.Args...)
	for i, w := range words {
		switch {
		case i > 0 && words[i-1] == "-m":
			p.module(x.Cwd, w)
		case strings.HasPrefix(w, "-"):
			if _, v, ok := strings.Cut(w, "="); ok {
				p.word(x.Cwd, v)
			}
		default:
			p.word(x.Cwd, w)
		}
	}
	sort.Slice(p.files, func(i, j int) bool { return p.files[i].Path < p.files[j].Path })
	if len(p.files) > maxPinned {
		p.files = p.files[:maxPinned]
	}
	return p.files
}

type pinner struct {
	ws, real string
	seen     map[string]bool
	files    []PinnedFile
}

// inside returns p's workspace-relative name when p, with its links
// resolved, lies in the workspace.
func (p *pinner) inside(abs string) (string, bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// A name that does not resolve is pinned as missing when it
		// names a place in the workspace: creating it later asks again.
		real = abs
	}
	for _, root := range []string{p.real, p.ws} {
		if rel, err := filepath.Rel(root, real); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// word pins what one word of the command line names, if anything.
func (p *pinner) word(cwd, w string) {
	if w == "" || strings.ContainsRune(w, 0) || strings.Contains(w, "://") {
		return
	}
	abs := w
	if !filepath.IsAbs(abs) {
		// A bare word (no slash, no dot) is a program or an argument
		// unless a file of that name is there.
		abs = filepath.Join(cwd, w)
	}
	info, err := os.Stat(abs)
	switch {
	case err == nil && info.IsDir():
		for _, e := range entryPoints {
			p.file(filepath.Join(abs, e), false)
		}
		p.packageEntries(abs)
	case err == nil:
		p.file(abs, true)
	case strings.ContainsRune(w, '/') || strings.Contains(filepath.Base(w), "."):
		p.file(abs, true) // pinned as missing, if it would be inside
	}
}

// module pins what `-m a.b` runs from cwd.
func (p *pinner) module(cwd, mod string) {
	if mod == "" || strings.ContainsAny(mod, "/\\") {
		return
	}
	base := filepath.Join(cwd, filepath.FromSlash(strings.ReplaceAll(mod, ".", "/")))
	p.file(base+".py", false)
	p.file(filepath.Join(base, "__main__.py"), false)
	p.file(filepath.Join(base, "__init__.py"), false)
}

// packageEntries pins the main and bin files of a package.json in dir.
func (p *pinner) packageEntries(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return
	}
	var pkg struct {
		Main string          `json:"main"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return
	}
	names := []string{pkg.Main}
	var one string
	var many map[string]string
	if json.Unmarshal(pkg.Bin, &one) == nil {
		names = append(names, one)
	} else if json.Unmarshal(pkg.Bin, &many) == nil {
		for _, v := range many {
			names = append(names, v)
		}
	}
	for _, n := range names {
		if n != "" && !filepath.IsAbs(n) {
			p.file(filepath.Join(dir, n), true)
		}
	}
}

// file pins one path in the workspace; a missing one only when
// keepMissing (a name the command line gave, not a guessed entry point).
func (p *pinner) file(abs string, keepMissing bool) {
	rel, ok := p.inside(filepath.Clean(abs))
	if !ok || p.seen[rel] || len(p.files) >= 4*maxPinned {
		return
	}
	sum, exists := hashFile(abs)
	if !exists && !keepMissing {
		return
	}
	p.seen[rel] = true
	p.files = append(p.files, PinnedFile{Path: rel, SHA256: sum})
}

// hashFile returns the hex SHA-256 of a regular file's contents, or what
// stands in for it. It never blocks on a FIFO.
func hashFile(path string) (string, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if os.IsNotExist(err) {
		return "missing", false
	}
	if err != nil {
		return "unreadable: " + err.Error(), true
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return "not a regular file", true
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable: " + err.Error(), true
	}
	return hex.EncodeToString(h.Sum(nil)), true
}
