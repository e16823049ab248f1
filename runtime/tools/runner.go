package tools

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
)

// Defaults of RunnerConfig.
const (
	DefaultMaxResultBytes = 50_000
	DefaultMaxParallel    = 10
)

// RunnerConfig is fixed when the Runner is built.
type RunnerConfig struct {
	// Approvals decides every call that needs a decision (the session's
	// service, under the policy in force); nil means a service of its
	// own under PolicyAsk with nobody to answer, so asks fail closed. A
	// context's Env.Approvals takes precedence.
	Approvals *Approvals
	// Hooks run for every call, before hooks added later with AddHook.
	Hooks []Hook
	// Env fills the fields that the context's Env (EnvFrom) leaves empty.
	Env *Env
	// DefaultTimeout bounds a tool whose Spec.Timeout is 0; 0 means none.
	DefaultTimeout time.Duration
	// MaxResultBytes is where rendered text gets truncated; 0 means
	// DefaultMaxResultBytes, negative means never.
	MaxResultBytes int
	// MaxParallel is the pool size for concurrency-safe calls of one step;
	// 0 means DefaultMaxParallel.
	MaxParallel int
}

// Runner runs calls through the pipeline of one session (or agent scope):
// it owns that scope's hooks; its decisions go to the Approvals service.
// It is safe for concurrent use and implements Dispatcher.
type Runner struct {
	reg *Registry
	cfg RunnerConfig

	mu    sync.Mutex
	hooks []Hook // copy-on-write; read under mu, never mutated in place
}

// NewRunner returns a Runner over reg. The config is copied.
func NewRunner(reg *Registry, cfg RunnerConfig) *Runner {
	if cfg.Approvals == nil {
		cfg.Approvals = NewApprovals(PolicyAsk)
	}
	if cfg.MaxResultBytes == 0 {
		cfg.MaxResultBytes = DefaultMaxResultBytes
	}
	if cfg.MaxParallel <= 0 {
		cfg.MaxParallel = DefaultMaxParallel
	}
	return &Runner{reg: reg, cfg: cfg, hooks: append([]Hook(nil), cfg.Hooks...)}
}

// WithRegistry returns a Runner over reg with this Runner's config (so
// the same Approvals and grants) and its hooks: the same session scope
// over a tool set that changed (an MCP server's new tools).
func (r *Runner) WithRegistry(reg *Registry) *Runner {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &Runner{reg: reg, cfg: r.cfg, hooks: r.hooks}
}

// Registry returns the tool set the Runner dispatches to.
func (r *Runner) Registry() *Registry { return r.reg }

// AddHook adds a hook for every later call of this Runner.
func (r *Runner) AddHook(h Hook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	hooks := make([]Hook, len(r.hooks), len(r.hooks)+1)
	copy(hooks, r.hooks)
	r.hooks = append(hooks, h)
}

func (r *Runner) hookList() []Hook {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hooks
}

// Lookup returns a tool a nested (program) call may reach: every tool but
// run_code. It is what run_code's pre-flight check asks.
func (r *Runner) Lookup(name string) (Tool, bool) {
	if !r.reg.InProgram(name) {
		return nil, false
	}
	return r.reg.Lookup(name)
}

// ConcurrencySafe reports whether call may share the pool with other safe
// calls. Calls that will fail before running (unknown tool, bad JSON) are
// safe: they have no body.
func (r *Runner) ConcurrencySafe(call Call) (safe bool) {
	e, ferr := r.resolve(call)
	if ferr != nil {
		return true
	}
	args, _, perr := parseArgs(call.Name, argBytes(call))
	if perr != nil {
		return true
	}
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return e.tool.ConcurrencySafe(args)
}

// Dispatch runs one call through the whole pipeline (see the package
// documentation) and always returns a Result; it never panics.
func (r *Runner) Dispatch(ctx context.Context, call Call) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = Failure(call, Errorf(CodeToolFailed, "tool %s crashed: %v", call.Name, p))
		}
	}()
	e, ferr := r.resolve(call)
	if ferr != nil {
		return Failure(call, ferr)
	}
	args, parsed, perr := parseArgs(call.Name, argBytes(call))
	if perr != nil {
		return Failure(call, perr)
	}
	call.Args = args
	if verr := e.validateInput(parsed); verr != nil {
		return Failure(call, verr)
	}
	env := r.env(ctx)
	ctx = WithEnv(ctx, env)
	hooks := r.hookList()
	ctx, call, aerr := r.admit(ctx, env, e, call, hooks)
	if aerr != nil {
		return Failure(call, aerr)
	}
	out := r.execute(ctx, e, call)
	for _, h := range hooks {
		if h.Post != nil {
			out = h.Post(ctx, call, out)
		}
	}
	if out.Err == nil {
		out.Err = e.validateOutput(out.Value)
	}
	return r.finish(env, e, call, out)
}

// argBytes returns the arguments to parse: the raw string the model sent,
// or Args when the caller (a program) built the call from a value.
func argBytes(call Call) []byte {
	if call.Raw != "" {
		return []byte(call.Raw)
	}
	return call.Args
}

// resolve finds the tool a call may reach under the presentation.
func (r *Runner) resolve(call Call) (*entry, *Error) {
	e, ok := r.reg.entries[call.Name]
	if call.Nested {
		if ok && r.reg.InProgram(call.Name) {
			return e, nil
		}
		return nil, unknownTool(call.Name, r.reg.prog)
	}
	if ok && r.reg.OnWire(call.Name) {
		return e, nil
	}
	if ok {
		return nil, Errorf(CodeUnknownTool,
			"%s is not a direct tool in this session; call it from a %s program instead, as await tools.%s({...}), and print or return what you need",
			call.Name, RunCodeName, call.Name)
	}
	return nil, unknownTool(call.Name, r.reg.wire)
}

func unknownTool(name string, candidates []string) *Error {
	if near := Closest(name, candidates); len(near) > 0 {
		return Errorf(CodeUnknownTool, "unknown tool %q; did you mean %s?", name, strings.Join(near, ", "))
	}
	if len(candidates) == 0 {
		return Errorf(CodeUnknownTool, "unknown tool %q; no tools are available here", name)
	}
	if len(candidates) <= 20 {
		return Errorf(CodeUnknownTool, "unknown tool %q; available tools: %s", name, strings.Join(candidates, ", "))
	}
	return Errorf(CodeUnknownTool, "unknown tool %q", name)
}

// env merges the context's Env over the configured one.
func (r *Runner) env(ctx context.Context) *Env {
	e := *EnvFrom(ctx)
	if b := r.cfg.Env; b != nil {
		if e.SessionID == "" {
			e.SessionID = b.SessionID
		}
		if e.Workspace == "" {
			e.Workspace = b.Workspace
		}
		if e.SpillDir == "" {
			e.SpillDir = b.SpillDir
		}
		if e.Sink == nil {
			e.Sink = b.Sink
		}
		if e.Approvals == nil {
			e.Approvals = b.Approvals
		}
		if e.Mode == "" {
			e.Mode = b.Mode
		}
		if e.Dispatcher == nil {
			e.Dispatcher = b.Dispatcher
		}
		if e.ReadOnly == nil {
			e.ReadOnly = b.ReadOnly
		}
	}
	if e.Dispatcher == nil {
		e.Dispatcher = r
	}
	if e.Approvals == nil {
		e.Approvals = r.cfg.Approvals
	}
	return &e
}

// execute runs the body in its own goroutine so that a body that ignores
// its context still yields TOOL_TIMEOUT / ABORTED on time.
func (r *Runner) execute(ctx context.Context, e *entry, call Call) Outcome {
	if ctx.Err() != nil {
		return Outcome{Err: Errorf(CodeAborted, "the call to %s was cancelled before it ran", call.Name)}
	}
	timeout := e.spec.Timeout
	if timeout <= 0 {
		timeout = r.cfg.DefaultTimeout
	}
	var bctx context.Context
	var cancel context.CancelFunc
	if timeout > 0 {
		bctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		bctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	body := func(ctx context.Context) (any, error) { return e.tool.Execute(ctx, call) }
	if p, ok := e.tool.(preparer); ok {
		b, err := p.prepare(call)
		if err != nil {
			return Outcome{Err: asToolError(err)}
		}
		body = b
	}
	done := make(chan Outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- Outcome{Err: Errorf(CodeToolFailed, "tool %s panicked: %v", call.Name, p)}
			}
		}()
		v, err := body(bctx)
		done <- Outcome{Value: v, Err: asToolError(err)}
	}()
	select {
	case out := <-done:
		if out.Err != nil && bctx.Err() != nil {
			return interrupted(ctx, call.Name, timeout)
		}
		return out
	case <-bctx.Done():
		select {
		case out := <-done: // finished at the same moment: keep a success
			if out.Err == nil {
				return out
			}
		default:
		}
		return interrupted(ctx, call.Name, timeout)
	}
}

func interrupted(ctx context.Context, name string, timeout time.Duration) Outcome {
	if ctx.Err() != nil {
		return Outcome{Err: Errorf(CodeAborted, "the call to %s was cancelled before it finished", name)}
	}
	return Outcome{Err: Errorf(CodeToolTimeout, "%s did not finish within %s and was stopped", name, timeout)}
}

func asToolError(err error) *Error {
	if err == nil {
		return nil
	}
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	return &Error{Code: CodeToolFailed, Message: err.Error()}
}

// finish renders the outcome, appends the notes and truncates.
func (r *Runner) finish(env *Env, e *entry, call Call, out Outcome) Result {
	var res Result
	if out.Err != nil {
		res = Failure(call, out.Err)
	} else {
		res = Result{CallID: call.ID, Name: call.Name, Value: out.Value, Content: e.tool.Render(out.Value)}
	}
	for _, n := range out.Notes {
		res.Content += "\n\n" + n
	}
	if limit := r.resultLimit(e.tool); limit > 0 && len(res.Content) > limit {
		res.Content, res.SpillPath = truncate(res.Content, limit, env.SpillDir, call.ID)
	}
	return res
}

// resultLimit is the size at which t's rendered text is truncated: the
// tool's own limit when it declares one, else the Runner's.
func (r *Runner) resultLimit(t Tool) int {
	if rl, ok := t.(ResultLimiter); ok && rl.MaxResultBytes() > 0 {
		return rl.MaxResultBytes()
	}
	return r.cfg.MaxResultBytes
}
