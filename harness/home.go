package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/skills"
	"github.com/ptc-dev/ptc/sandbox"
)

// Home is one ptc home directory as a process uses it: the presets found
// there, its sessions, its spill area and the one sandbox host every
// session of the process shares (so the guest is compiled once, and a
// subagent runs in its parent's sandbox). It is safe for concurrent use.
type Home struct {
	dir string

	mu      sync.Mutex
	presets *presets.Set
	models  *models.Table
	host    *sandbox.Host
	catalog *session.Catalog
	// sessions, when set, is where the home's sessions live instead of
	// <dir>/sessions (OpenHomeOn: a fleet's JetStream).
	sessions session.Sessions
	closed   bool
	// notice is the host's Config.Notice (SetNotice).
	notice func(string)
}

// SetNotice makes the home's sandbox host tell notice when it compiles the
// guest cold (sandbox.Config.Notice). It takes effect for a host made
// after it; the CLI's one-shot commands set it before anything runs.
func (h *Home) SetNotice(notice func(string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notice = notice
}

// OpenHome returns the home at dir ("" means $PTC_HOME, else ~/.ptc). It
// touches nothing on disk until something needs it. The caller closes it
// after the sessions opened from it.
func OpenHome(dir string) (*Home, error) {
	if dir == "" {
		d, err := session.DefaultHome()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("the ptc home %s: %w", dir, err)
	}
	return &Home{dir: abs}, nil
}

// OpenHomeOn is OpenHome for a home whose sessions live in sessions
// (natsstore.Catalog for a fleet of workers) rather than in its sessions
// directory; presets, models and the spill area stay under dir.
func OpenHomeOn(dir string, sessions session.Sessions) (*Home, error) {
	h, err := OpenHome(dir)
	if err != nil {
		return nil, err
	}
	h.sessions = sessions
	return h, nil
}

// Dir is the home's absolute path.
func (h *Home) Dir() string { return h.dir }

// Presets loads the embedded presets and the user's under <home>/presets
// once, validated against the tools this build can construct.
func (h *Home) Presets() (*presets.Set, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.presets == nil {
		set, err := presets.Load(h.dir, KnownToolNames())
		if err != nil {
			return nil, err
		}
		h.presets = set
	}
	return h.presets, nil
}

// Models loads the model table once: the built-in one with the user's
// <home>/models.yaml over it.
func (h *Home) Models() (*models.Table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.models == nil {
		t, err := models.LoadHome(h.dir)
		if err != nil {
			return nil, err
		}
		h.models = t
	}
	return h.models, nil
}

// Host is the process's sandbox host, made on first use with host
// programs on (under bubblewrap; each call mounts only its own session's
// spill directory); the guest starts compiling in the background.
func (h *Home) Host() (*sandbox.Host, error) {
	host, err := h.lazyHost()
	if err == nil {
		host.Warm()
	}
	return host, err
}

// lazyHost is Host without the background compile: the guest is loaded by
// the first command that needs it (ptc exec, whose program may never run
// one: glob and grep run on the host, and a process that compiled for
// nothing waited for the compile to end before it could exit).
func (h *Home) lazyHost() (*sandbox.Host, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("the ptc home is closed")
	}
	if h.host == nil {
		spill := filepath.Join(h.dir, "spill")
		if err := os.MkdirAll(spill, 0o700); err != nil {
			return nil, fmt.Errorf("cannot create the spill area: %w", err)
		}
		hx, err := sandbox.HostExecFromEnv(os.Getenv)
		if err != nil {
			return nil, err
		}
		h.host = sandbox.NewHost(sandbox.Config{HostExec: hx, ReadOnlyDirs: h.readOnlyDirs(), Notice: h.notice})
	}
	return h.host, nil
}

// readOnlyDirs are the home's directories every sandboxed call may read:
// the user's skills (so read opens a skill's files at the paths the
// skill tool lists), when there are any.
func (h *Home) readOnlyDirs() []string {
	dir := filepath.Join(h.dir, skills.HomeDir)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return []string{dir}
	}
	return nil
}

// Skills finds the skills of workspace ("" for none) and of the home's
// skills directory, afresh on every call (a session reads them once per
// composition, as it reads AGENTS.md).
func (h *Home) Skills(workspace string) *skills.Catalog { return skills.Discover(workspace, h.dir) }

// SpillDir is where results too large for the model's context are kept
// in full: <home>/spill/<session id>, outside the workspace so a session
// leaves nothing behind in the repository. The sandbox mounts a session's
// spill directory read-only in that session's calls only, so the read
// tool can page through it and no session sees another's.
func (h *Home) SpillDir(id string) string { return filepath.Join(h.dir, "spill", id) }

// Catalog is the home's sessions, one directory each (see
// session.Catalog); the same catalog for the life of the Home.
func (h *Home) Catalog() *session.Catalog {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.catalog == nil {
		h.catalog = session.NewCatalog(h.dir)
	}
	return h.catalog
}

// Sessions is where the home's sessions are opened, created and listed:
// the catalog of its sessions directory, or what OpenHomeOn was given.
func (h *Home) Sessions() session.Sessions {
	if h.sessions != nil {
		return h.sessions
	}
	return h.Catalog().AsSessions()
}

// Close stops the sandbox host. Sessions must be closed first.
func (h *Home) Close() error {
	h.mu.Lock()
	host := h.host
	h.host, h.closed = nil, true
	h.mu.Unlock()
	if host == nil {
		return nil
	}
	return host.Close(context.Background())
}

// ResolveWorkspace returns dir ("" means the current directory) as an
// absolute path with symlinks resolved: the sandbox mounts it at that
// path, so every path a tool prints is the real one on the host too.
func ResolveWorkspace(dir string, getwd func() (string, error)) (string, error) {
	if getwd == nil {
		getwd = os.Getwd
	}
	if dir == "" || !filepath.IsAbs(dir) {
		wd, err := getwd()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(wd, dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("the workspace %s is not a directory; pass an existing directory to --workspace", dir)
	}
	return filepath.EvalSymlinks(dir)
}
