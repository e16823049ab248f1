package hostexec

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// Limits bound what one host program (with everything it starts) may
// take of the machine. They are set by the helper before the program
// starts, so nothing the program does comes first.
//
// cgroups v2 would bound a whole sandbox's memory; neither this project's
// machines (cgroup v1 memory controller, an empty unified hierarchy) nor
// an unprivileged container (a read-only cgroupfs) delegate one, so the
// bounds are per process where the kernel offers nothing better:
//
//   - Memory is RLIMIT_DATA of each process: its private writable memory
//     (heap, anonymous mappings), which is what an allocation takes; the
//     program's files in /tmp, the workspace layer and /dev/shm are
//     bounded by the sizes of those tmpfs mounts instead. RLIMIT_AS
//     would also count address space reserved and never used (the JVM
//     cannot start under 2 GiB of it).
//   - Pids is the sandbox's PID namespace's pid_max (Linux 6.14 and
//     later) — the one bound that holds when ptc runs as root, since
//     root's processes are exempt from RLIMIT_NPROC — and RLIMIT_NPROC,
//     which counts the program's own user namespace, as well.
//   - CPU is RLIMIT_CPU of each process: SIGXCPU at the limit, SIGKILL a
//     second later.
type Limits struct {
	// Memory is the bytes of private writable memory per process; 0
	// means DefaultMemory, negative no bound.
	Memory int64
	// Pids is the number of tasks (processes and threads) alive at once;
	// 0 means DefaultPids, negative no bound. The PID namespace cannot
	// go below 300 (the kernel's floor for pid_max).
	Pids int
	// CPU is the CPU time per process; 0 means DefaultCPU, negative no
	// bound.
	CPU time.Duration
}

// Defaults of Limits: room for a large build (a Go link, a webpack
// bundle) and well short of a machine's memory or process table.
const (
	DefaultMemory = 2 << 30
	DefaultPids   = 1024
	DefaultCPU    = 30 * time.Minute
)

// resolved fills the defaults in; a negative value stays (no bound).
func (l Limits) resolved() Limits {
	if l.Memory == 0 {
		l.Memory = DefaultMemory
	}
	if l.Pids == 0 {
		l.Pids = DefaultPids
	}
	if l.CPU == 0 {
		l.CPU = DefaultCPU
	}
	return l
}

// String states the limits for a note or a test.
func (l Limits) String() string {
	l = l.resolved()
	part := func(set bool, s string) string {
		if !set {
			return "none"
		}
		return s
	}
	return fmt.Sprintf("memory %s per process, %s tasks, CPU %s per process",
		part(l.Memory > 0, fmt.Sprintf("%d MiB", l.Memory>>20)), part(l.Pids > 0, strconv.Itoa(l.Pids)), part(l.CPU > 0, l.CPU.String()))
}

// pidMaxFloor is the lowest pid_max the kernel takes (RESERVED_PIDS+1).
const pidMaxFloor = 301

// applyLimits sets l on the helper itself just before it starts the
// program, which inherits them: RLIMIT_* of a process cannot be raised
// by it past the hard limit, and the PID namespace's pid_max is the
// helper's (it is PID 1 of it). It reports how the pids bound is held.
func applyLimits(l Limits) (pidsBy string, err error) {
	l = l.resolved()
	set := func(res int, v uint64, hard uint64) error {
		return unix.Setrlimit(res, &unix.Rlimit{Cur: v, Max: hard})
	}
	if l.Memory > 0 {
		if err := set(unix.RLIMIT_DATA, uint64(l.Memory), uint64(l.Memory)); err != nil {
			return "", fmt.Errorf("setting the memory limit: %w", err)
		}
	}
	if l.CPU > 0 {
		secs := uint64(max(l.CPU/time.Second, 1))
		if err := set(unix.RLIMIT_CPU, secs, secs+1); err != nil {
			return "", fmt.Errorf("setting the CPU limit: %w", err)
		}
	}
	if l.Pids <= 0 {
		return "none", nil
	}
	if err := set(unix.RLIMIT_NPROC, uint64(l.Pids), uint64(l.Pids)); err != nil {
		return "", fmt.Errorf("setting the process limit: %w", err)
	}
	if setPidMax(l.Pids + 1) {
		return "pid_max", nil
	}
	if os.Geteuid() == 0 {
		return "none (root ignores RLIMIT_NPROC and this kernel has no pid_max per PID namespace)", nil
	}
	return "RLIMIT_NPROC", nil
}

// setPidMax sets the PID namespace's pid_max through /proc/sys, which is
// still writable then (protectProc makes it read-only before the program
// starts). Only on Linux 6.14 or later, where pid_max is per PID
// namespace: on an older kernel the same write, from a helper running as
// root, would set the whole machine's pid_max. It reports whether it set
// it.
func setPidMax(n int) bool {
	if !kernelAtLeast(6, 14) {
		return false
	}
	n = max(n, pidMaxFloor)
	return os.WriteFile("/proc/sys/kernel/pid_max", []byte(strconv.Itoa(n)), 0) == nil
}

// kernelAtLeast reports whether the running kernel is major.minor or
// later.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	rel := unix.ByteSliceToString(u.Release[:])
	var ma, mi int
	if _, err := fmt.Sscanf(rel, "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
