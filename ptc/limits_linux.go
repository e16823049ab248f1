package ptc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// limitAddressSpace caps the engine's address space at what it maps now
// plus extra, so that one huge allocation ("x".repeat(3e9)) fails at once
// (the Go runtime then ends the engine with "out of memory") instead of
// filling memory while no check can run.
func limitAddressSpace(extra uint64) {
	vsz, ok := mappedBytes(os.Getpid())
	if !ok {
		return
	}
	var old syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &old) != nil {
		return
	}
	cur := vsz + extra
	if old.Cur < cur {
		return // already tighter
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: cur, Max: old.Max})
}

// mappedBytes is a process's virtual size (the first field of statm).
func mappedBytes(pid int) (uint64, bool) {
	return statmField(pid, 0)
}

func statmField(pid, i int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) <= i {
		return 0, false
	}
	n, err := strconv.ParseUint(string(f[i]), 10, 64)
	if err != nil {
		return 0, false
	}
	return n * uint64(os.Getpagesize()), true
}

// residentBytes is a process's resident set size; ok is false when the
// system does not say.
func residentBytes(pid int) (uint64, bool) {
	return statmField(pid, 1)
}

// engineSysProcAttr makes the kernel kill an engine whose host died.
func engineSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// selfExecutable is the binary an engine runs: this process's own.
func selfExecutable() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// yieldCPU lets another runnable thread on this CPU run (sched_yield).
func yieldCPU() { _, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
