package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
	"github.com/ptc-dev/ptc/sandbox/internal/wasmprep"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// Defaults of Config.
const (
	DefaultMemoryLimitPages = 4096      // 256 MiB of linear memory per instance
	DefaultOutputLimit      = 1 << 20   // stdout+stderr bytes per command
	DefaultPoolSize         = 3         // ready instances per (workspace, mode)
	DefaultWriteQuota       = 2 << 30   // bytes a session's workspace may grow by
	DefaultTmpSize          = 256 << 20 // bytes of a call's private /tmp
)

// Config sets up a Host. It is copied by NewHost and never changes after.
type Config struct {
	// Guest returns the guest reactor's wasm bytes. It is called once, in
	// the background compile. nil means the embedded shell guest.
	Guest func() []byte
	// CacheDir holds wazero's compiled-code cache; "" means
	// os.UserCacheDir()/ptc/wazero. The cache is executable code: it is
	// created 0700 and must never live inside a workspace.
	CacheDir string
	// NoCache disables the compiled-code cache (every start compiles).
	NoCache bool
	// MemoryLimitPages caps each instance's linear memory (64 KiB pages).
	MemoryLimitPages uint32
	// OutputLimit caps stdout+stderr of one command together; when
	// exceeded the output is cut and the command stopped.
	OutputLimit int
	// PoolSize is the number of pre-initialised instances kept per
	// (workspace, mode); 0 means DefaultPoolSize, negative disables the
	// pool (every command instantiates a fresh instance).
	PoolSize int
	// MaxRunning caps commands executing in guest instances at once,
	// across all workspaces; further commands wait their turn (or for
	// their context to end). Each running instance can hold up to
	// MemoryLimitPages of memory, so this bounds the host's memory use.
	// 0 means GOMAXPROCS*4.
	MaxRunning int
	// MaxOpen caps open files per instance (see rootfs.Options).
	MaxOpen int
	// Protected overrides rootfs.DefaultProtected in workspace-write.
	Protected []string
	// WriteQuota bounds how many bytes one session's commands (guest
	// writes and the changes of host programs alike) may grow its
	// workspace by; 0 means DefaultWriteQuota, negative means no bound.
	WriteQuota int64
	// ReadOnlyDirs are host directories mounted read-only at their own
	// path in every instance, whatever the mode. Each must be absolute
	// and exist when an instance is made; one that lies inside the
	// workspace is skipped. (A session's spill directory is mounted per
	// session: Scope.Spill.)
	ReadOnlyDirs []string
	// HostExec turns on host programs; nil leaves them off (a command
	// that is not a builtin exits 127).
	HostExec *HostExec
	// TmpSize bounds a call's private /tmp, which the guest holds in
	// memory and its host programs share; 0 means DefaultTmpSize.
	TmpSize int64
	// Notice, when set, is told (once, from the background compile) that
	// the guest is being compiled to native code rather than loaded from
	// the cache — seconds, not milliseconds — so a front end can say so
	// instead of staying silent (ColdCompileNotice is the text).
	Notice func(string)
}

// Host runs guest commands. There is one per process: it owns the wazero
// runtime, the compiled guest and the instance pools. All methods are
// safe for concurrent use.
type Host struct {
	cfg      Config
	embedded bool // the guest is the embedded shell (its hash is known without decompressing)

	warmOnce sync.Once
	started  atomic.Bool
	ready    chan struct{} // closed when compiled/compileErr are set
	running  chan struct{} // one token per command executing (MaxRunning)
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	err      error
	// interruptible: the compiled guest carries the interrupt global
	// (see sandbox/internal/wasmprep); otherwise wazero closes modules
	// when their context ends.
	interruptible bool

	// life is read-held by everything that executes guest code (a call,
	// an instantiation) and write-held by Close while it closes the
	// runtime: instance memory is unmapped on close, so the runtime must
	// not close under running code.
	life sync.RWMutex
	shut atomic.Bool

	hx *hostPrograms // nil: no host programs

	mu     sync.Mutex
	pools  map[poolKey]*pool
	quotas map[string]*rootfs.Quota
	// budgets are the sessions' host-program memory budgets (hostprogbudget.go).
	budgets map[string]*ramBudget
	// watch are the workspaces' write watchers (watch.go).
	watch watchers

	// listen, when set before the compile (tests only), observes the
	// guest's WASI calls.
	listen experimental.FunctionListenerFactory
}

// NewHost returns a Host; nothing is compiled until Warm or the first run.
func NewHost(cfg Config) *Host {
	if cfg.MemoryLimitPages == 0 {
		cfg.MemoryLimitPages = DefaultMemoryLimitPages
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = DefaultOutputLimit
	}
	embedded := cfg.Guest == nil
	if embedded {
		cfg.Guest = guestwasm.Wasm
	}
	if cfg.PoolSize == 0 {
		cfg.PoolSize = DefaultPoolSize
	}
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = runtime.GOMAXPROCS(0) * 4
	}
	if cfg.WriteQuota == 0 {
		cfg.WriteQuota = DefaultWriteQuota
	}
	if cfg.TmpSize <= 0 {
		cfg.TmpSize = DefaultTmpSize
	}
	cfg.Protected = append([]string(nil), cfg.Protected...)
	return &Host{cfg: cfg, embedded: embedded, ready: make(chan struct{}), running: make(chan struct{}, cfg.MaxRunning),
		pools: map[poolKey]*pool{}, quotas: map[string]*rootfs.Quota{}, hx: newHostPrograms(cfg.HostExec, cfg.TmpSize)}
}

// acquire takes one of the MaxRunning slots, waiting for it while ctx
// lasts. It returns the func that gives the slot back, or, when ctx ended
// first, the Outcome to report (timed out or cancelled, never run).
func (h *Host) acquire(ctx context.Context) (func(), *Outcome) {
	select {
	case h.running <- struct{}{}:
		return func() { <-h.running }, nil
	case <-ctx.Done():
		o := h.ctxEnded(ctx, Outcome{})
		o.Note += fmt.Sprintf(" before it started: all %d command slots were busy", h.cfg.MaxRunning)
		return nil, &o
	}
}

// Warm starts compiling the guest in the background and returns at once.
// Call it at process start so the first command does not pay for it.
func (h *Host) Warm() {
	h.warmOnce.Do(func() {
		h.started.Store(true)
		go h.compile()
		go removeStaleTmp(os.TempDir(), time.Now())
	})
}

// legacyTmpPrefix names the on-disk private /tmp directories earlier
// versions made for each instance (it is in memory now); a process killed
// while a command ran left its directory behind.
const legacyTmpPrefix = "ptc-sbx-tmp-"

// removeStaleTmp removes those directories once nothing can use them:
// the names carry no process id, so a day without change stands for a
// dead owner (a command runs for ten minutes at most).
func removeStaleTmp(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), legacyTmpPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > 24*time.Hour {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// Started reports whether the guest has begun loading (Warm, or a first
// command): a caller that loads it lazily can tell what a run cost.
func (h *Host) Started() bool { return h.started.Load() }

// Ready waits for the background compile and reports its error.
func (h *Host) Ready(ctx context.Context) error {
	h.Warm()
	select {
	case <-h.ready:
		return h.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Host) compile() {
	defer close(h.ready)
	ctx := context.Background()
	var dir string
	if !h.cfg.NoCache {
		var err error
		if dir, err = cacheDir(h.cfg.CacheDir); err != nil {
			h.err = err
			return
		}
	}
	wasm, cached, interruptible := h.prepared(dir)
	h.interruptible = interruptible
	mark := h.compiledMark(dir)
	cold := !markExists(mark)
	if cold && h.cfg.Notice != nil {
		h.cfg.Notice(ColdCompileNotice)
	}
	defer func() {
		if cold && h.err == nil && mark != "" {
			writeFileAtomic(mark, nil)
		}
	}()
	// wazero's WithCloseOnContextDone makes the guest 3-4x slower (it
	// leaves the compiled code at every Go function entry); the
	// interrupt global stops it as surely for the cost of a load.
	rc := wazero.NewRuntimeConfig().
		WithCloseOnContextDone(!h.interruptible).
		WithMemoryLimitPages(h.cfg.MemoryLimitPages)
	if dir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			h.err = fmt.Errorf("sandbox: opening the compile cache %s: %w", dir, err)
			return
		}
		rc = rc.WithCompilationCache(cache)
	}
	if h.listen != nil {
		ctx = experimental.WithFunctionListenerFactory(ctx, h.listen)
	}
	h.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, h.rt); err != nil {
		h.err = fmt.Errorf("sandbox: instantiating WASI: %w", err)
		return
	}
	if err := h.instantiateHostModule(ctx); err != nil {
		h.err = fmt.Errorf("sandbox: instantiating the host program functions: %w", err)
		return
	}
	cctx := experimental.WithCompilationWorkers(ctx, runtime.NumCPU())
	h.compiled, h.err = h.rt.CompileModule(cctx, wasm)
	if h.err != nil && cached != "" {
		// A damaged copy of the prepared guest: drop it and prepare anew.
		_ = os.Remove(cached)
		wasm, _, _ = h.prepared(dir)
		h.compiled, h.err = h.rt.CompileModule(cctx, wasm)
	}
	if h.err != nil {
		h.err = fmt.Errorf("sandbox: compiling the guest: %w", h.err)
	}
}

// cacheDir returns the compiled-code cache directory, created 0700.
func cacheDir(dir string) (string, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("sandbox: no user cache directory for compiled code (%v); set Config.CacheDir or NoCache", err)
		}
		dir = filepath.Join(base, "ptc", "wazero")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: creating the compile cache %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: securing the compile cache %s: %w", dir, err)
	}
	return dir, nil
}

// prepared returns the guest module after the wasmprep rewrites and
// whether it carries the interrupt global. Decompressing and rewriting
// the embedded guest costs about a quarter of a second, so with a cache
// directory the result is kept there beside the compiled code (same
// owner, same 0700 directory), keyed by the embedded module's hash and
// the rewrite version; only a module with the interrupt is kept. cached
// is the path the module was read from ("" when it was prepared now).
func (h *Host) prepared(dir string) (wasm []byte, cached string, interruptible bool) {
	var path string
	if dir != "" && h.embedded && guestwasm.WasmHash() != "" {
		path = filepath.Join(dir, "guest-"+guestwasm.WasmHash()+"-prep"+wasmprep.Version+".wasm")
		if b, err := os.ReadFile(path); err == nil {
			return b, path, true
		}
	}
	wasm = h.cfg.Guest()
	if merged, err := wasmprep.MergeData(wasm); err == nil {
		wasm = merged
	}
	inst, err := wasmprep.AddInterrupt(wasm)
	if err != nil {
		return wasm, "", false
	}
	if path != "" {
		writeFileAtomic(path, inst)
	}
	return inst, "", true
}

// writeFileAtomic writes b to path through a temporary file and a rename,
// so a concurrent reader never sees half a module. Failures only cost the
// next start the rewrite again.
func writeFileAtomic(path string, b []byte) {
	f, err := os.CreateTemp(filepath.Dir(path), ".prep-*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
}

// quota returns the write quota of a session's workspace (nil =
// unlimited), shared by every instance of that session.
func (h *Host) quota(key poolKey) *rootfs.Quota {
	if h.cfg.WriteQuota <= 0 {
		return nil
	}
	id := key.session + "\x00" + key.ws
	h.mu.Lock()
	defer h.mu.Unlock()
	q, ok := h.quotas[id]
	if !ok {
		q = rootfs.NewQuota(h.cfg.WriteQuota)
		h.quotas[id] = q
	}
	return q
}

// protected is the protected set instances apply in workspace-write.
func (h *Host) protected() []string {
	if len(h.cfg.Protected) > 0 {
		return h.cfg.Protected
	}
	return rootfs.DefaultProtected
}

// errHostClosed is returned for work asked of a closed Host.
var errHostClosed = errors.New("sandbox: the host is closed")

// enter registers guest work; the returned func ends it. It fails once
// Close has begun.
func (h *Host) enter() (func(), error) {
	h.life.RLock()
	if h.shut.Load() {
		h.life.RUnlock()
		return nil, errHostClosed
	}
	return h.life.RUnlock, nil
}

// tryEnter is enter for background work: it gives up at once when Close
// is waiting, so a refill never holds Close up.
func (h *Host) tryEnter() (func(), bool) {
	if !h.life.TryRLock() {
		return nil, false
	}
	if h.shut.Load() {
		h.life.RUnlock()
		return nil, false
	}
	return h.life.RUnlock, true
}

// Close drops every pooled instance, waits for running commands and
// instantiations to end, and closes the runtime. When ctx ends first it
// returns ctx's error and the runtime is closed once the work is done.
func (h *Host) Close(ctx context.Context) error {
	h.shut.Store(true)
	h.mu.Lock()
	pools := h.pools
	h.pools = map[poolKey]*pool{}
	h.mu.Unlock()
	for _, p := range pools {
		p.drain(ctx)
	}
	if !h.started.Load() {
		return nil
	}
	<-h.ready
	done := make(chan error, 1)
	go func() {
		h.life.Lock()
		defer h.life.Unlock()
		for _, p := range pools {
			p.drain(context.Background()) // refills that landed meanwhile
		}
		if h.rt == nil {
			done <- nil
			return
		}
		done <- h.rt.Close(context.Background())
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
