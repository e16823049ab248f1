package shell

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/interp"

	"mvdan.cc/sh/v3/syntax"
)

// HostPrograms is the seam through which the shell reaches programs on
// the host: a command that is neither a builtin nor a function runs there
// (confined by the host's sandbox) when Lookup finds it. The guest's main
// sets Host; tests and builds without a host leave it nil.
type HostPrograms interface {
	// Lookup reports whether name runs as a host program: its host path,
	// or an error saying why not (not allowed, not found, the host's
	// sandbox tool missing). command -v / type / which use it too.
	Lookup(name string) (path string, err error)
	// Run runs args on the host with the handler context's directory,
	// environment and streams and returns the exit status. ownStdin
	// reports whether the command's standard input is its own (see
	// stdinIsOwn); when it is not, the program gets an empty stdin.
	Run(ctx context.Context, args []string, ownStdin bool) int
}

// Host is the shell's way to host programs; nil means there is none.
var Host HostPrograms

// runHost runs args as a host program when Host has it. ran is false
// when there is no host or Lookup refused; why then says why (nil with
// no host at all).
func runHost(ctx context.Context, hc interp.HandlerContext, args []string) (st int, ran bool, why error) {
	if Host == nil {
		return 0, false, nil
	}
	if _, err := Host.Lookup(args[0]); err != nil {
		return 0, false, err
	}
	if msg := argLimit(args, envBytes(hc.Env)); msg != "" {
		fmt.Fprintln(hc.Stderr, msg)
		return 126, true, nil
	}
	return Host.Run(ctx, args, stdinIsOwn(running, hc.Pos)), true, nil
}

// envBytes is what the exported environment adds to a host program's
// arguments: each K=V with its NUL, as execve counts it.
func envBytes(env expand.Environ) int {
	n := 0
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			n += len(name) + 1 + len(vr.String()) + 1
		}
		return true
	})
	return n
}

// notFoundText is the 127 message for a command no one runs: the reason
// host programs gave, or NotFoundMessage.
func notFoundText(why error) string {
	if why == nil {
		return NotFoundMessage
	}
	return fmt.Sprintf("command not found in the sandbox (it is not a builtin, and as a host program: %v; rerun the tool call with sandbox_permissions \"danger-full-access\" and a justification to use the host shell)", why)
}

// running is the script Shell.Run is running (the guest runs one at a
// time), for stdinIsOwn.
var running *syntax.File

// runningScript records f as the running script; the returned func
// restores the previous one.
func runningScript(f *syntax.File) func() {
	prev := running
	running = f
	return func() { running = prev }
}

// stdinIsOwn reports whether the simple command at pos has standard input
// of its own: a redirection of fd 0 on it, its place as a later stage of
// a pipeline, or, with no source on the way, the script's own stdin; a
// block ({ }, ( )) passes its stdin on as if the command were in its
// place. A command inside a loop (or a function) whose stdin comes from
// outside the loop does not own it: in `find | while read f; do gofmt -l
// "$f"; done` the loop's read must get the input, not gofmt. Where the
// position cannot be placed (code run by eval, a function from an
// earlier script) the stdin counts as the command's own.
func stdinIsOwn(f *syntax.File, pos syntax.Pos) bool {
	if f == nil || !pos.IsValid() {
		return true
	}
	var path []syntax.Node
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos().Offset() > pos.Offset() || n.End().Offset() < pos.Offset() {
			return false
		}
		path = append(path, n)
		if ce, ok := n.(*syntax.CallExpr); ok && ce.Pos() == pos {
			found = true
			return false
		}
		return true
	})
	if !found {
		return true
	}
	// The walk appends every node that encloses pos, so path holds the
	// chain of ancestors from the file down to the call (plus siblings
	// that merely touch pos, which are skipped below).
	inLoop := false
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *syntax.Stmt:
			if !encloses(n, pos) {
				continue
			}
			if redirectsStdin(n) || isPipeStage(path[:i], n) {
				return !inLoop
			}
		case *syntax.WhileClause, *syntax.ForClause:
			if encloses(n, pos) {
				inLoop = true
			}
		case *syntax.FuncDecl:
			if encloses(n, pos) {
				return true // the caller's stdin: cannot tell
			}
		}
	}
	return !inLoop
}

func encloses(n syntax.Node, pos syntax.Pos) bool {
	return n.Pos().Offset() <= pos.Offset() && pos.Offset() < n.End().Offset()
}

// redirectsStdin reports whether the statement redirects fd 0.
func redirectsStdin(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		fd0 := r.N == nil || r.N.Value == "0"
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			if fd0 {
				return true
			}
		}
	}
	return false
}

// isPipeStage reports whether s is the right side of a pipe (its parent,
// the last of its ancestors, is that pipe).
func isPipeStage(ancestors []syntax.Node, s *syntax.Stmt) bool {
	if len(ancestors) == 0 {
		return false
	}
	b, ok := ancestors[len(ancestors)-1].(*syntax.BinaryCmd)
	return ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && b.Y == s
}
