//go:build unix

package checkpoint

import "syscall"

const (
	oNonblock = syscall.O_NONBLOCK
	oNofollow = syscall.O_NOFOLLOW
)
