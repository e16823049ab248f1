package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// Option adjusts a tool declared with New.
type Option func(*options)

type options struct {
	safe     func(args json.RawMessage) bool
	approval func(args json.RawMessage) bool
	writes   func(args json.RawMessage) bool
	escalate func(ctx context.Context, call Call) (*Escalation, error)
	render   func(value any) string
	timeout  time.Duration
}

// Safe marks every call of the tool as concurrency-safe: it may run in the
// step's pool beside other safe calls. Only for tools with no side effects
// that another call could observe.
func Safe() Option {
	return func(o *options) { o.safe = func(json.RawMessage) bool { return true } }
}

// SafeWhen decides concurrency-safety per call from the validated
// arguments (e.g. a read-only shell command is safe, a write is not).
func SafeWhen(f func(args json.RawMessage) bool) Option {
	return func(o *options) { o.safe = f }
}

// NeedsApproval makes the calls for which f returns true go through the
// approval step (see ApprovalRequirer).
func NeedsApproval(f func(args json.RawMessage) bool) Option {
	return func(o *options) { o.approval = f }
}

// WithTimeout bounds one execution of the tool (overriding Spec.Timeout).
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// WithRenderer replaces the default renderer (RenderValue). f receives the
// tool's Out value.
func WithRenderer(f func(value any) string) Option {
	return func(o *options) { o.render = f }
}

// New declares a Go tool. The spec's JSON Schemas stay the single source
// the model, validation and sdkgen see; In is the Go shape the validated
// arguments are decoded into, Out the value fn returns (encoded to JSON for
// output validation). The tool is Typed: a test checks with SchemaMatches
// that the schemas and In and Out agree.
//
// fn reports a tool failure by returning an *Error (or any error, which
// becomes TOOL_FAILED); it must honour ctx.
func New[In, Out any](spec Spec, fn func(ctx context.Context, call Call, in In) (Out, error), opts ...Option) Tool {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.timeout > 0 {
		spec.Timeout = o.timeout
	}
	if o.render == nil {
		o.render = RenderValue
	}
	return &typed[In, Out]{spec: spec, fn: fn, opts: o}
}

type typed[In, Out any] struct {
	spec Spec
	fn   func(context.Context, Call, In) (Out, error)
	opts options
}

func (t *typed[In, Out]) Spec() Spec { return t.spec }

// ArgsType is In.
func (t *typed[In, Out]) ArgsType() reflect.Type { return reflect.TypeFor[In]() }

// ValueType is Out.
func (t *typed[In, Out]) ValueType() reflect.Type { return reflect.TypeFor[Out]() }

// Typed is a tool that names the Go types its code works with: the one
// its arguments are decoded into and the one its value is. Tools declared
// with New are Typed; a hand-written tool implements it so that a test can
// check its hand-written schemas against the types it really uses (see
// SchemaMatches), where a type named beside the tool could drift.
type Typed interface {
	ArgsType() reflect.Type
	ValueType() reflect.Type
}

func (t *typed[In, Out]) ConcurrencySafe(args json.RawMessage) bool {
	return t.opts.safe != nil && t.opts.safe(args)
}

func (t *typed[In, Out]) RequiresApproval(args json.RawMessage) bool {
	return t.opts.approval != nil && t.opts.approval(args)
}

func (t *typed[In, Out]) Writes(args json.RawMessage) bool {
	return t.opts.writes != nil && t.opts.writes(args)
}

func (t *typed[In, Out]) Escalation(ctx context.Context, call Call) (*Escalation, error) {
	if t.opts.escalate == nil {
		return nil, nil
	}
	return t.opts.escalate(ctx, call)
}

func (t *typed[In, Out]) Render(value any) string { return t.opts.render(value) }

func (t *typed[In, Out]) Execute(ctx context.Context, call Call) (any, error) {
	body, err := t.prepare(call)
	if err != nil {
		return nil, err
	}
	return body(ctx)
}

// prepare decodes the arguments into In and returns the body to run. The
// Runner calls it on its own goroutine so that the decoding does not grow
// the fresh stack of the goroutine that runs the body.
func (t *typed[In, Out]) prepare(call Call) (func(context.Context) (any, error), error) {
	var in In
	args := call.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, &in); err != nil {
		// The schema accepted something In cannot hold: the schema and the
		// Go type disagree, which the model can only work around.
		return nil, Errorf(CodeInvalidArgs, "invalid arguments for %s: %v", t.spec.Name, err)
	}
	return func(ctx context.Context) (any, error) { return t.fn(ctx, call, in) }, nil
}

// preparer is implemented by tools declared with New (see prepare).
type preparer interface {
	prepare(call Call) (func(context.Context) (any, error), error)
}

// RenderValue is the default renderer: a string as-is, json.RawMessage and
// every other value as indented JSON.
func RenderValue(value any) string {
	switch v := value.(type) {
	case string:
		return v
	case nil:
		return "null"
	}
	b, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		return fmt.Sprintf("%v", value)
	}
	return string(b)
}
