//go:build wasip1

// Command ptcguest is the sandbox guest: a wasip1 reactor whose exported
// function ptc_run performs one proto.Request read from stdin (see package
// sandbox/proto for the protocol). Built with -buildmode=c-shared the host
// calls _initialize once and then ptc_run per request; started through
// _start (command mode) it performs a single request and exits with its
// status, which is handy in tests.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/fileops"
	"github.com/ptc-dev/ptc/sandbox/guest/hostprog"
	"github.com/ptc-dev/ptc/sandbox/guest/shell"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// persistent is the interpreter kept across persistent OpShell calls on
// this instance; it is dropped when a script runs `exit`.
var persistent *shell.Shell

// startDir is the guest's working directory at start-up; ptc_reset
// returns to it.
var startDir, _ = os.Getwd()

func init() {
	shell.Host = hostprog.Programs{}
}

// ptcReset is proto.ExportReset: it undoes the process-wide state a
// one-off command may leave (the working directory) and reports the
// goroutines alive, so the host can tell a background job outlived the
// command.
//
//go:wasmexport ptc_reset
func ptcReset() int32 {
	if startDir != "" {
		_ = os.Chdir(startDir)
	}
	return int32(runtime.NumGoroutine())
}

func main() {
	os.Exit(int(run()))
}

//go:wasmexport ptc_run
func ptcRun() int32 {
	return run()
}

// run reads one Request from stdin to EOF and performs it.
func run() int32 {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ptcguest: reading the request: %v\n", err)
		return 125
	}
	var req proto.Request
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintf(os.Stderr, "ptcguest: the request is not valid JSON: %v\n", err)
		return 125
	}
	if req.Op == proto.OpShell {
		return runShell(&req)
	}
	resp := fileops.Do(req.Op, req.File)
	if err := json.NewEncoder(os.Stdout).Encode(resp); err != nil {
		fmt.Fprintf(os.Stderr, "ptcguest: writing the response: %v\n", err)
		return 125
	}
	return 0
}

func runShell(req *proto.Request) int32 {
	sh, err := shellFor(req)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ptcguest: %v\n", err)
		return 125
	}
	code, err := sh.Run(context.Background(), req.Command, strings.NewReader(req.Stdin), os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sh: %v\n", err)
	}
	if req.Persistent && sh.Exited() {
		persistent = nil
	}
	return int32(code)
}

// shellFor returns the persistent shell (creating it from this request's
// Cwd and Env on first use) or a fresh one for a one-off command.
func shellFor(req *proto.Request) (*shell.Shell, error) {
	if !req.Persistent {
		return shell.New(req.Cwd, req.Env)
	}
	if persistent == nil {
		sh, err := shell.New(req.Cwd, req.Env)
		if err != nil {
			return nil, err
		}
		persistent = sh
	}
	return persistent, nil
}
