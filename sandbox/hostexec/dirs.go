package hostexec

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Dirs are the host directories a sandboxed program writes at their own
// path, besides its write layers. Nothing in them is shared between
// workspaces: what one project's programs leave there (a ~/.gitconfig
// with core.fsmonitor, a Python usercustomize.py, a poisoned build
// cache) can reach only later programs of the same workspace, whose
// files those programs could change anyway.
type Dirs struct {
	// Home is HOME: one per session (per process for a run without a
	// session id), so dotfiles and sockets a program leaves there are
	// not even seen by the workspace's other sessions.
	Home string
	// Cache holds the workspace's build caches (GOCACHE, GOMODCACHE,
	// npm, pip, cargo, XDG_CACHE_HOME), kept across its sessions so
	// builds stay warm; no socket can be made in it (see restrictSockets).
	Cache string
}

// Layout under Config.Root:
//
//	<root>/<workspace key>/cache
//	<root>/<workspace key>/home/<session key>
//	<root>/<workspace key>/mcp/<server key>   (ServerHome)
//
// A key is the first 16 hex digits of the SHA-256 of the name (the
// workspace key also carries the directory's base name, for people).
const (
	cacheDirName  = "cache"
	homesDirName  = "home"
	serverDirName = "mcp"
)

// staleHome is how long a session's HOME may go unchanged before it is
// removed (a session resumed after that starts with an empty HOME).
const staleHome = 7 * 24 * time.Hour

// root is the directory holding every workspace's state.
func (r *Runner) root() (string, error) {
	if r.cfg.Root != "" {
		return r.cfg.Root, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the sandbox HOMEs (%v); set XDG_CACHE_HOME", err)
	}
	return filepath.Join(base, "ptc", "sandbox"), nil
}

// DirsFor returns the HOME of session in workspace and the workspace's
// cache directory, created 0700. session "" stands for this process.
func (r *Runner) DirsFor(workspace, session string) (Dirs, error) {
	ws, err := r.workspaceDir(workspace)
	if err != nil {
		return Dirs{}, err
	}
	if session == "" {
		session = r.processKey
	}
	d := Dirs{Home: filepath.Join(ws, homesDirName, key(session)), Cache: filepath.Join(ws, cacheDirName)}
	for _, p := range []string{d.Home, d.Cache} {
		if err := makePrivate(p); err != nil {
			return Dirs{}, err
		}
	}
	now := time.Now()
	_ = os.Chtimes(d.Home, now, now) // in use: not stale (pruneHomes)
	return d, nil
}

// ServerHome returns the HOME of the project MCP server name of
// workspace, created 0700: its own, shared with neither the workspace's
// host programs (which the model drives) nor its other servers.
func (r *Runner) ServerHome(workspace, name string) (string, error) {
	ws, err := r.workspaceDir(workspace)
	if err != nil {
		return "", err
	}
	home := filepath.Join(ws, serverDirName, key(name))
	if err := makePrivate(home); err != nil {
		return "", err
	}
	return home, nil
}

func (r *Runner) workspaceDir(workspace string) (string, error) {
	root, err := r.root()
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(workspace) {
		return "", fmt.Errorf("the workspace %q is not an absolute path", workspace)
	}
	ws := filepath.Clean(workspace)
	r.pruneOnce.Do(func() { go pruneHomes(root, time.Now()) })
	return filepath.Join(root, safeBase(ws)+"-"+key(ws)), nil
}

func makePrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the sandbox directory %s: %w", dir, err)
	}
	return nil
}

// key names a workspace, session or server in the layout.
func key(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:8])
}

// safeBase is the workspace's base name reduced to [A-Za-z0-9._-], at
// most 32 bytes, for a person browsing the directory.
func safeBase(ws string) string {
	b := []byte(filepath.Base(ws))
	out := make([]byte, 0, min(len(b), 32))
	for _, c := range b {
		if len(out) == 32 {
			break
		}
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			out = append(out, c)
		default:
			out = append(out, '_')
		}
	}
	s := strings.TrimLeft(string(out), ".")
	if s == "" {
		s = "ws"
	}
	return s
}

// newProcessKey is the session key of runs without a session id.
func newProcessKey() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("process-%d-%s", os.Getpid(), hex.EncodeToString(b[:]))
}

// pruneHomes removes session HOMEs left unchanged for staleHome. It runs
// in the background once per Runner; failures only leave files behind.
// (The one HOME earlier versions shared between every workspace,
// os.UserCacheDir()/ptc/sandbox-home, is never mounted again.)
func pruneHomes(root string, now time.Time) {
	wss, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, ws := range wss {
		dir := filepath.Join(root, ws.Name(), homesDirName)
		homes, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, h := range homes {
			if info, err := h.Info(); err == nil && now.Sub(info.ModTime()) > staleHome {
				_ = os.RemoveAll(filepath.Join(dir, h.Name()))
			}
		}
	}
}
