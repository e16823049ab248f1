package main

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ptc sh starts a resident server after running a command itself, the
// next ptc sh is answered by it with the same result, and the server
// exits (its socket gone) once idle.
func TestPtcShStartsAResidentServerThatAnswersAndExitsWhenIdle(t *testing.T) {
	run, err := os.MkdirTemp("", "ptcrt") // a socket path has at most 107 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(run)
	c := newCLI(t, "PTC_SH_SERVER=1", "PTC_SH_SERVER_IDLE=5s", "XDG_RUNTIME_DIR="+run)
	ws := t.TempDir()
	if out := c.ok("sh", "--workspace", ws, "--timeout", "10m", "echo one"); out != "one\n" {
		t.Fatalf("%q", out)
	}
	socks := func() []string {
		s, _ := filepath.Glob(filepath.Join(run, "ptc", "run", "sh-*.sock"))
		return s
	}
	var sock string
	for start := time.Now(); sock == ""; time.Sleep(20 * time.Millisecond) {
		for _, s := range socks() {
			if conn, err := net.Dial("unix", s); err == nil {
				conn.Close()
				sock = s
			}
		}
		if time.Since(start) > 3*time.Minute {
			t.Fatal("no server started")
		}
	}
	if out, errs, code := c.run("sh", "--workspace", ws, "echo two > f && cat f && exit 4"); out != "two\n" || code != 4 {
		t.Fatalf("%q %q %d", out, errs, code)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "f")); err != nil || string(b) != "two\n" {
		t.Fatalf("%q %v", b, err)
	}
	for start := time.Now(); len(socks()) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 2*time.Minute {
			t.Fatalf("the idle server is still there: %v", socks())
		}
	}
}
