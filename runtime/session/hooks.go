package session

// TypeHookRun records one run of a user or project hook (runtime/hooks):
// what it was, what it decided and how long it took.
var TypeHookRun = eventType("hook/run")

// Hook decisions (HookRun.Decision).
const (
	HookAllow   = "allow"   // no objection
	HookBlock   = "block"   // exit 2 or decision block: the call or prompt refused
	HookAsk     = "ask"     // the call goes to the user
	HookRewrite = "rewrite" // new arguments for the call
	HookContext = "context" // text added for the model
	HookFailed  = "failed"  // timed out, could not start or exited otherwise (PreToolUse: blocks)
	HookSkipped = "skipped" // a project hook not approved: not run
)

// HookRun is the data of hook/run. Hook names it ("user PreToolUse[0]");
// Reason is the hook's reason or what went wrong, sanitised and capped.
type HookRun struct {
	Event      string `json:"event"`
	Hook       string `json:"hook"`
	Source     string `json:"source"`
	Command    string `json:"command"`
	Tool       string `json:"tool,omitempty"`
	CallID     string `json:"callId,omitempty"`
	Decision   string `json:"decision"`
	ExitCode   int    `json:"exitCode"`
	TimedOut   bool   `json:"timedOut,omitempty"`
	Reason     string `json:"reason,omitempty"`
	DurationMs int64  `json:"durationMs"`
}
