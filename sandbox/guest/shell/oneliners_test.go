package shell

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// oneLiner is one line of testdata/oneliners.sh.
type oneLiner struct {
	command string
	tag     string // "", "sorted", "host", "status" or "interp"
}

func readOneLiners(t *testing.T) []oneLiner {
	t.Helper()
	f, err := os.Open("testdata/oneliners.sh")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []oneLiner
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ol := oneLiner{command: line}
		if tag, rest, ok := strings.Cut(line, " "); ok && strings.HasPrefix(tag, "@") {
			ol.tag, ol.command = tag[1:], rest
		}
		out = append(out, ol)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// hostTools are the programs the reference side needs: bash and the GNU
// (or, for column, util-linux/bsdextrautils) tools the guest imitates.
var hostTools = []string{"bash", "gawk", "jq", "tar", "gzip", "zip", "unzip", "xxd", "file", "column", "hexdump", "timeout", "tree", "bc"}

// referenceBin returns a directory to put first on the reference PATH, in
// which awk is GNU awk whatever the system's default awk is.
func referenceBin(t *testing.T) string {
	t.Helper()
	sharedtest.Tools(t, hostTools...) // the one-liner test compares with them
	bin := t.TempDir()
	gawk, _ := exec.LookPath("gawk")
	if err := os.Symlink(gawk, filepath.Join(bin, "awk")); err != nil {
		t.Fatal(err)
	}
	return bin
}

// outcome is what one side printed on stdout and its exit status.
type outcome struct {
	out  string
	code int
}

func (o outcome) same(p outcome, tag string) bool {
	if o.code != p.code {
		return false
	}
	switch tag {
	case "status":
		return true
	case "sorted":
		return slices.Equal(sortedLines(o.out), sortedLines(p.out))
	}
	return o.out == p.out
}

func sortedLines(s string) []string {
	l := strings.Split(s, "\n")
	slices.Sort(l)
	return l
}

// TestAgentOneLiners runs every one-liner in testdata/oneliners.sh twice
// on a fresh copy of agentFixture at the same path, once with bash and the
// host's GNU tools and once with this package's shell, and compares stdout
// and exit status. It prints the match rate; a mismatch fails the test.
// With PTC_ONELINERS_PTC naming a ptc binary, the guest side runs through
// `ptc sh` instead: the wasm guest under the real sandbox.
func TestAgentOneLiners(t *testing.T) {
	bin := referenceBin(t)
	base := t.TempDir()
	work, home := filepath.Join(base, "w"), filepath.Join(base, "home")
	env := map[string]string{"HOME": home, "PATH": bin + ":/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC", "USER": "user"}
	lines := readOneLiners(t)
	ptc := os.Getenv("PTC_ONELINERS_PTC")
	matched, host, interp := 0, 0, 0
	for _, ol := range lines {
		if ol.tag == "host" {
			host++
			continue
		}
		if ol.tag == "interp" && ptc == "" {
			interp++
			continue
		}
		ref := runReference(t, work, home, env, ol.command)
		var got outcome
		if ptc != "" {
			got = runPTC(t, ptc, work, home, ol.command)
		} else {
			got = runGuestShell(t, work, home, env, ol.command)
		}
		if ref.same(got, ol.tag) {
			matched++
			continue
		}
		t.Errorf("%s\n  bash  (%d): %q\n  guest (%d): %q", ol.command, ref.code, ref.out, got.code, got.out)
	}
	t.Logf("agent one-liners: %d of %d match bash (%d more need the host, %d the wasm build's interpreter, and were not run)",
		matched, len(lines)-host-interp, host, interp)
}

// reset lays out a fresh fixture at work and an empty home, and removes
// what earlier one-liners left in /tmp.
func reset(t *testing.T, work, home string) {
	t.Helper()
	for _, p := range []string{work, home} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	agentFixture(t, work)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob("/tmp/ptc-ol-*")
	for _, p := range left {
		os.RemoveAll(p)
	}
}

func runReference(t *testing.T, work, home string, env map[string]string, command string) outcome {
	t.Helper()
	reset(t, work, home)
	var vars []string
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	return runProcess(t, work, vars, "bash", "-c", command)
}

// runProcess runs a program in dir and returns its stdout and status.
func runProcess(t *testing.T, dir string, env []string, name string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Dir, c.Env = dir, env
	var out bytes.Buffer
	c.Stdout = &out
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return outcome{out.String(), ee.ExitCode()}
	case err != nil:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return outcome{out.String(), 0}
}

func runGuestShell(t *testing.T, work, home string, env map[string]string, command string) outcome {
	t.Helper()
	reset(t, work, home)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code, err := Run(ctx, work, env, command, strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Errorf("%s: the shell failed: %v", command, err)
	}
	return outcome{out.String(), code}
}

// runPTC runs command with `ptc sh` in the workspace work.
func runPTC(t *testing.T, ptc, work, home, command string) outcome {
	t.Helper()
	reset(t, work, home)
	// The sandbox has its own environment; give it the reference's locale
	// and zone so only the commands differ.
	return runProcess(t, work, os.Environ(), ptc, "sh", "--workspace", work, "export LC_ALL=C TZ=UTC; "+command)
}
