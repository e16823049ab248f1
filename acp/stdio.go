package acp

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ClaimStdout keeps the process's standard output for the protocol and
// points file descriptor 1 (and os.Stdout) at logFile instead, so a stray
// print anywhere in the process, or a child process that inherits the
// descriptor, can never put a line into the JSON-RPC stream. It returns
// the protocol's writer; call it before anything else runs.
func ClaimStdout(logFile *os.File) (*os.File, error) {
	fd, err := unix.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("keep stdout for the protocol: %w", err)
	}
	unix.CloseOnExec(fd)
	if err := unix.Dup2(int(logFile.Fd()), 1); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("move stdout to the log: %w", err)
	}
	os.Stdout = logFile
	return os.NewFile(uintptr(fd), "acp-stdout"), nil
}
