package sandbox

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/experimental/sysfs"

	"github.com/ptc-dev/ptc/sandbox/internal/wasmprep"
	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// callIO is what one call on an instance reads and writes. Instances are
// configured once at instantiation, so their stdin, stdout, stderr and
// sleep go through the instance and reach whichever call is current.
type callIO struct {
	ctx      context.Context
	stdin    io.Reader
	out      *output
	network  bool     // host programs may use the network
	programs []string // the host programs allowed (nil: the Host's list)
}

// instance is one instantiated, initialised guest with its own mounts.
type instance struct {
	key   poolKey
	procs procTable
	mod   api.Module
	run   api.Function
	fs    *rootfs.FS
	tmp   *memfs.FS    // the private /tmp, in memory
	extra []*rootfs.FS // Config.ReadOnlyDirs and the session's spill
	cur   atomic.Pointer[callIO]
	// stop is the guest's interrupt global (nil when the host relies on
	// wazero's WithCloseOnContextDone instead).
	stop api.MutableGlobal
	// reset is the guest's proto.ExportReset (nil: never reused); base is
	// the instance as it was when ready, uses the commands it has served.
	reset api.Function
	base  baseline
	uses  int
}

// baseline is what an instance looked like once warmed up; a command that
// leaves it otherwise (a goroutine still alive, a file still open, memory
// grown far) makes it unfit for another command.
type baseline struct {
	goroutines int32
	open       int // files open through the workspace and read-only mounts
	tmpOpen    int // files open in the private /tmp
	memory     uint32
}

// stopOnDone arranges for the guest to be stopped when ctx ends. The
// returned func must be called once the call has returned: it cancels
// the arrangement, or waits for a stop already under way and clears it,
// so an instance that finished in time stays usable.
func (in *instance) stopOnDone(ctx context.Context) func() {
	if in.stop == nil {
		return func() {}
	}
	fired := make(chan struct{})
	after := context.AfterFunc(ctx, func() {
		defer close(fired)
		in.stop.Set(1)
	})
	return func() {
		if !after() {
			<-fired
			in.stop.Set(0)
		}
	}
}

func (in *instance) Read(p []byte) (int, error) {
	if c := in.cur.Load(); c != nil {
		return c.stdin.Read(p)
	}
	return 0, io.EOF
}

type instanceStream struct {
	in     *instance
	stderr bool
}

func (s instanceStream) Write(p []byte) (int, error) {
	c := s.in.cur.Load()
	if c == nil {
		return len(p), nil
	}
	if s.stderr {
		return c.out.Stderr().Write(p)
	}
	return c.out.Stdout().Write(p)
}

// sleep is the guest's nanosleep: real time, but it returns as soon as the
// current call's context ends (wazero's WithSysNanosleep would not).
func (in *instance) sleep(ns int64) {
	ctx := context.Background()
	if c := in.cur.Load(); c != nil {
		ctx = c.ctx
	}
	t := time.NewTimer(time.Duration(ns))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// baseEnv is the whole environment a guest sees: an allowlist, nothing
// from the host process.
func baseEnv(workspace, cwd string) map[string]string {
	return map[string]string{
		"PATH":   "/usr/bin:/bin",
		"HOME":   workspace,
		"PWD":    cwd,
		"TMPDIR": "/tmp",
		"LANG":   "C.UTF-8",
		"TERM":   "dumb",
	}
}

// guestRuntimeEnv configures the guest's Go runtime through its WASI
// environment, which the runtime reads when the module starts (the
// shell's own variables come with each request, so scripts never see
// these). gcstoptheworld=1: on wasip1 the background mark worker runs only
// when the one goroutine blocks, and a loop of builtins never blocks, so
// with the GC CPU limiter turning assists off a concurrent collection
// never finished and the heap grew to the memory cap (RATIONALE, "The
// guest's collector stops the world"). GOGC=400 with GOMEMLIMIT at three
// quarters of the instance's memory: collections are a fifth as frequent
// while the heap is small (jq and sort over the workload's files ~10 %
// faster), and the limit makes the collector work harder, not the heap
// grow, as it nears the cap (the rest of linear memory is the module's
// data and the stacks). GOTRACEBACK=none: when the guest runs out of
// memory the runtime prints two lines, not every goroutine's stack with
// its addresses; the host replaces those with one sentence
// (Host.outOfMemory).
func guestRuntimeEnv(memoryPages uint32) map[string]string {
	return map[string]string{
		"GODEBUG":     "gcstoptheworld=1",
		"GOTRACEBACK": "none",
		"GOGC":        "400",
		"GOMEMLIMIT":  fmt.Sprintf("%dMiB", memoryPages/16*3/4),
	}
}

// readOnlyDirs are the directories mounted read-only for key beside the
// workspace and /tmp: Config.ReadOnlyDirs and the session's spill, less
// those the workspace or /tmp already hold.
func (h *Host) readOnlyDirs(key poolKey) []string {
	dirs := h.cfg.ReadOnlyDirs
	if key.spill != "" {
		dirs = append(append([]string(nil), dirs...), key.spill)
	}
	var out []string
	for _, dir := range dirs {
		if dir == key.ws || dir == "/tmp" || strings.HasPrefix(dir, key.ws+string(filepath.Separator)) {
			continue
		}
		out = append(out, dir)
	}
	return out
}

// workspaceOptions are the rootfs options of key's workspace mount.
func (h *Host) workspaceOptions(key poolKey) rootfs.Options {
	opts := rootfs.Options{ReadOnly: key.mode == ReadOnly, GitWrite: key.mode == GitWrite, MaxOpen: h.cfg.MaxOpen, Quota: h.quota(key)}
	opts.Protected = h.protected()
	if key.mode == DangerFullAccess {
		opts.Protected = []string{}
	}
	if !opts.ReadOnly {
		opts.Before = h.notifier(key.ws)
	}
	return opts
}

// newInstance instantiates the compiled guest for key and runs its
// _initialize, ready for one ptc_run.
func (h *Host) newInstance(ctx context.Context, key poolKey) (*instance, error) {
	if err := h.Ready(ctx); err != nil {
		return nil, err
	}
	in := &instance{key: key, procs: procTable{wake: make(chan struct{}, 1)}}
	var err error
	if in.fs, err = rootfs.New(key.ws, h.workspaceOptions(key)); err != nil {
		return nil, fmt.Errorf("sandbox: opening workspace %s: %w", key.ws, err)
	}
	in.tmp = memfs.New(h.cfg.TmpSize, h.cfg.MaxOpen)
	fsc := wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(in.fs, key.ws)
	if key.ws != "/tmp" {
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(in.tmp, "/tmp")
	}
	for _, dir := range h.readOnlyDirs(key) {
		extra, err := rootfs.New(dir, rootfs.Options{ReadOnly: true, MaxOpen: h.cfg.MaxOpen})
		if err != nil {
			in.release()
			return nil, fmt.Errorf("sandbox: opening the read-only mount %s: %w", dir, err)
		}
		in.extra = append(in.extra, extra)
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(extra, dir)
	}
	mc := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithStdin(in).
		WithStdout(instanceStream{in, false}).
		WithStderr(instanceStream{in, true}).
		WithFSConfig(fsc).
		WithSysWalltime().
		WithSysNanotime().
		WithNanosleep(in.sleep).
		WithRandSource(crand.Reader)
	for k, v := range baseEnv(key.ws, key.ws) {
		mc = mc.WithEnv(k, v)
	}
	for k, v := range guestRuntimeEnv(h.cfg.MemoryLimitPages) {
		mc = mc.WithEnv(k, v)
	}
	in.mod, err = h.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, mmapAllocator), h.compiled, mc)
	if err != nil {
		in.release()
		return nil, fmt.Errorf("sandbox: starting a guest instance: %w", err)
	}
	if in.run = in.mod.ExportedFunction(proto.ExportRun); in.run == nil {
		in.release()
		return nil, fmt.Errorf("sandbox: the guest does not export %s", proto.ExportRun)
	}
	if h.interruptible {
		g, ok := in.mod.ExportedGlobal(wasmprep.Export).(api.MutableGlobal)
		if !ok {
			in.release()
			return nil, fmt.Errorf("sandbox: the instrumented guest lacks its %s global", wasmprep.Export)
		}
		in.stop = g
	}
	if err := in.warmUp(ctx, key); err != nil {
		in.release()
		return nil, err
	}
	if in.reset = in.mod.ExportedFunction(proto.ExportReset); in.reset != nil {
		n, ok := in.goroutines(ctx)
		if !ok {
			in.release()
			return nil, fmt.Errorf("sandbox: the guest's %s failed after warm-up", proto.ExportReset)
		}
		in.base = baseline{goroutines: n, open: in.openFiles(), tmpOpen: in.tmp.OpenFiles(), memory: in.mod.Memory().Size()}
	}
	return in, nil
}

// warmUp runs a no-op shell command (":") once while the instance is still being
// prepared. The guest's first ptc_run pays for one-time work — decoding
// its first JSON request, building the interpreter's tables — that costs
// about 2 ms in a Go guest; doing it here keeps it off the command's
// critical path. The request touches no file, so no state reaches the
// real command beyond what _initialize already set up.
//
// Its output is discarded and its exit status ignored (a guest without a
// shell just reports an unknown command); only a trap fails the instance.
func (in *instance) warmUp(ctx context.Context, key poolKey) error {
	req, err := json.Marshal(proto.Request{Op: proto.OpShell, Command: ":", Cwd: key.ws, Env: baseEnv(key.ws, key.ws)})
	if err != nil {
		return err
	}
	in.cur.Store(&callIO{ctx: ctx, stdin: bytes.NewReader(req), out: newOutput(64<<10, nil)})
	defer in.cur.Store(nil)
	if _, err := in.run.Call(context.WithValue(ctx, instanceKey{}, in)); err != nil || in.mod.IsClosed() {
		return fmt.Errorf("sandbox: warming up a guest instance for %s: %v", key.ws, err)
	}
	return nil
}

// Limits of instance reuse (see recycle).
const (
	maxUses        = 1000     // commands one instance serves at most
	maxGrowth      = 32 << 20 // bytes its memory may have grown since warm-up
	resetTimeout   = time.Second
	maxResetOutput = 4 << 10
)

// recycle decides whether the instance may serve another one-off command
// of its pool key after the command that ended with o and err, and if so
// puts it back as it was when ready: the guest's working directory reset
// (ptc_reset) and the private /tmp emptied. The interpreter itself is new
// for every one-off command, so variables, functions, aliases, options
// and traps never carry over; what could (a background job still running,
// a file left open, memory grown far, a guest that was stopped, crashed
// or ran out of memory) makes the instance unfit, and it is discarded.
func (in *instance) recycle(o Outcome, err error) bool {
	if in.reset == nil || err != nil || in.mod.IsClosed() || in.uses+1 >= maxUses ||
		o.TimedOut || o.Truncated || o.ExitCode == ExitStopped || o.ExitCode == ExitOutOfMemory || o.ExitCode == ExitCrashed {
		return false
	}
	if in.mod.Memory().Size() > in.base.memory+maxGrowth {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), resetTimeout)
	defer cancel()
	if n, ok := in.goroutines(ctx); !ok || n > in.base.goroutines {
		return false
	}
	if in.openFiles() > in.base.open || in.tmp.OpenFiles() > in.base.tmpOpen {
		return false
	}
	in.tmp.Reset()
	in.uses++
	return true
}

// goroutines calls ptc_reset and returns the goroutines alive in the
// guest. A background job may run while it does; what it prints is
// dropped, and ctx (with the interrupt) bounds it.
func (in *instance) goroutines(ctx context.Context) (int32, bool) {
	in.cur.Store(&callIO{ctx: ctx, stdin: bytes.NewReader(nil), out: newOutput(maxResetOutput, nil)})
	defer in.cur.Store(nil)
	settled := in.stopOnDone(ctx)
	res, err := in.reset.Call(context.WithValue(ctx, instanceKey{}, in))
	settled()
	in.procs.killAll()
	if err != nil || len(res) == 0 || in.mod.IsClosed() {
		return 0, false
	}
	return int32(uint32(res[0])), true
}

// openFiles counts the files open through the instance's host mounts.
func (in *instance) openFiles() int {
	n := in.fs.OpenFiles()
	for _, fs := range in.extra {
		n += fs.OpenFiles()
	}
	return n
}

// release closes the module and the mounts and removes the private /tmp.
func (in *instance) release() {
	if in.mod != nil {
		_ = in.mod.Close(context.Background())
	}
	if in.fs != nil {
		_ = in.fs.Close()
	}
	for _, fs := range in.extra {
		_ = fs.Close()
	}
}
