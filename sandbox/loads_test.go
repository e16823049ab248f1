package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLoopsAtFullCountUnderLoad is issue 30's must-show at its full
// counts, which take minutes, so it runs only when asked:
//
//	PTC_LOOPS=20 go test -count=1 -run TestLoopsAtFullCountUnderLoad -v -timeout 2h ./sandbox/
//
// PTC_LOOPS is how many times each loop runs; with PTC_LOOPS_LOAD=N the
// test keeps N busy processes running beside it, so the machine's load is
// at least N (the loops once failed at random, more often under load). Each
// builtin loop moves a 600 kB value 2 500 times in a guest of the default
// 256 MiB; the streams (1.2 GB of `cat` into `wc -c`, 2 GB from /dev/zero)
// run in a 32 MiB guest, so finishing at all shows they stream in bounded
// memory. The load average is logged at the start and the end.
func TestLoopsAtFullCountUnderLoad(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("PTC_LOOPS"))
	if runs <= 0 {
		t.Skip("set PTC_LOOPS=N to run the full-count loops N times")
	}
	if n, _ := strconv.Atoi(os.Getenv("PTC_LOOPS_LOAD")); n > 0 {
		stop := busy(t, n)
		defer stop()
		time.Sleep(70 * time.Second) // the one-minute load average catches up
	}
	t.Logf("load average at the start: %s", loadAverage())
	defer func() { t.Logf("load average at the end: %s", loadAverage()) }()
	big := NewHost(Config{Guest: smallGuest(t).cfg.Guest})
	defer big.Close(context.Background())
	small := smallGuest(t)
	ws, _ := sandboxDir(t)
	setup := "head -c 600000 /dev/zero | tr '\\0' a > big; x=$(cat big); "
	loops := []struct {
		name, command, want string
		h                   *Host
	}{
		{"echo of a 600 kB variable 2 500 times", setup + `for i in $(seq 2500); do echo "$x" > /dev/null; done; echo done`, "done\n", big},
		{"printf of it 2 500 times", setup + `for i in $(seq 2500); do printf '%s\n' "$x" > /dev/null; done; echo done`, "done\n", big},
		{"cat of a 600 kB file 2 500 times", setup + `for i in $(seq 2500); do cat big > /dev/null; done; echo done`, "done\n", big},
		{"$(<file) 2 500 times", setup + `for i in $(seq 2500); do y=$(<big); done; echo ${#y}`, "600000\n", big},
		{"x=\"$x$i\" 2 500 times", setup + `for i in $(seq 2500); do x="$x$i"; done; echo ${#x}`, fmt.Sprint(600000+digitsUpTo(2500)) + "\n", big},
		{"2 000 cats of it into wc -c in 32 MiB", setup + `for i in $(seq 2000); do cat big; done | wc -c`, "1200000000\n", small},
		{"2 GB from /dev/zero through wc -c in 32 MiB", `head -c 2000000000 /dev/zero | wc -c`, "2000000000\n", small},
	}
	for _, l := range loops {
		t.Run(l.name, func(t *testing.T) {
			ok := 0
			for i := range runs {
				start := time.Now()
				o := longRun(t, l.h, ws, l.command)
				if o.ExitCode == 0 && string(o.Stdout) == l.want {
					ok++
				} else {
					t.Errorf("run %d: exit %d, stdout %q, note %q, stderr %.300q", i+1, o.ExitCode, o.Stdout, o.Note, o.Stderr)
				}
				t.Logf("run %d: %v", i+1, time.Since(start).Round(time.Millisecond))
			}
			t.Logf("%d of %d runs completed with the right output (load %s)", ok, runs, loadAverage())
		})
	}
}

// digitsUpTo is how many digits 1, 2, …, n have together.
func digitsUpTo(n int) int {
	d := 0
	for i := 1; i <= n; i++ {
		d += len(strconv.Itoa(i))
	}
	return d
}

// busy starts n processes that only spin, and returns what stops them.
func busy(t *testing.T, n int) func() {
	var cmds []*exec.Cmd
	for range n {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	return func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
