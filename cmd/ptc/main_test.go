package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// ptcBin is the real binary, built once for the whole test run.
var ptcBin string

// cacheDir is shared by every ptc the tests start, so the sandbox guest is
// compiled once (into wazero's compilation cache), not once per process.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ptc-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ptcBin = filepath.Join(dir, "ptc")
	cacheDir = filepath.Join(dir, "cache")
	build := exec.Command("go", "build", "-o", ptcBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build ptc:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs the binary with a private home and no API keys from the
// caller's environment.
type cli struct {
	t    *testing.T
	home string
	env  []string
}

func newCLI(t *testing.T, env ...string) *cli {
	return &cli{t: t, home: t.TempDir(), env: env}
}

func (c *cli) command(args ...string) *exec.Cmd {
	cmd := exec.Command(ptcBin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + c.home, "PTC_HOME=" + c.home, "XDG_CACHE_HOME=" + cacheDir, "PTC_SH_SERVER=0"}, c.env...)
	cmd.Dir = c.home
	return cmd
}

// run runs ptc and returns stdout, stderr and the exit code.
func (c *cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	return c.collect(c.command(args...))
}

// collect runs cmd and returns stdout, stderr and the exit code.
func (c *cli) collect(cmd *exec.Cmd) (string, string, int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// ok runs ptc and fails the test unless it exits 0.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errs, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("ptc %v exited %d\nstdout: %s\nstderr: %s", args, code, out, errs)
	}
	return out
}

type shown struct {
	Session session.Header  `json:"session"`
	Events  []session.Event `json:"events"`
}

// show returns a session as `ptc session show --output json` prints it,
// and checks that its seqs are 0…n-1.
func (c *cli) show(id string) shown {
	c.t.Helper()
	var s shown
	if err := json.Unmarshal([]byte(c.ok("session", "show", id, "--output", "json")), &s); err != nil {
		c.t.Fatal(err)
	}
	for i, e := range s.Events {
		if e.Seq != int64(i) {
			c.t.Fatalf("event %d has seq %d: seqs must be contiguous from 0", i, e.Seq)
		}
	}
	return s
}

// types lists event types, chunks left out.
func types(events []session.Event) []string {
	var out []string
	for _, e := range events {
		if e.Type != session.TypeAssistantChunk {
			out = append(out, e.Type)
		}
	}
	return out
}

type finalJSON struct {
	SessionID string `json:"session_id"`
	Text      string `json:"text"`
	Reason    string `json:"reason"`
	Turn      int    `json:"turn"`
	Failure   string `json:"failure"`
}

func parseFinal(t *testing.T, out string) finalJSON {
	t.Helper()
	var f finalJSON
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if f.SessionID == "" {
		t.Fatalf("the final object carries no session_id: %s", out)
	}
	return f
}
