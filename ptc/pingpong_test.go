package ptc

import (
	"os"
	"os/exec"
	"testing"
)

// pingEnv turns the test binary into an echo process for
// BenchmarkPipePingPong: it sends back every frame it reads.
const pingEnv = "PTC_TEST_PINGPONG"

func init() {
	if os.Getenv(pingEnv) != "1" {
		return
	}
	os.Exit(unlocked(func() int {
		r, w := newFrameReader(pollable(0, "stdin"), 1<<20), newFrameWriter(os.Stdout)
		for {
			typ, p, err := r.next()
			if err != nil {
				return 0
			}
			if w.write(typ, p) != nil {
				return 1
			}
		}
	}))
}

// BenchmarkPipePingPong is the floor under a sequential nested call: one
// small frame to a child process and back over the same kind of pipes
// and framing the engine uses, with one goroutine on each side (two
// cross-process wake-ups and nothing else). Compare NestedCall figures
// with it in the same run: on a loaded machine both move together.
func BenchmarkPipePingPong(b *testing.B) {
	exe, err := selfExecutable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(engineEnviron(), pingEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	r, w := newFrameReader(out, 1<<20), newFrameWriter(in)
	payload := []byte("\x01\x00\x00\x00n")
	if err := w.write(frameSettle, payload); err != nil { // the child has started
		b.Fatal(err)
	}
	if _, _, err := r.next(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := w.write(frameSettle, payload); err != nil {
			b.Fatal(err)
		}
		if _, _, err := r.next(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "µs/roundtrip")
}
