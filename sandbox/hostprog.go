package sandbox

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/internal/hostcompute"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// HostExec turns on host programs (Config.HostExec): a guest command that
// is neither a builtin nor a function runs as a host program under
// bubblewrap when the program is allowed and exists (see package
// hostexec and proto.HostModule).
type HostExec struct {
	// Programs are the allowed program names when a Scope names none;
	// nil means hostexec.DefaultPrograms.
	Programs []string
	// ReadOnly are extra host directories mounted read-only in every
	// host program's sandbox (toolchains outside the system roots); their
	// bin directories are searched for programs before PATH.
	ReadOnly []string
	// Bwrap and Root are as in hostexec.Config (its TmpSize is the
	// Host's Config.TmpSize: the programs share the guest's /tmp).
	Bwrap string
	Root  string
	// Limits bound each program (memory, tasks, CPU time); zero fields
	// mean hostexec's defaults.
	Limits hostexec.Limits
	// RAMBudget bounds what all of one session's host programs may hold
	// in their write layers, /tmp and /dev/shm at once; 0 means
	// DefaultRAMBudget.
	RAMBudget int64
	// Path is the search path ("" means the process's PATH, minus
	// entries under the user's HOME).
	Path string
}

// hostPrograms is the Host's part of host programs.
type hostPrograms struct {
	runner   *hostexec.Runner
	resolver *hostexec.Resolver // for HostExec.Programs
	readOnly []string
	pathEnv  string
	home     string
	extra    []string
	// ramBudget is each session's budget (HostExec.RAMBudget).
	ramBudget int64

	mu        sync.Mutex
	resolvers map[string]*hostexec.Resolver // by allow list, for Scope.Programs

	nets sessionNets
}

func newHostPrograms(cfg *HostExec, tmpSize int64) *hostPrograms {
	if cfg == nil {
		return nil
	}
	home := hostexec.UserHome()
	pathEnv := cfg.Path
	if pathEnv == "" {
		pathEnv = os.Getenv("PATH")
	}
	var extraBins []string
	for _, d := range cfg.ReadOnly {
		extraBins = append(extraBins, filepath.Join(d, "bin"))
	}
	budget := cfg.RAMBudget
	if budget <= 0 {
		budget = DefaultRAMBudget
	}
	return &hostPrograms{
		runner:   hostexec.NewRunner(hostexec.Config{Bwrap: cfg.Bwrap, Root: cfg.Root, TmpSize: tmpSize, Limits: cfg.Limits}),
		resolver: hostexec.NewResolver(cfg.Programs, pathEnv, home, extraBins),
		readOnly: append([]string(nil), cfg.ReadOnly...),
		pathEnv:  pathEnv, home: home, extra: extraBins, ramBudget: budget,
		resolvers: map[string]*hostexec.Resolver{},
	}
}

// resolverFor is the resolver of a scope's allow list (nil: the Host's).
func (hp *hostPrograms) resolverFor(programs []string) *hostexec.Resolver {
	if programs == nil {
		return hp.resolver
	}
	key := strings.Join(programs, "\x00") + "\x01" // an empty list differs from nil
	hp.mu.Lock()
	defer hp.mu.Unlock()
	r, ok := hp.resolvers[key]
	if !ok {
		r = hostexec.NewResolver(programs, hp.pathEnv, hp.home, hp.extra)
		hp.resolvers[key] = r
	}
	return r
}

// hostOffNote is lookup's answer when the Host has no host programs.
const hostOffNote = "host programs are not enabled for this sandbox"

// lookup says whether name runs as a host program under the allow list
// programs (nil: the Host's), and where.
func (hp *hostPrograms) lookup(programs []string, name string) (path, root string, err error) {
	if hp == nil {
		return "", "", errors.New(hostOffNote)
	}
	path, root, err = hp.resolverFor(programs).Lookup(name)
	if err != nil {
		return "", "", err
	}
	if err := hp.runner.Available(); err != nil {
		return "", "", err
	}
	return path, root, nil
}

// procTable holds an instance's running host programs.
type procTable struct {
	mu   sync.Mutex
	next uint32
	m    map[uint32]*hostProc
	wake chan struct{} // something happened to one of them
}

func (t *procTable) signal() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

func (t *procTable) get(h uint32) *hostProc {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[h]
}

// killAll stops every program still running (the call ended without
// closing them) and waits for them.
func (t *procTable) killAll() {
	t.mu.Lock()
	procs := t.m
	t.m = nil
	t.mu.Unlock()
	for _, p := range procs {
		p.cancel()
		<-p.done
	}
}

// instanceKey finds the instance a host function call belongs to: call
// and warmUp put it in the context they call the guest with.
type instanceKey struct{}

func instanceOf(ctx context.Context) *instance {
	in, _ := ctx.Value(instanceKey{}).(*instance)
	return in
}

// instantiateHostModule registers the functions of proto.HostModule.
func (h *Host) instantiateHostModule(ctx context.Context) error {
	i32 := api.ValueTypeI32
	b := h.rt.NewHostModuleBuilder(proto.HostModule)
	fn := func(name string, f api.GoModuleFunc, params int) {
		ps := make([]api.ValueType, params)
		for i := range ps {
			ps[i] = i32
		}
		b.NewFunctionBuilder().WithGoModuleFunction(f, ps, []api.ValueType{i32}).Export(name)
	}
	fn("lookup", h.hostLookup, 4)
	fn("exec_start", h.execStart, 4)
	fn("exec_io", h.execIO, 10)
	fn("exec_close", h.execClose, 1)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(hostcompute.Digest), hostcompute.DigestParams, []api.ValueType{i32}).Export(proto.DigestFunc)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(hostcompute.Deflate), hostcompute.DeflateParams, []api.ValueType{i32}).Export(proto.DeflateFunc)
	_, err := b.Instantiate(ctx)
	return err
}

// answer writes text into the guest buffer (out, cap) and returns n or
// -n, the encoding lookup and exec_start use.
func answer(mod api.Module, out, capacity uint32, text string, ok bool) uint64 {
	b := []byte(text)
	if len(b) > int(capacity) {
		b = b[:capacity]
	}
	if !mod.Memory().Write(out, b) {
		return uint64(uint32(0xffffffff)) // -1: the buffer is not in memory
	}
	n := int32(len(b))
	if !ok {
		n = -n
		if n == 0 {
			n = -1
		}
	}
	return uint64(uint32(n))
}

func readString(mod api.Module, ptr, n uint32) (string, bool) {
	b, ok := mod.Memory().Read(ptr, n)
	return string(b), ok
}

func (h *Host) hostLookup(ctx context.Context, mod api.Module, stack []uint64) {
	name, ok := readString(mod, uint32(stack[0]), uint32(stack[1]))
	var programs []string
	if in := instanceOf(ctx); in != nil {
		if cur := in.cur.Load(); cur != nil {
			programs = cur.programs
		}
	}
	path, _, err := h.hx.lookup(programs, name)
	switch {
	case !ok:
		stack[0] = answer(mod, uint32(stack[2]), uint32(stack[3]), "bad name", false)
	case err != nil:
		stack[0] = answer(mod, uint32(stack[2]), uint32(stack[3]), err.Error(), false)
	default:
		stack[0] = answer(mod, uint32(stack[2]), uint32(stack[3]), path, true)
	}
}

func (h *Host) execStart(ctx context.Context, mod api.Module, stack []uint64) {
	out, capacity := uint32(stack[2]), uint32(stack[3])
	in := instanceOf(ctx)
	raw, ok := mod.Memory().Read(uint32(stack[0]), uint32(stack[1]))
	var req proto.ExecRequest
	if in == nil || !ok || json.Unmarshal(raw, &req) != nil || len(req.Args) == 0 {
		stack[0] = answer(mod, out, capacity, "malformed host program request", false)
		return
	}
	handle, err := h.startProc(ctx, in, req)
	if err != nil {
		stack[0] = answer(mod, out, capacity, err.Error(), false)
		return
	}
	stack[0] = uint64(handle)
}

// startProc starts one host program for the instance's current call.
func (h *Host) startProc(ctx context.Context, in *instance, req proto.ExecRequest) (uint32, error) {
	cur := in.cur.Load()
	if cur == nil {
		return 0, errors.New("no call is running")
	}
	path, root, err := h.hx.lookup(cur.programs, req.Args[0])
	if err != nil {
		return 0, err
	}
	ws := in.key.ws
	dir := filepath.Clean(req.Dir)
	if !within(dir, ws) && !within(dir, "/tmp") {
		return 0, fmt.Errorf("host programs run inside the workspace (%s) or /tmp, not in %s", ws, dir)
	}
	pctx, cancel := context.WithCancel(cur.ctx)
	p := &hostProc{cancel: cancel, done: make(chan struct{})}
	wake := in.procs.signal
	spec, ap, tmpAp, release, err := h.programSpec(in.key, in.fs, in.tmp, hostCall{path: path, root: root, args: req.Args, env: req.Env, dir: dir,
		network: cur.network, programs: cur.programs, notes: cur.out.Stderr()})
	if err != nil {
		cancel()
		return 0, err
	}
	var closers []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			closers = append(closers, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (uint32, error) {
		cancel()
		release()
		for _, f := range closers {
			f.Close()
		}
		return 0, err
	}
	// stdin: always fed by the guest (it may be a pipeline's output).
	sr, sw, err := pipe()
	if err != nil {
		return fail(err)
	}
	spec.Stdin = sr
	p.stdin = newFeed(sw, wake)
	var outW *os.File
	switch req.Stdout {
	case proto.StreamDirect:
		spec.Stdout = cur.out.Stdout()
	default:
		r, w, err := pipe()
		if err != nil {
			return fail(err)
		}
		spec.Stdout, outW = w, w
		p.stdout = newCapture(r, wake)
	}
	switch req.Stderr {
	case proto.StreamDirect:
		spec.Stderr = cur.out.Stderr()
	case proto.StreamStdout:
		spec.Stderr = spec.Stdout
	default:
		r, w, err := pipe()
		if err != nil {
			return fail(err)
		}
		spec.Stderr = w
		p.stderr = newCapture(r, wake)
	}
	go func() {
		defer wake() // after done is closed: a waiting exec_io must see it
		defer close(p.done)
		defer release()
		p.res, p.err = h.hx.runner.Run(pctx, spec)
		if spec.Writable {
			ap.finish()
			in.fs.Invalidate()
		}
		tmpAp.finish()
		// The program's ends of the pipes close with the process; ours
		// (given to bwrap) close here so the captures see EOF.
		sr.Close()
		if outW != nil {
			outW.Close()
		}
		if w, ok := spec.Stderr.(*os.File); ok && w != outW {
			w.Close()
		}
		p.stdin.stop()
		for _, a := range []*applier{ap, tmpAp} {
			if note := a.note(req.Args[0]); note != "" {
				fmt.Fprintf(cur.out.Stderr(), "ptc: %s\n", note)
			}
		}
		if p.err != nil {
			fmt.Fprintf(cur.out.Stderr(), "%s: %v\n", req.Args[0], p.err)
		}
	}()
	in.procs.mu.Lock()
	defer in.procs.mu.Unlock()
	if in.procs.m == nil {
		in.procs.m = map[uint32]*hostProc{}
	}
	in.procs.next++
	in.procs.m[in.procs.next] = p
	return in.procs.next, nil
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// programEnv is a host program's environment: the guest's exported
// variables, with HOME, PATH, PWD and TMPDIR set for the sandbox and the
// build caches pointed into the workspace's cache directory unless the
// guest set them (see hostexec.Dirs).
func programEnv(guest []string, dirs hostexec.Dirs, dir string, path []string) []string {
	env := map[string]string{}
	var order []string
	set := func(k, v string, force bool) {
		if _, ok := env[k]; !ok {
			order = append(order, k)
		} else if !force {
			return
		}
		env[k] = v
	}
	for _, kv := range guest {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			set(k, v, true)
		}
	}
	home, cache := dirs.Home, dirs.Cache
	set("HOME", home, true)
	set("PATH", strings.Join(path, ":"), true)
	set("PWD", dir, true)
	set("TMPDIR", "/tmp", true)
	for _, d := range [][2]string{
		{"XDG_CACHE_HOME", cache}, {"GOPATH", home + "/go"}, {"GOCACHE", cache + "/go-build"},
		{"GOMODCACHE", cache + "/go-mod"}, {"GOTOOLCHAIN", "local"}, {"npm_config_cache", cache + "/npm"},
		{"npm_config_update_notifier", "false"}, {"YARN_CACHE_FOLDER", cache + "/yarn"}, {"PIP_CACHE_DIR", cache + "/pip"},
		{"CARGO_HOME", cache + "/cargo"}, {"PYTHONDONTWRITEBYTECODE", "1"},
	} {
		set(d[0], d[1], false)
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+"="+env[k])
	}
	return out
}

// protectedInView lists the protected paths (patterns) that exist at the
// top of the workspace, for the program's view to show them read-only
// (the apply step refuses changes to any protected path, wherever it is).
func protectedInView(ws string, mode Mode, patterns []string) []string {
	var out []string
	for _, name := range patterns {
		name = strings.TrimSuffix(name, "/**")
		if name == ".git" && mode == GitWrite {
			for _, kept := range rootfs.GitWriteKept {
				kept = strings.TrimSuffix(kept, "/**")
				if _, err := os.Lstat(filepath.Join(ws, kept)); err == nil {
					out = append(out, kept)
				}
			}
			continue
		}
		if _, err := os.Lstat(filepath.Join(ws, name)); err == nil {
			out = append(out, name)
		}
	}
	return out
}

// layerSize bounds a host program's write layer: what the session's
// quota has left plus room for copies of files it changes in place,
// within limits that keep a program from holding gigabytes of memory.
func layerSize(fs *rootfs.FS) int64 {
	const slack, least, most = 256 << 20, 64 << 20, 8 << 30
	return min(max(fs.QuotaRemaining()+slack, least), most)
}

func (h *Host) execIO(ctx context.Context, mod api.Module, stack []uint64) {
	in := instanceOf(ctx)
	var p *hostProc
	if in != nil {
		p = in.procs.get(uint32(stack[0]))
	}
	if p == nil {
		stack[0] = uint64(uint32(0xffffffff))
		return
	}
	mem := mod.Memory()
	inData, ok1 := mem.Read(uint32(stack[1]), uint32(stack[2]))
	flags := uint32(stack[3])
	outBuf, ok2 := mem.Read(uint32(stack[4]), uint32(stack[5]))
	errBuf, ok3 := mem.Read(uint32(stack[6]), uint32(stack[7]))
	wait := time.Duration(uint32(stack[8])) * time.Millisecond
	if !ok1 || !ok2 || !ok3 {
		stack[0] = uint64(uint32(0xffffffff))
		return
	}
	var accepted, nOut, nErr int
	if p.stdin != nil {
		accepted = p.stdin.offer(inData, flags&proto.ExecStdinEOF != 0)
	}
	if flags&proto.ExecStdoutGone != 0 {
		p.stdout.abandon()
	}
	if flags&proto.ExecStderrGone != 0 {
		p.stderr.abandon()
	}
	for try := 0; ; try++ {
		nOut, nErr = p.stdout.take(outBuf), p.stderr.take(errBuf)
		if accepted > 0 || nOut > 0 || nErr > 0 || p.exited() || wait <= 0 || try > 0 {
			break
		}
		t := time.NewTimer(wait)
		select {
		case <-in.procs.wake:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	var res [proto.ExecResultWords * 4]byte
	exited := p.exited()
	code := 0
	if exited {
		code = exitStatus(p)
	}
	for i, v := range []int{accepted, nOut, nErr, boolInt(exited), code} {
		binary.LittleEndian.PutUint32(res[i*4:], uint32(v))
	}
	if !mem.Write(uint32(stack[9]), res[:]) || ctx.Err() != nil {
		stack[0] = uint64(uint32(0xffffffff))
		return
	}
	stack[0] = 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// exitStatus is the status the guest's shell sees: the program's, 126
// when the sandbox could not run it.
func exitStatus(p *hostProc) int {
	switch {
	case p.err != nil:
		return 126
	case p.res.ExitCode < 0:
		return ExitStopped
	}
	return p.res.ExitCode
}

func (h *Host) execClose(ctx context.Context, mod api.Module, stack []uint64) {
	in := instanceOf(ctx)
	if in == nil {
		stack[0] = uint64(uint32(0xffffffff))
		return
	}
	handle := uint32(stack[0])
	in.procs.mu.Lock()
	p := in.procs.m[handle]
	delete(in.procs.m, handle)
	in.procs.mu.Unlock()
	if p == nil {
		stack[0] = uint64(uint32(0xffffffff))
		return
	}
	select {
	case <-p.done:
	default:
		p.cancel()
		<-p.done
	}
	p.stdout.abandon()
	p.stderr.abandon()
	stack[0] = uint64(uint32(exitStatus(p)))
}
