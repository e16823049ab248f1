package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkPtcShStart times whole processes in interleaved rounds of one
// run: `ptc sh 'echo hi'` answered by the resident server, the same with
// the server off (PTC_SH_SERVER=0: the process loads the guest from the
// compile cache), `ptc version` (the binary's own start), a bare bwrap and
// bash -c. The server exits 3 s after the last round; the benchmark waits
// for its socket to go.
func BenchmarkPtcShStart(b *testing.B) {
	run, err := os.MkdirTemp("", "ptcrt")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(run)
	ws := b.TempDir()
	env := append(os.Environ(), "XDG_CACHE_HOME="+cacheDir, "XDG_RUNTIME_DIR="+run, "PTC_SH_SERVER_IDLE=3s", "PTC_HOME="+b.TempDir())
	timed := func(extra []string, name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = append(env, extra...), ws
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v %s", name, args, err, out)
		}
		return time.Since(start)
	}
	sh := []string{"sh", "--workspace", ws, "--timeout", "10m", "echo hi"}
	timed([]string{"PTC_SH_SERVER=0"}, ptcBin, sh...) // fills the compile cache
	timed(nil, ptcBin, sh...)                         // starts the server
	socks := func() []string { s, _ := filepath.Glob(filepath.Join(run, "ptc", "run", "*.sock")); return s }
	for start := time.Now(); len(socks()) == 0 && time.Since(start) < time.Minute; time.Sleep(20 * time.Millisecond) {
	}
	timed(nil, ptcBin, sh...) // the server has loaded the guest
	var server, local, version, bwrap, bash time.Duration
	for b.Loop() {
		server += timed(nil, ptcBin, sh...)
		local += timed([]string{"PTC_SH_SERVER=0"}, ptcBin, sh...)
		version += timed(nil, ptcBin, "version")
		bwrap += timed(nil, "bwrap", "--ro-bind", "/", "/", "--unshare-all", "true")
		bash += timed(nil, "bash", "-c", "echo hi")
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(server), "sh-server-ms")
	b.ReportMetric(ms(local), "sh-local-ms")
	b.ReportMetric(ms(version), "version-ms")
	b.ReportMetric(ms(bwrap), "bwrap-ms")
	b.ReportMetric(ms(bash), "bash-ms")
	b.ReportMetric(ms(server)/ms(bwrap), "server-x-bwrap")
	b.ReportMetric(ms(server)/ms(bash), "server-x-bash")
	for start := time.Now(); len(socks()) > 0 && time.Since(start) < time.Minute; time.Sleep(50 * time.Millisecond) {
	}
}
