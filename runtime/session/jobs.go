package session

// Event types of background jobs and terminals (issue 22). Names are
// part of the public format: add, never rename.
var (
	// TypeJobStart and TypeJobEnd bracket a background job: a bash call
	// with run_in_background. Every job/start gets its job/end: when the
	// command ends, when it is killed, when the session closes, or, after
	// ptc died with it running, when the session is next opened.
	TypeJobStart = eventType("job/start")
	TypeJobEnd   = eventType("job/end")
	// TypeTerminalOpen and TypeTerminalClose bracket a terminal
	// (terminal_open), closed the same ways.
	TypeTerminalOpen  = eventType("terminal/open")
	TypeTerminalClose = eventType("terminal/close")
)

// Job statuses (JobEnd.Status; a job without a job/end is running).
const (
	JobRunning = "running"
	JobExited  = "exited"
	JobKilled  = "killed"
)

// Who or what ended a killed job or a closed terminal (JobEnd.By).
const (
	EndedByModel   = "model"    // job_kill, terminal_close
	EndedByUser    = "user"     // the TUI's /jobs view
	EndedByTimeout = "timeout"  // its wall-clock cap
	EndedByClose   = "session"  // the session closed
	EndedByExit    = "ptc-exit" // ptc ended while it ran: found on the next open
)

// JobStart is the data of job/start: call CallID started job JobID
// running Command in sandbox mode Mode; its output goes to Output (a
// file in the session's spill directory).
type JobStart struct {
	JobID       string `json:"jobId"`
	CallID      string `json:"callId,omitempty"`
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
	Mode        string `json:"mode"`
	Output      string `json:"output,omitempty"`
	TimeoutMS   int64  `json:"timeoutMs,omitempty"`
}

// JobEnd is the data of job/end: Status exited (ExitCode is the
// command's) or killed (By says by whom), the output's size and its last
// lines.
type JobEnd struct {
	JobID       string `json:"jobId"`
	Status      string `json:"status"`
	ExitCode    int    `json:"exitCode"`
	By          string `json:"by,omitempty"`
	Note        string `json:"note,omitempty"`
	OutputBytes int64  `json:"outputBytes"`
	Tail        string `json:"tail,omitempty"`
}

// TerminalOpen is the data of terminal/open.
type TerminalOpen struct {
	TerminalID string `json:"terminalId"`
	CallID     string `json:"callId,omitempty"`
	Command    string `json:"command"`
	Mode       string `json:"mode"`
	Cols       int    `json:"cols"`
	Rows       int    `json:"rows"`
}

// TerminalClose is the data of terminal/close: how its program ended
// (ExitCode; -1 when it was killed with the terminal) and by whom.
type TerminalClose struct {
	TerminalID string `json:"terminalId"`
	ExitCode   int    `json:"exitCode"`
	By         string `json:"by,omitempty"`
}
