package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/sys"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Exit codes the host assigns when the guest did not finish by itself.
const (
	ExitTimedOut    = 124 // the context deadline ended the command (as timeout(1))
	ExitStopped     = 125 // output limit reached or the context was cancelled
	ExitOutOfMemory = 137 // the guest exhausted its memory limit
	ExitCrashed     = 134 // the guest trapped (a bug in the sandbox shell), as SIGABRT would
	ExitTooLong     = 126 // the command's text or stdin is past MaxCommandBytes (bash's E2BIG status)
)

// MaxCommandBytes caps a request's command text and its stdin, each: a
// script is parsed whole in the guest's 256 MiB, so a larger one would
// end in an out-of-memory stop after the parse had eaten the budget; this
// refuses it first, with one sentence. 4 MiB holds any script an agent
// writes, here-documents of large files included.
const MaxCommandBytes = 4 << 20

// tooLong is the Outcome of a request past MaxCommandBytes, or nil.
func tooLong(req proto.Request) *Outcome {
	what, n := "command", len(req.Command)
	if len(req.Stdin) > n {
		what, n = "standard input", len(req.Stdin)
	}
	if n <= MaxCommandBytes {
		return nil
	}
	return &Outcome{ExitCode: ExitTooLong, Note: fmt.Sprintf("the %s is %d bytes, past the sandbox's limit of %d (4 MiB); it was not run", what, n, MaxCommandBytes)}
}

// Outcome is what one command produced. A command that failed, timed out
// or was cut off is still an Outcome; only broken plumbing is an error.
type Outcome struct {
	ExitCode  int
	Stdout    []byte
	Stderr    []byte
	Truncated bool // output limit reached; the command was stopped
	TimedOut  bool // the context deadline stopped the command
	Host      bool // ran with the host's /bin/bash (danger-full-access)
	// QuotaHit is set when the session's workspace write quota refused a
	// write during the command (Note says so too).
	QuotaHit bool
	Note     string
}

// GuestError reports that the guest itself broke (a trap, or a file op
// that did not answer): a bug, not a command failure.
type GuestError struct{ Err error }

func (e *GuestError) Error() string { return "sandbox guest failed: " + e.Err.Error() }
func (e *GuestError) Unwrap() error { return e.Err }

// Scope says where and for whom a command runs.
type Scope struct {
	Workspace string // absolute
	Mode      Mode
	// Session keys the write quota and the spill mount; "" shares one
	// scope per workspace.
	Session string
	// Spill is the session's spill directory (results too large for the
	// model's context), mounted read-only for this session only; "" for
	// none. It must be absolute.
	Spill string
	// Network lets host programs reach the network (they never can
	// otherwise; the guest itself never can).
	Network bool
	// Programs are the host programs allowed (a preset's list); nil means
	// the Host's (HostExec.Programs), empty allows none.
	Programs []string
}

// Run performs one request in a guest instance of the pool of (workspace,
// mode) — one that served earlier commands of that key and was reset, or
// a fresh one — with the workspace mounted for mode. ctx bounds the run:
// its deadline ends the command.
func (h *Host) Run(ctx context.Context, workspace string, mode Mode, req proto.Request) (Outcome, error) {
	return h.RunIn(ctx, Scope{Workspace: workspace, Mode: mode}, req)
}

// RunIn is Run for a full Scope.
func (h *Host) RunIn(ctx context.Context, scope Scope, req proto.Request) (Outcome, error) {
	key, err := newKey(scope)
	if err != nil {
		return Outcome{}, err
	}
	leave, err := h.enter()
	if err != nil {
		return Outcome{}, err
	}
	defer leave()
	done, busy := h.acquire(ctx)
	if busy != nil {
		return *busy, nil
	}
	defer done()
	p := h.pool(key)
	in, err := p.lend(ctx)
	if err != nil {
		return Outcome{}, err
	}
	start := time.Now()
	o, err := h.call(ctx, in, key, callOptions{network: scope.Network, programs: scope.Programs}, req)
	p.giveBack(in, o, err, time.Since(start))
	return o, err
}

func newKey(s Scope) (poolKey, error) {
	if !filepath.IsAbs(s.Workspace) {
		return poolKey{}, fmt.Errorf("sandbox: workspace %q must be an absolute path", s.Workspace)
	}
	if s.Mode.rank() < 0 {
		return poolKey{}, fmt.Errorf("sandbox: unknown mode %q", s.Mode)
	}
	if s.Spill != "" && !filepath.IsAbs(s.Spill) {
		return poolKey{}, fmt.Errorf("sandbox: spill directory %q must be an absolute path", s.Spill)
	}
	key := poolKey{ws: filepath.Clean(s.Workspace), mode: s.Mode, session: s.Session}
	if s.Spill != "" {
		key.spill = filepath.Clean(s.Spill)
	}
	return key, nil
}

// call runs req on in. The instance is unusable afterwards unless the
// returned dead flag is false (persistent shells reuse it).
// callOptions are the parts of a Scope that do not shape an instance.
type callOptions struct {
	network  bool
	programs []string
	sink     io.Writer // RunStream's writer; nil collects and caps the output
}

func (h *Host) call(ctx context.Context, in *instance, key poolKey, opts callOptions, req proto.Request) (Outcome, error) {
	if o := tooLong(req); o != nil {
		return *o, nil
	}
	if req.Cwd == "" {
		req.Cwd = key.ws
	}
	if req.Env == nil {
		req.Env = baseEnv(key.ws, req.Cwd)
	}
	stdin, err := json.Marshal(req)
	if err != nil {
		return Outcome{}, fmt.Errorf("sandbox: encoding the request: %w", err)
	}
	in.fs.Invalidate() // a persistent shell's cache may be stale by now
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := newOutput(h.cfg.OutputLimit, func() { cancel(errOutputLimit) })
	if opts.sink != nil {
		out = newSinkOutput(opts.sink)
	}
	in.cur.Store(&callIO{ctx: cctx, stdin: bytes.NewReader(stdin), out: out, network: opts.network, programs: opts.programs})
	defer in.cur.Store(nil)

	settled := in.stopOnDone(cctx)
	res, callErr := in.run.Call(context.WithValue(cctx, instanceKey{}, in))
	settled()
	in.procs.killAll() // programs the guest did not close (it was stopped)
	o := Outcome{}
	o.Stdout, o.Stderr, o.Truncated = out.result()
	o, err = h.settle(ctx, o, res, callErr)
	var ge *GuestError
	if errors.As(err, &ge) && req.Op == proto.OpShell {
		o, err = crashed(o, ge), nil
	}
	if in.fs.TakeQuotaHit() {
		o.QuotaHit = true
		o.Note = joinNote(o.Note, quotaRoom(in.fs)+"; remove files the session made, or ask the user for a larger quota")
	}
	if key.mode == GitWrite {
		if notes := in.fs.DisarmGitState(); len(notes) > 0 {
			o.Note = joinNote(o.Note, strings.Join(notes, "; "))
		}
	}
	return o, err
}

// crashed is the Outcome of a shell command during which the guest
// trapped: a failed command (ExitCrashed) with the output it printed
// before the trap and a note saying what happened, not a broken call, so
// the model sees both and the host goes on. The instance is not reused.
func crashed(o Outcome, ge *GuestError) Outcome {
	msg, _, _ := strings.Cut(ge.Err.Error(), "\n")
	o.ExitCode = ExitCrashed
	o.Note = joinNote(o.Note, "the sandbox shell crashed ("+msg+"); the output above is what the command printed before it; the shell was restarted")
	return o
}

// joinNote appends b to the note a.
func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

var errOutputLimit = errors.New("output limit reached")

// settle maps how the call ended onto the Outcome.
func (h *Host) settle(ctx context.Context, o Outcome, res []uint64, callErr error) (Outcome, error) {
	if callErr == nil {
		if len(res) > 0 {
			o.ExitCode = int(int32(uint32(res[0])))
		}
		return o, nil
	}
	var exit *sys.ExitError
	if !errors.As(callErr, &exit) {
		// The Go runtime aborts (a trap) when memory.grow fails at the limit.
		if bytes.Contains(o.Stderr, []byte("out of memory")) {
			return h.outOfMemory(o), nil
		}
		if o.Truncated {
			o.ExitCode, o.Note = ExitStopped, h.limitNote()
			return o, nil
		}
		if ctx.Err() != nil {
			return h.ctxEnded(ctx, o), nil
		}
		return o, &GuestError{callErr}
	}
	switch {
	case o.Truncated:
		o.ExitCode, o.Note = ExitStopped, h.limitNote()
	case exit.ExitCode() == sys.ExitCodeDeadlineExceeded || exit.ExitCode() == sys.ExitCodeContextCanceled:
		o = h.ctxEnded(ctx, o)
	case bytes.Contains(o.Stderr, []byte("out of memory")):
		o = h.outOfMemory(o)
	default:
		o.ExitCode = int(exit.ExitCode())
	}
	return o, nil
}

func (h *Host) outOfMemory(o Outcome) Outcome {
	o.Stderr = cutRuntimeText(o.Stderr)
	o.ExitCode = ExitOutOfMemory
	o.Note = fmt.Sprintf("the command ran out of memory (limit %d MiB) and was stopped", h.cfg.MemoryLimitPages/16)
	return o
}

// runtimeOOM are the lines the guest's Go runtime prints when an
// allocation fails at the memory cap.
var runtimeOOM = [][]byte{[]byte("runtime: out of memory"), []byte("fatal error: out of memory")}

// cutRuntimeText drops what the guest's runtime printed when it ran out
// of memory (its last such lines and everything after them), keeping what
// the command printed before: the Note says what happened, in one
// sentence, and the runtime's text names internals (goroutines, runtime
// functions, addresses) that mean nothing to the model or the user.
func cutRuntimeText(stderr []byte) []byte {
	cut := len(stderr)
	for _, m := range runtimeOOM {
		if i := bytes.LastIndex(stderr, m); i >= 0 && (i == 0 || stderr[i-1] == '\n') {
			cut = min(cut, i)
		}
	}
	return stderr[:cut]
}

func (h *Host) limitNote() string {
	return fmt.Sprintf("output exceeded %d bytes; it was cut there and the command was stopped", h.cfg.OutputLimit)
}

func (h *Host) ctxEnded(ctx context.Context, o Outcome) Outcome {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		o.TimedOut, o.ExitCode, o.Note = true, ExitTimedOut, "the command timed out and was stopped"
		return o
	}
	o.ExitCode, o.Note = ExitStopped, "the command was cancelled"
	return o
}
