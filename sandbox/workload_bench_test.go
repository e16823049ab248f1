package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// workloadCommands are what coding agents type into a shell tool, drawn
// from the categories their transcripts show most: repository search
// (grep -rn, find, xargs), log triage (grep | sort | uniq -c, awk, cut,
// sort -k, tail, sed), JSON (jq), loops over lines (while read), archives
// and checksums. Each runs over workloadFixture in the guest and in the
// host's bash with GNU tools.
var workloadCommands = []string{
	`grep -rn 'func ' repo --include='*.go' | wc -l`,
	`grep -rnE 'TODO|FIXME|XXX' repo | wc -l`,
	`grep -rl 'context.Context' repo | sort | head -20`,
	`grep -rn --include='*.go' 'errors.New' repo | cut -d: -f1 | sort | uniq -c | sort -rn | head -5`,
	`find repo -name '*.go' | wc -l`,
	`find tree -type f -name '*.txt' | sort | tail -5`,
	`find repo -name '*.go' | xargs grep -l 'func main' | sort`,
	`ls repo | head -20`,
	`head -40 repo/README.md`,
	`wc -l app.log`,
	`tail -n 20 app.log`,
	`grep ERROR app.log | wc -l`,
	`grep -c WARN app.log`,
	`grep -o 'user=[a-z]*' app.log | sort | uniq -c | sort -rn | head`,
	`awk '{print $3}' app.log | sort | uniq -c | sort -rn`,
	`awk '{print $2}' app.log | sort | uniq -c | sort -rn | head`,
	`awk '$7 >= 500 {n++} END {print n}' app.log`,
	`cut -d' ' -f3 app.log | sort | uniq -c`,
	`sort -t' ' -k7,7 app.log | tail -3`,
	`sort -u -k5,5 app.log | wc -l`,
	`sed 's/INFO/info/g' app.log | tail -2`,
	`sed -n '1000,1010p' app.log`,
	`head -n 10000 app.log | while read -r a b c rest; do echo "$c"; done | sort | uniq -c`,
	`n=0; while read -r line; do n=$((n+1)); done < part.log; echo $n`,
	`tr -s ' ' '\n' < part.log | sort | uniq -c | sort -rn | head -5`,
	`tr 'a-z' 'A-Z' < app.log | tail -1`,
	`jq 'length' data.json`,
	`jq -r '.[] | select(.active) | .name' data.json | head -5`,
	`jq -r '.[].tags[]' data.json | sort | uniq -c | sort -rn | head`,
	`jq -c '[.[] | {id, score}] | sort_by(.score) | .[-3:]' data.json`,
	`tar czf out.tgz repo && tar tzf out.tgz | wc -l`,
	`sha256sum app.log data.json`,
	`diff <(head -500 app.log) <(head -500 app.log | sed 's/ERROR/error/') | wc -l`,
	`for f in repo/*.md; do wc -l < "$f"; done | sort -n | tail -3`,
	`grep -v INFO app.log | awk '{print $1}' | sort | uniq -c | tail -3`,
}

// TestWorkloadAgainstBash runs workloadCommands in the tree's guest (one
// Host, so "in program": no process start-up on either side) and in bash
// with GNU tools, in the same run over the same fixture, and prints each
// command's time as a ratio and the geometric mean. Every output must be
// byte-identical. It is slow (minutes), so it runs only when asked:
//
//	PTC_WORKLOAD=3 go test -run TestWorkloadAgainstBash -v ./sandbox/
//
// (the value is how many timed runs of each command to take the median of;
// PTC_WORKLOAD_ONLY=text runs only the commands that contain text).
func TestWorkloadAgainstBash(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("PTC_WORKLOAD"))
	if runs <= 0 {
		t.Skip("set PTC_WORKLOAD=N to run the workload set N times against bash")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := workloadFixture(t)
	wasm := testguest.Shell(t)
	h := NewHost(Config{Guest: func() []byte { return wasm }, OutputLimit: 64 << 20})
	defer h.Close(context.Background())
	ctx := context.Background()
	if err := h.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	var ratios []float64
	over := 0
	report := "ratio   guest ms   bash ms  command\n"
	only := os.Getenv("PTC_WORKLOAD_ONLY")
	for _, command := range workloadCommands {
		if only != "" && !strings.Contains(command, only) {
			continue
		}
		var gt, bt []time.Duration
		var gout, bout []byte
		for range runs {
			start := time.Now()
			o, err := h.Run(ctx, dir, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: command})
			gt = append(gt, time.Since(start))
			if err != nil {
				t.Fatalf("%s: %v", command, err)
			}
			gout = append(o.Stdout, o.Stderr...)
			cmd := exec.Command(bash, "-c", command)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=" + dir}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start = time.Now()
			cmd.Run()
			bt = append(bt, time.Since(start))
			bout = out.Bytes()
		}
		if !bytes.Equal(gout, bout) {
			t.Errorf("%s: outputs differ\nguest %.400q\nbash  %.400q", command, gout, bout)
		}
		g, b := median(gt), median(bt)
		r := float64(g) / float64(b)
		ratios = append(ratios, r)
		if r > 10 {
			over++
		}
		report += fmt.Sprintf("%5.1f× %9.1f %9.1f  %s\n", r, ms(g), ms(b), command)
	}
	geo := 0.0
	for _, r := range ratios {
		geo += math.Log(r)
	}
	report += fmt.Sprintf("geometric mean %.2f× over %d commands, %d over 10×\n", math.Exp(geo/float64(len(ratios))), len(ratios), over)
	t.Log("\n" + report)
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
