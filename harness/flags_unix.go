//go:build unix

package harness

import "syscall"

// oNonblock opens without blocking (a FIFO at a config path must not hang).
const oNonblock = syscall.O_NONBLOCK
