package proto

// Host programs. A guest command that is neither a builtin nor a shell
// function can run as a program on the host (confined by bubblewrap, see
// package sandbox/hostexec) through functions of the host module
// HostModule, which the guest imports:
//
//	lookup(name, nameLen, out, outCap u32) i32
//	    > 0: the program runs on the host; its path (that many bytes) is in out.
//	    < 0: it does not; -n bytes in out say why (not allowed, not found,
//	         bubblewrap missing).
//	exec_start(req, reqLen, out, outCap u32) i32
//	    req is an ExecRequest (JSON). > 0: a handle. < 0: -n bytes of error
//	    text in out (the guest prints it and exits 126 or 127).
//	exec_io(handle, in, inLen, flags, out, outCap, errOut, errCap, waitMs, res u32) i32
//	    offers stdin bytes, takes stdout and stderr bytes, and when nothing
//	    moves waits up to waitMs for anything to happen to any host program
//	    of the instance. res receives five u32: stdin bytes accepted, stdout
//	    bytes, stderr bytes, 1 once the program has exited and all its
//	    output was taken, and its exit status. Returns 0, or < 0 when the
//	    handle is unknown or the call is ending (the guest stops).
//	exec_close(handle u32) i32
//	    kills the program if it still runs, forgets the handle, returns its
//	    exit status.
const HostModule = "ptc_host"

// exec_io flags.
const (
	ExecStdinEOF    = 1 << 0 // no stdin after the bytes offered now
	ExecStdoutGone  = 1 << 1 // nobody reads stdout any more (the program gets EPIPE)
	ExecStderrGone  = 1 << 2 // nobody reads stderr any more
	ExecResultWords = 5      // u32 words exec_io writes at res
)

// Where a host program's output goes.
const (
	StreamPipe   = "pipe"   // through exec_io, into the guest's pipeline or file
	StreamDirect = "direct" // straight into the call's own stdout (or stderr)
	StreamStdout = "stdout" // stderr only: the same destination as stdout (2>&1)
)

// ExecRequest starts a host program.
type ExecRequest struct {
	Args   []string `json:"args"`
	Dir    string   `json:"dir"`
	Env    []string `json:"env"` // the guest's exported variables, "K=V"
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
}
