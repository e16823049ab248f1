package session

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// FormatVersion is the session format this build writes and reads. A log
// with a higher version, or with an event type this build does not know
// and cannot skip, is refused with ErrUnsupportedFormat.
const FormatVersion = 1

// Event is one fact of a session. Seq starts at 0 and has no gaps; Time is
// Unix milliseconds; Data is the JSON encoding of the type's data struct.
// Events are never edited once appended.
type Event struct {
	Seq  int64           `json:"seq"`
	Type string          `json:"type"`
	Time int64           `json:"time"`
	Data json.RawMessage `json:"data"`
}

// Header describes a session; it is stored beside the events and never
// changed. Settings are the ones the session was created with (later
// changes are session/settings events; see CurrentSettings). Parent and
// ParentSeq are set for forks and subagents (ParentSeq is the last copied
// event of the parent); ParentCall is the parent's call that started a
// subagent.
type Header struct {
	ID        string `json:"id"`
	CreatedAt int64  `json:"createdAt"`
	Settings
	Parent     string `json:"parent,omitempty"`
	ParentSeq  int64  `json:"parentSeq,omitempty"`
	ParentCall string `json:"parentCall,omitempty"`
	Depth      int    `json:"depth"`
	Version    int    `json:"version"`
}

// Event types. Names are part of the public format: add, never rename.
// Each is declared with eventType, which registers it for Validate (a log
// holding a type this build does not know refuses to load).
var (
	TypeTurnStart        = eventType("turn/start")
	TypeTurnEnd          = eventType("turn/end")
	TypeStepStart        = eventType("step/start")
	TypeStepEnd          = eventType("step/end")
	TypeUserMessage      = eventType("user/message")
	TypeAssistantChunk   = eventType("assistant/chunk")
	TypeAssistantAttempt = eventType("assistant/attempt")
	TypeAssistantMessage = eventType("assistant/message")
	TypeToolCall         = eventType("tool/call")
	TypeToolResult       = eventType("tool/result")
	TypePtcDispatchStart = eventType("tool/ptc-dispatch-start")
	TypePtcDispatch      = eventType("tool/ptc-dispatch")
	TypePtcLog           = eventType("tool/ptc-log")
	TypeRequestHeader    = eventType("request/header")
	TypeEndSeed          = eventType("session/end-seed")
	TypeSandboxMode      = eventType("sandbox/mode")
	TypeApprovalPolicy   = eventType("approval/policy")
	TypeApprovalAsked    = eventType("approval/asked")
	TypeApprovalDecided  = eventType("approval/decided")
	TypeLLMRetry         = eventType("llm/retry")
	TypeTodoWrite        = eventType("todo/write")
)

// Turn end reasons.
const (
	ReasonCompleted   = "completed"
	ReasonMaxTokens   = "max-tokens"
	ReasonBlocked     = "blocked"
	ReasonAborted     = "aborted"
	ReasonError       = "error"
	ReasonInterrupted = "interrupted"
	ReasonMaxSteps    = "max-steps"
)

// Block is one piece of message content. Only text exists today; the type
// field leaves room for images and files.
type Block struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// TextBlocks is a convenience for the common single-text content.
func TextBlocks(s string) []Block { return []Block{{Type: "text", Text: s}} }

// Source says where a user/message came from.
type Source struct {
	Kind string `json:"kind"`           // "user", "plugin" or "tool"
	Name string `json:"name,omitempty"` // plugin or tool name
	Form string `json:"form,omitempty"` // plugin form: "snapshot", "notice" or "summary"
}

// TurnStart opens turn Turn (numbered from 1 across the whole session).
type TurnStart struct {
	Turn int `json:"turn"`
}

// TurnEnd closes a turn. Cause is set for aborted; Failure for error.
type TurnEnd struct {
	Turn    int    `json:"turn"`
	Reason  string `json:"reason"`
	Cause   string `json:"cause,omitempty"`
	Failure string `json:"failure,omitempty"`
}

// StepMark is the data of step/start and step/end.
type StepMark struct {
	Turn int `json:"turn"`
	Step int `json:"step"`
}

// UserMessage is a model-visible user message. Replaces is set on a
// compaction summary: the message takes the place of that span of the
// surface (the replaced events stay in the log).
type UserMessage struct {
	ID       string       `json:"id"`
	Content  []Block      `json:"content"`
	Source   Source       `json:"source"`
	Replaces *SurfaceSpan `json:"replaces,omitempty"`
}

// AssistantChunk records one streamed delta of one attempt.
type AssistantChunk struct {
	Turn    int       `json:"turn"`
	Step    int       `json:"step"`
	Attempt int       `json:"attempt"`
	Chunk   llm.Chunk `json:"chunk"`
}

// AssistantAttempt records a failed model attempt.
type AssistantAttempt struct {
	Turn    int    `json:"turn"`
	Step    int    `json:"step"`
	Attempt int    `json:"attempt"`
	Failure string `json:"failure"`
	Kind    string `json:"kind,omitempty"`
	Status  int    `json:"status,omitempty"`
}

// AssistantMessage is the model's answer for a step. Interrupted marks a
// half-streamed answer kept after cancellation (its incomplete tool calls
// are dropped before it is appended).
type AssistantMessage struct {
	Turn        int              `json:"turn"`
	Step        int              `json:"step"`
	Message     llm.Message      `json:"message"`
	Finish      llm.FinishReason `json:"finish"`
	Usage       llm.Usage        `json:"usage"`
	Interrupted bool             `json:"interrupted,omitempty"`
}

// ToolCall records that a tool call is about to run; Arguments is the raw
// string the model sent. It is durable before the tool body starts.
type ToolCall struct {
	Turn      int    `json:"turn"`
	Step      int    `json:"step"`
	CallID    string `json:"callId"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ErrorInfo is the stable code and message of a failed tool call.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ToolResult is the model-visible result of a tool call.
type ToolResult struct {
	Turn    int        `json:"turn"`
	Step    int        `json:"step"`
	CallID  string     `json:"callId"`
	Name    string     `json:"name"`
	Content []Block    `json:"content"`
	IsError bool       `json:"isError"`
	Error   *ErrorInfo `json:"error,omitempty"`
}

// PtcDispatch is the data of tool/ptc-dispatch-start (IsError, Content and
// Error empty) and tool/ptc-dispatch (settled) for a call a run_code
// program made. These events never reach the model's history.
type PtcDispatch struct {
	RootCallID   string     `json:"rootCallId"`
	ParentCallID string     `json:"parentCallId"`
	SubCallID    string     `json:"subCallId"`
	Name         string     `json:"name"`
	Arguments    string     `json:"arguments"`
	IsError      bool       `json:"isError,omitempty"`
	Content      string     `json:"content,omitempty"`
	Error        *ErrorInfo `json:"error,omitempty"`
}

// PtcLog is one console line printed by a run_code program, logged as it
// happens so live views can show progress.
type PtcLog struct {
	CallID string `json:"callId"`
	Level  string `json:"level"`
	Text   string `json:"text"`
}

// RequestHeader records everything of a request that is not the message
// list. Reason is "initial", "resume" or "change".
type RequestHeader struct {
	Reason   string         `json:"reason"`
	Provider string         `json:"provider"`
	Model    string         `json:"model"`
	System   string         `json:"system"`
	Tools    []llm.ToolSpec `json:"tools"`
	Options  llm.Options    `json:"options"`
}

// EndSeed marks the end of events copied from a parent session.
type EndSeed struct {
	Parent    string `json:"parent"`
	ParentSeq int64  `json:"parentSeq"`
}

// SandboxMode records a sandbox mode change (or the initial mode).
type SandboxMode struct {
	Mode   string `json:"mode"`
	Reason string `json:"reason,omitempty"`
	CallID string `json:"callId,omitempty"`
}

// ApprovalPolicy records the approval policy in force.
type ApprovalPolicy struct {
	Policy string `json:"policy"`
}

// ApprovalAsked records a request put to the user and left open until
// the approval/decided of the same ID: an approval of a tool call (kind
// "approval" or empty in logs from before the approval service), a
// question (ask_user_question) or a plan (exit_plan_mode). It carries
// everything a front end shows, so a restarted server can show a
// request still open in the log again (tools.PendingFrom).
type ApprovalAsked struct {
	ID        string `json:"id,omitempty"`
	Kind      string `json:"kind,omitempty"`
	CallID    string `json:"callId"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Reason    string `json:"reason,omitempty"`
	// Text is what the request asks (a question, a plan, the approval's
	// sentence); Options the answers offered.
	Text    string   `json:"text,omitempty"`
	Options []string `json:"options,omitempty"`
	// Mode is the sandbox mode the call runs in if allowed, Current the
	// mode in force (they differ for an escalation), Unconfined whether
	// it runs on the host without a sandbox.
	Mode       string `json:"mode,omitempty"`
	Current    string `json:"current,omitempty"`
	Unconfined bool   `json:"unconfined,omitempty"`
	// Justification is the model's reason for an escalation, as given.
	Justification string `json:"justification,omitempty"`
	Workspace     string `json:"workspace,omitempty"`
	// Grant is what an allow for the session would cover.
	Grant *Grant `json:"grant,omitempty"`
}

// ApprovalDecided records how a request was settled, or a call refused
// without asking. Decision is "allow-once", "allow-session" or "deny" for
// approvals, "answered" or "unanswered" for questions and plans; By is
// who decided ("user", "policy", "session-grant", "hook", "read-only").
// ID closes the approval/asked of that ID (empty when nothing was
// asked). Grant is the session grant made (allow-session by the user) or
// used (by session-grant); a resumed session rebuilds its grants from
// the first kind. Answer is a question's or plan's reply; Via names the
// front end that answered, when it said.
type ApprovalDecided struct {
	ID       string `json:"id,omitempty"`
	CallID   string `json:"callId"`
	Name     string `json:"name"`
	Decision string `json:"decision"`
	By       string `json:"by"`
	Reason   string `json:"reason,omitempty"`
	Grant    *Grant `json:"grant,omitempty"`
	Answer   string `json:"answer,omitempty"`
	Via      string `json:"via,omitempty"`
}

// Grant is what an allow for the session covers: a tool's calls that
// need approval (Tool alone), or an escalation: the tool in Mode for
// exactly Command (the command or path the user was shown) or, when the
// user chose one, every command matching Pattern.
type Grant struct {
	Tool    string `json:"tool"`
	Mode    string `json:"mode,omitempty"`
	Command string `json:"command,omitempty"`
	Pattern string `json:"pattern,omitempty"`
}

// LLMRetry records that a failed attempt will be retried after Delay ms.
type LLMRetry struct {
	Turn    int    `json:"turn"`
	Step    int    `json:"step"`
	Attempt int    `json:"attempt"`
	Code    string `json:"code"`
	DelayMs int64  `json:"delayMs"`
	// Reason is the failure in words (why the attempt is retried).
	Reason string `json:"reason,omitempty"`
}

// TodoItem is one entry of the todo list.
type TodoItem struct {
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority,omitempty"`
}

// TodoWrite records the whole todo list after a todo_write call.
type TodoWrite struct {
	CallID string     `json:"callId"`
	Todos  []TodoItem `json:"todos"`
}
