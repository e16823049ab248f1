package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runtimeDebris is what of the Go runtime must never reach a user or a
// model: a traceback's goroutine headers, runtime frames, host pointers.
var runtimeDebris = regexp.MustCompile(`goroutine |runtime\.|0x[0-9a-f]+|PANIC`)

// TestGuestLimitsThroughTheCLI is issue 30's must-shows on the built
// binary: the devices stream, an out-of-memory command ends with one
// sentence naming the limit, and a program's 100 MB tool argument is
// refused before anything runs, with `ptc exec --output json` staying
// small.
func TestGuestLimitsThroughTheCLI(t *testing.T) {
	c := newCLI(t)
	ws := workspace(t)
	t.Run("head -c 1000 /dev/zero | wc -c prints 1000", func(t *testing.T) {
		if out := c.ok("sh", "--workspace", ws, "head -c 1000 /dev/zero | wc -c"); out != "1000\n" {
			t.Errorf("stdout %q", out)
		}
	})
	t.Run("an out-of-memory command says so in one line and keeps what it printed", func(t *testing.T) {
		out, errs, code := c.run("sh", "--workspace", ws, "--timeout", "10m", `echo before; x=aaaaaaaaaaaaaaaa; while true; do x="$x$x"; done`)
		if code == 0 || out != "before\n" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "out of memory (limit 256 MiB)") || runtimeDebris.MatchString(errs) {
			t.Errorf("stderr %q", errs)
		}
	})
	t.Run("a 100 MB tool argument is refused and the JSON output stays small", func(t *testing.T) {
		prog := filepath.Join(t.TempDir(), "big.ts")
		code := `return await tools.bash({ command: "echo " + "a".repeat(100 << 20) }).catch((e: any) => e.code + ": " + e.message);`
		if err := os.WriteFile(prog, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out := c.ok("exec", "--workspace", ws, "--output", "json", prog)
		if len(out) > 2<<20 || !strings.Contains(out, "INVALID_ARGS") || !strings.Contains(out, "4 MiB") || runtimeDebris.MatchString(out) {
			t.Errorf("%d bytes: %.400s", len(out), out)
		}
	})
}
