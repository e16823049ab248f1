package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Environment variables that set host programs' bounds (HostExecFromEnv):
// a size is bytes or a number with K, M, G (KiB, MiB, GiB; "iB" and "B"
// optional), a time a Go duration ("45m"), a count a number; "none"
// lifts a per-program bound.
const (
	EnvHostMemory    = "PTC_HOST_MEMORY"     // private memory per process (default 2 GiB)
	EnvHostTasks     = "PTC_HOST_TASKS"      // tasks at once per program (default 1024)
	EnvHostCPU       = "PTC_HOST_CPU"        // CPU time per process (default 30m)
	EnvHostRAMBudget = "PTC_HOST_RAM_BUDGET" // write layers of one session's programs together (default 4 GiB)
)

// HostExecFromEnv is the HostExec of a ptc process: host programs on,
// with the bounds the environment sets (unset ones keep the defaults).
// A malformed value is an error naming the variable.
func HostExecFromEnv(getenv func(string) string) (*HostExec, error) {
	hx := &HostExec{}
	var err error
	if v := getenv(EnvHostMemory); v != "" {
		if hx.Limits.Memory, err = parseBound(v, parseSize); err != nil {
			return nil, fmt.Errorf("%s=%q: %v", EnvHostMemory, v, err)
		}
	}
	if v := getenv(EnvHostTasks); v != "" {
		n, err := parseBound(v, func(s string) (int64, error) { return strconv.ParseInt(s, 10, 32) })
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %v", EnvHostTasks, v, err)
		}
		hx.Limits.Pids = int(n)
	}
	if v := getenv(EnvHostCPU); v != "" {
		d, err := parseBound(v, func(s string) (int64, error) {
			d, err := time.ParseDuration(s)
			return int64(d), err
		})
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %v", EnvHostCPU, v, err)
		}
		hx.Limits.CPU = time.Duration(d)
	}
	if v := getenv(EnvHostRAMBudget); v != "" {
		if hx.RAMBudget, err = parseSize(v); err != nil || hx.RAMBudget <= 0 {
			return nil, fmt.Errorf("%s=%q: give a size such as 4GiB", EnvHostRAMBudget, v)
		}
	}
	return hx, nil
}

// parseBound reads "none" as no bound (-1), else a positive value.
func parseBound(v string, parse func(string) (int64, error)) (int64, error) {
	if strings.EqualFold(v, "none") {
		return -1, nil
	}
	n, err := parse(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive value or none")
	}
	return n, nil
}

// parseSize reads bytes, or a number with a K, M or G suffix (binary).
func parseSize(v string) (int64, error) {
	s := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(v), "B"), "i")
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'K', 'k':
			shift = 10
		case 'M', 'm':
			shift = 20
		case 'G', 'g':
			shift = 30
		}
	}
	if shift > 0 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size", v)
	}
	return n << shift, nil
}
