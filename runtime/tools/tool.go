package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Stable error codes of failed tool results. They are part of the public
// format (they appear in tool/result events and in ToolCallError.code).
const (
	CodeInvalidArgs           = "INVALID_ARGS"
	CodeUnknownTool           = "UNKNOWN_TOOL"
	CodeInvalidToolOutput     = "INVALID_TOOL_OUTPUT"
	CodeToolTimeout           = "TOOL_TIMEOUT"
	CodeDenied                = "DENIED"
	CodeAborted               = "ABORTED"
	CodeAbortedBeforeDispatch = "ABORTED_BEFORE_DISPATCH"
	CodeToolNotStarted        = "TOOL_NOT_STARTED"
	CodeToolOutcomeUnknown    = "TOOL_OUTCOME_UNKNOWN"
	CodeCodeRunFailed         = "CODE_RUN_FAILED"
	CodeSandboxDenied         = "SANDBOX_DENIED"
	CodeToolFailed            = "TOOL_FAILED"
)

// Spec is everything the model and sdkgen see of a tool. InputSchema and
// OutputSchema are JSON Schema documents; they are the single source of
// truth for validation, the wire and the generated SDK.
type Spec struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Timeout bounds one execution; 0 means the runtime default.
	Timeout time.Duration `json:"-"`
}

// Tool is one capability the model can call.
//
// Execute receives arguments already validated against the input schema
// and returns a JSON-encodable value that must match the output schema. It
// reports a tool failure by returning an *Error (or any error, which
// becomes CodeToolFailed); it must honour ctx cancellation.
//
// ConcurrencySafe may depend on the arguments (a read-only shell command
// could be safe, a write is not). Render turns the value into the text the
// model reads.
type Tool interface {
	Spec() Spec
	ConcurrencySafe(args json.RawMessage) bool
	Execute(ctx context.Context, call Call) (any, error)
	Render(value any) string
}

// Call is one invocation. Raw is the argument string as the model (or
// program) sent it; Args is its parsed form ({} for an empty string).
// ParentID is set for nested calls made by a run_code program.
type Call struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Raw      string          `json:"raw"`
	Args     json.RawMessage `json:"args"`
	Turn     int             `json:"turn"`
	Step     int             `json:"step"`
	ParentID string          `json:"parentId,omitempty"`
	Nested   bool            `json:"nested,omitempty"`
}

// Result is the outcome of one call. Value is the tool's JSON value (nil on
// failure); Content is the rendered, model-readable text (for failures:
// "Error: <message>"). SpillPath is set when Content was truncated and
// the whole text was saved to a file the model can read.
type Result struct {
	CallID    string `json:"callId"`
	Name      string `json:"name"`
	Value     any    `json:"value,omitempty"`
	Content   string `json:"content"`
	IsError   bool   `json:"isError"`
	Error     *Error `json:"error,omitempty"`
	SpillPath string `json:"spillPath,omitempty"`
}

// Error is a tool failure with a stable code, reported to the model.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds a tool failure with a stable code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Failure returns the failed Result for call with the given error.
func Failure(call Call, e *Error) Result {
	return Result{CallID: call.ID, Name: call.Name, Content: "Error: " + e.Message, IsError: true, Error: e}
}

// Sink receives the events the tool runtime and tools produce besides
// tool/call and tool/result (approval/asked, approval/decided, todo/write,
// tool/ptc-dispatch*, sandbox/mode...). The agent backs it with the session
// log; tests and `ptc exec` may use a slice. Type is a session event type
// and data its data struct.
type Sink interface {
	Emit(eventType string, data any) error
}

// Question is one request put to the user: an approval, a question
// (ask_user_question) or a plan (exit_plan_mode). It carries everything a
// front end must show, so a remote one (ptc serve, an editor) needs
// nothing else: the Approvals service fills ID, Workspace and, for an
// approval, the sandbox fields. Options, when non-empty, are the allowed
// answers. Every string may come from the model: sanitise before display.
type Question struct {
	// ID is the request's stable id within its session, set when the
	// request is opened; answers name it (Approvals.Answer).
	ID     string `json:"id,omitempty"`
	Kind   string `json:"kind"` // KindApproval, KindQuestion or KindPlan
	CallID string `json:"callId,omitempty"`
	Tool   string `json:"tool"`
	Args   string `json:"args,omitempty"`
	// Text is what is asked: the approval's sentence, the question, the
	// plan (markdown).
	Text    string   `json:"text"`
	Options []string `json:"options,omitempty"`
	// Mode is the sandbox mode the call runs in if allowed; Current is
	// the mode in force, which differs for an escalation; Unconfined is
	// true when the call runs on the host without a sandbox.
	Mode       string `json:"mode,omitempty"`
	Current    string `json:"current,omitempty"`
	Unconfined bool   `json:"unconfined,omitempty"`
	// Justification is the model's own reason for an escalation: show
	// it as the model's words, never as the runtime's.
	Justification string `json:"justification,omitempty"`
	Workspace     string `json:"workspace,omitempty"`
	// Grant is what answering AnswerAllowSession covers; nil when the
	// request cannot be granted for the session.
	Grant *session.Grant `json:"grant,omitempty"`
}

// Reply is a front end's answer to a Question: one of its Options or,
// for a question or a plan, the user's own words.
type Reply struct {
	Answer string `json:"answer"`
	// Pattern, with AnswerAllowSession on an escalation, is the command
	// pattern the user chose for the grant instead of the exact command
	// shown (see Approvals for its syntax).
	Pattern string `json:"pattern,omitempty"`
	// Via names the front end that answered ("terminal", "tui", a serve
	// client); it is logged with the decision.
	Via string `json:"via,omitempty"`
}

// Answerer is a front end that prompts one person: the line-mode
// terminal prompt, the TUI's dialog, a scripted answerer in tests. It is
// attached to a session's Approvals (Approvals.Attend), which puts every
// open request to it; Ask blocks until answered or ctx ends (ctx also
// ends when another front end answered first). An answerer that cannot
// reach anyone returns ErrNoAnswerer, which the service turns into a
// denial.
type Answerer interface {
	Ask(ctx context.Context, q Question) (Reply, error)
}

// ErrNoAnswerer means nobody is available to answer (a headless run, a
// front end that went away). The approval step turns it into a DENIED
// result and ask_user_question into a failure, so a run without a user
// fails closed instead of hanging.
var ErrNoAnswerer = errors.New("no user is available to answer")

// Question kinds. A KindPlan question's Text is a plan (markdown) for the
// user to approve: the answer AnswerApprovePlan approves it, anything
// else is the user's feedback, meaning keep planning.
const (
	KindApproval = "approval"
	KindQuestion = "question"
	KindPlan     = "plan"
)

// Answers to a KindPlan question besides free feedback.
const (
	AnswerApprovePlan  = "approve"
	AnswerKeepPlanning = "keep-planning"
)

// ApprovalRequirer is implemented by tools that need the user's approval
// for some calls (a write outside the usual scope, a sandbox escalation).
// The Runner asks it after validation; true means the call goes through the
// approval step (policy ask: the Answerer; never: DENIED).
type ApprovalRequirer interface {
	RequiresApproval(args json.RawMessage) bool
}

// ResultLimiter is implemented by tools that cap their own rendered output
// at a size other than the Runner's MaxResultBytes (run_code renders up to
// its own visible-output budget and spills the rest itself). The Runner
// truncates such a tool's text only beyond MaxResultBytes().
type ResultLimiter interface {
	MaxResultBytes() int
}

// Approval answers understood by the approval step.
const (
	AnswerAllowOnce    = "allow-once"
	AnswerAllowSession = "allow-session"
	AnswerDeny         = "deny"
)

type envKey struct{}

// Env is what a tool body may reach of its surroundings, carried on the
// context: where to log, who answers questions, where to spill large
// output, the workspace, and a Dispatcher for nested calls (run_code).
type Env struct {
	SessionID  string
	Workspace  string
	SpillDir   string
	Sink       Sink
	Dispatcher Dispatcher
	// Approvals is the session's approval service: every approval,
	// question and plan goes through it. The Runner fills in its own
	// when the context has none.
	Approvals *Approvals
	// Mode is the sandbox mode in force, shown with approvals ("" when
	// the tools have no sandbox).
	Mode string
	// ReadOnly, when set, says whether the session is read-only right
	// now: a non-empty reason (plan mode is on) makes the Runner refuse
	// writing calls (see Writer) and the sandbox tools run every tier in
	// read-only mode. It is read at each call, so a switch takes effect
	// at once, also for calls a program makes.
	ReadOnly func() string
}

// WithEnv returns ctx carrying env.
func WithEnv(ctx context.Context, env *Env) context.Context {
	return context.WithValue(ctx, envKey{}, env)
}

// EnvFrom returns the Env on ctx, or an empty one.
func EnvFrom(ctx context.Context) *Env {
	if e, ok := ctx.Value(envKey{}).(*Env); ok {
		return e
	}
	return &Env{}
}

// Dispatcher runs calls through the full pipeline. The agent gives the
// registry's runner to tools (run_code) so that nested calls get the same
// validation, hooks, approval, timeout and audit as direct calls.
type Dispatcher interface {
	// Dispatch runs one call through the pipeline and returns its result.
	Dispatch(ctx context.Context, call Call) Result
	// Lookup returns the visible tool of that name, if any.
	Lookup(name string) (Tool, bool)
}
