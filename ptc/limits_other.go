//go:build !linux

package ptc

import (
	"os"
	"runtime"
	"syscall"
)

// limitAddressSpace is a no-op where the address-space limit is not
// known to work with the Go runtime; the host's memory checks still apply.
func limitAddressSpace(uint64) {}

// residentBytes is unknown here: the host relies on the engine's checks.
func residentBytes(int) (uint64, bool) { return 0, false }

func engineSysProcAttr() *syscall.SysProcAttr { return nil }

func selfExecutable() (string, error) { return os.Executable() }

// yieldCPU lets other goroutines run; without sched_yield the kernel's
// preemption has to share the CPU.
func yieldCPU() { runtime.Gosched() }
