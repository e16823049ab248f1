package toolbox

import (
	"context"
	"fmt"
	"os"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// Names of the terminal tools (preset option terminals).
const (
	TerminalOpenName   = "terminal_open"
	TerminalSendName   = "terminal_send"
	TerminalReadName   = "terminal_read"
	TerminalSignalName = "terminal_signal"
	TerminalListName   = "terminal_list"
	TerminalCloseName  = "terminal_close"
)

// TerminalNames are the terminal tools, in the order a preset with
// terminals: true gets them.
var TerminalNames = []string{TerminalOpenName, TerminalSendName, TerminalReadName, TerminalSignalName, TerminalListName, TerminalCloseName}

var errNoTerminals = tools.Errorf(tools.CodeToolFailed, "terminals belong to a session, and this tool runs outside one")

// terminals returns the session's terminals or the failure to report.
func (s *set) terminals() (*term.Manager, error) {
	if s.cfg.Terminals == nil {
		return nil, errNoTerminals
	}
	return s.cfg.Terminals, nil
}

// startTerminal is the StartFunc of a terminal: argv confined in scope
// with the pseudo-terminal as its stdio, like any host program of the
// session (mode, protection, quota, network).
func (s *set) startTerminal(scope sandbox.Scope, argv []string) term.StartFunc {
	return func(ctx context.Context, tty *os.File) (int, string, error) {
		end, err := s.host.RunProgram(ctx, scope, sandbox.Program{Args: argv, Env: []string{"TERM=xterm-256color"}, Stdin: tty, Stdout: tty, Stderr: tty})
		if err != nil {
			fmt.Fprintf(tty, "\r\nptc: %v\r\n", err)
			return -1, "", err
		}
		return end.ExitCode, end.Note, nil
	}
}

// TerminalInfo is one terminal as the terminal tools show it.
type TerminalInfo struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Cols     int    `json:"cols"`
	Rows     int    `json:"rows"`
}

const terminalInfoProps = `"id": {"type": "string"},
	"command": {"type": "string"},
	"status": {"type": "string", "enum": ["running", "exited", "closed"]},
	"exit_code": {"type": "integer"},
	"cols": {"type": "integer"},
	"rows": {"type": "integer"}`

var terminalInfoSchema = `{"type": "object", "properties": {` + terminalInfoProps + `}, "required": ["id", "command", "status", "cols", "rows"], "additionalProperties": false}`

func terminalInfo(i term.Info) TerminalInfo {
	return TerminalInfo{ID: i.ID, Command: i.Command, Status: i.Status, ExitCode: i.ExitCode, Cols: i.Cols, Rows: i.Rows}
}

func terminalSpec(name, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: doc(name), InputSchema: []byte(in), OutputSchema: []byte(out)}
}

// TerminalDone is the value of the terminal tools that only act.
type TerminalDone struct {
	OK bool `json:"ok"`
}

const terminalDoneSchema = `{"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"], "additionalProperties": false}`
