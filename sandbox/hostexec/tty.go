package hostexec

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// ttyAttr makes the program lead a session of its own whose controlling
// terminal is its stdin, when that is a terminal (a ptc terminal's
// pseudo-terminal): typed keys such as Ctrl-C then signal the program's
// foreground process group, and a shell gets job control. bwrap's
// --new-session has already cut the sandbox off from ptc's own terminal,
// and the pseudo-terminal is this program's alone, so this reaches no
// one else's terminal.
func ttyAttr(attr *syscall.SysProcAttr) {
	if _, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		attr.Setsid, attr.Setctty, attr.Ctty = true, true, 0
	}
}
