package ptc

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

// pingEnv turns the test binary into an echo process for
// BenchmarkPipePingPong: it sends back every frame it reads, reading its
// stdin as the value says ("poller" or "pipe", see pingReader).
const pingEnv = "PTC_TEST_PINGPONG"

func init() {
	mode := os.Getenv(pingEnv)
	if mode == "" {
		return
	}
	os.Exit(unlocked(func() int {
		open := pollable // one *os.File per descriptor: a second would close it when collected
		if mode == "pipe" {
			open = blocking
		}
		in := open(0, "stdin")
		r, w := newFrameReader(pingReader(in, mode), 1<<20), newFrameWriter(os.Stdout)
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

// pingReader reads f in Go's poller ("poller", how the engine read before)
// or as a pipeReader ("pipe", how the host and the engine read now).
func pingReader(f *os.File, mode string) io.Reader {
	if mode != "pipe" {
		return f
	}
	pr, err := newPipeReader(f, nil)
	if err != nil {
		panic(err)
	}
	pr.poll = true // every frame answers the one just sent
	return pr
}

// BenchmarkPipePingPong is the floor under a sequential nested call: one
// small frame to a child process and back over the same kind of pipes
// and framing the engine uses, with one goroutine on each side (two
// cross-process hand-offs and nothing else). "pipe" reads as the host and
// the engine do (pipe.go), "poller" parks in Go's poller as they did
// before. Compare NestedCall figures with it in the same run: on a loaded
// machine they move together.
func BenchmarkPipePingPong(b *testing.B) {
	for _, mode := range []string{"pipe", "poller"} {
		b.Run(mode, func(b *testing.B) { pingPong(b, mode) })
	}
}

func pingPong(b *testing.B, mode string) {
	exe, err := selfExecutable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(engineEnviron(), pingEnv+"="+mode)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	open := os.Pipe
	if mode == "pipe" {
		open = blockingPipe
	}
	out, outW, err := open()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	outW.Close()
	defer func() {
		in.Close()
		_ = cmd.Wait()
		out.Close()
	}()
	r, w := newFrameReader(pingReader(out, mode), 1<<20), newFrameWriter(in)
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
