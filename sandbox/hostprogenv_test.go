package sandbox

import (
	"strings"
	"testing"
	"time"
)

func TestHostBoundsComeFromTheEnvironment(t *testing.T) {
	env := map[string]string{EnvHostMemory: "3GiB", EnvHostTasks: "none", EnvHostCPU: "45m", EnvHostRAMBudget: "512M"}
	hx, err := HostExecFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if hx.Limits.Memory != 3<<30 || hx.Limits.Pids != -1 || hx.Limits.CPU != 45*time.Minute || hx.RAMBudget != 512<<20 {
		t.Fatalf("got %+v", hx)
	}
	if hx, err := HostExecFromEnv(func(string) string { return "" }); err != nil || hx.Limits.Memory != 0 || hx.RAMBudget != 0 {
		t.Fatalf("unset variables keep the defaults: %+v %v", hx, err)
	}
	for k, v := range map[string]string{EnvHostMemory: "lots", EnvHostTasks: "-3", EnvHostCPU: "soon", EnvHostRAMBudget: "none"} {
		if _, err := HostExecFromEnv(func(q string) string {
			if q == k {
				return v
			}
			return ""
		}); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
}
