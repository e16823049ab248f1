package ptc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// engineProc is one engine process as the host sees it.
type engineProc struct {
	cmd    *exec.Cmd
	w      *frameWriter // to its stdin: starts and settlements
	r      *frameReader // from its stdout
	rp     *pipeReader  // under r
	intr   *frameWriter // to its interrupt pipe (see serveEngine)
	stdin  *os.File
	intrW  *os.File
	stdout *os.File
	stderr *headBuffer // the start of its stderr, to tell why it died
	budget uint64
	exited chan struct{} // closed once the process has been reaped
	killed sync.Once
}

// maxEngineFrame bounds a frame from an engine. A console line or a result
// is at most the hard output cap, which an engine enforces itself; a
// nested call's arguments (a large write) can be as big as anything the
// program can hold, its memory budget.
func maxEngineFrame(hard int, budget uint64) int {
	return hard + int(min(budget, 1<<32)) + 1<<20
}

// helloTimeout bounds an engine's start-up (a -race test binary is slow).
const helloTimeout = 30 * time.Second

// spawnEngine starts an engine process for programs with the given memory
// budget and waits for its greeting, until the deadline at most.
func spawnEngine(budget uint64, hard int, deadline time.Time) (*engineProc, error) {
	exe, err := selfExecutable()
	if err != nil {
		return nil, err
	}
	pipes, err := openPipes()
	if err != nil {
		return nil, err
	}
	inR, inW, outR, outW, intrR, intrW := pipes[0][0], pipes[0][1], pipes[1][0], pipes[1][1], pipes[2][0], pipes[2][1]
	e := &engineProc{stdin: inW, stdout: outR, intrW: intrW, stderr: &headBuffer{max: 16 << 10}, budget: budget, exited: make(chan struct{})}
	e.cmd = exec.Command(exe)
	e.cmd.Env = append(engineEnviron(), engineEnv+"="+wireVersion, engineMemEnv+"="+strconv.FormatUint(budget, 10))
	e.cmd.Stdin, e.cmd.Stdout, e.cmd.Stderr = inR, outW, e.stderr
	e.cmd.ExtraFiles = []*os.File{intrR} // descriptor interruptFD
	e.cmd.SysProcAttr = engineSysProcAttr()
	err = e.cmd.Start()
	inR.Close()
	outW.Close()
	intrR.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		intrW.Close()
		return nil, err
	}
	go func() {
		_ = e.cmd.Wait()
		close(e.exited)
	}()
	pr, err := newPipeReader(outR, nil)
	if err != nil {
		e.kill()
		<-e.exited
		outR.Close()
		return nil, err
	}
	e.w, e.r, e.rp, e.intr = newFrameWriter(inW), newFrameReader(pr, maxEngineFrame(hard, budget)), pr, newFrameWriter(intrW)
	t := time.AfterFunc(min(helloTimeout, time.Until(deadline)), e.kill)
	typ, p, err := e.r.next()
	t.Stop()
	if err == nil && (typ != frameHello || string(p) != wireVersion) {
		err = fmt.Errorf("unexpected greeting %q", p)
	}
	if err != nil {
		e.kill()
		<-e.exited
		outR.Close()
		return nil, fmt.Errorf("the engine process did not start: %v%s", err, e.stderr.excerpt())
	}
	return e, nil
}

// openPipes opens an engine's pipes (read end, write end), or none: its
// input, its output, its interrupts. Its output is a blocking pipe outside
// Go's poller, read by a pipeReader (see pipe.go); the others are Go's
// usual pipes (the engine makes its input blocking at its end).
func openPipes() ([][2]*os.File, error) {
	var ps [][2]*os.File
	for i := range 3 {
		open := os.Pipe
		if i == 1 {
			open = blockingPipe
		}
		r, w, err := open()
		if err != nil {
			for _, p := range ps {
				p[0].Close()
				p[1].Close()
			}
			return nil, err
		}
		ps = append(ps, [2]*os.File{r, w})
	}
	return ps, nil
}

// engineEnviron is the part of the host's environment an engine gets:
// the Go runtime's own settings, named one by one, and nothing else, so
// API keys and tokens never reach the process that runs model-written
// code. (A GO prefix let GOPROXY credentials, GOAUTH and GOOGLE_API_KEY
// through.) GORACE and GOCOVERDIR serve -race and coverage runs.
func engineEnviron() []string {
	var env []string
	for _, k := range engineEnvKeys {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// engineEnvKeys are the variables engineEnviron passes on.
var engineEnvKeys = []string{"GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG", "GOTRACEBACK", "GORACE", "GOCOVERDIR"}

// kill ends the process at once; reads and writes then fail.
func (e *engineProc) kill() {
	e.killed.Do(func() {
		if e.cmd.Process != nil {
			_ = e.cmd.Process.Kill()
		}
		e.stdin.Close()
		e.intrW.Close()
	})
}

// close kills the process and releases its pipes once it has exited.
func (e *engineProc) close() {
	e.kill()
	go func() {
		<-e.exited
		e.stdout.Close()
	}()
}

func (e *engineProc) alive() bool {
	select {
	case <-e.exited:
		return false
	default:
		return true
	}
}

func (e *engineProc) pid() int { return e.cmd.Process.Pid }

// waitExit waits a little for the process to be reaped after its stdout
// closed, so its stderr is complete.
func (e *engineProc) waitExit() {
	select {
	case <-e.exited:
	case <-time.After(2 * time.Second):
		e.kill()
		<-e.exited
	}
}

// enginePool keeps idle engine processes for reuse: starting one costs a
// process start and the Go runtime's, several milliseconds. An engine goes
// back to the pool only after a run that ended cleanly and left its memory
// near where it started; any other engine is killed.
type enginePool struct {
	mu   sync.Mutex
	idle []*engineProc
}

// maxIdleEngines bounds the processes kept waiting.
const maxIdleEngines = 4

// retireGrowth is how much an engine's resident memory may have grown
// over its runs before it is retired instead of reused.
const retireGrowth = 64 << 20

var engines enginePool

// acquire returns an idle engine with the budget, or starts one.
func (p *enginePool) acquire(budget uint64, hard int, deadline time.Time) (e *engineProc, reused bool, err error) {
	p.mu.Lock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		c := p.idle[i]
		if c.budget != budget || !c.alive() {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.mu.Unlock()
		c.r.max = maxEngineFrame(hard, budget)
		return c, true, nil
	}
	p.mu.Unlock()
	e, err = spawnEngine(budget, hard, deadline)
	return e, false, err
}

// release takes an engine back after a clean run, or kills it.
func (p *enginePool) release(e *engineProc, base uint64) {
	if rss, ok := residentBytes(e.pid()); ok && rss > base+retireGrowth {
		e.close()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) >= maxIdleEngines || !e.alive() {
		e.close()
		return
	}
	p.idle = append(p.idle, e)
}

// headBuffer keeps the first max bytes written to it and discards the rest.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.b)
}

// excerpt is the first line of the stderr, for start-up errors (which
// are the host's own problem, not the program's).
func (h *headBuffer) excerpt() string {
	s := strings.TrimSpace(h.String())
	if s == "" {
		return ""
	}
	line, _, _ := strings.Cut(s, "\n")
	return " (" + cutRune(line, 200, true) + ")"
}

// deathFailure says why an engine died by itself mid-run, from what the Go
// runtime printed. The runtime's text is never shown: it holds internals.
func deathFailure(stderr string, budget uint64) *Failure {
	switch {
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		return &Failure{Kind: KindException, Message: "RangeError: maximum call stack size exceeded inside a built-in function " +
			"(for example flat(Infinity) on an array that contains itself, or a value nested too deeply)"}
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		return &Failure{Kind: KindMemoryLimit, Message: fmt.Sprintf(
			"the program tried to allocate more memory than its %d MiB budget in one operation "+
				"(such as a huge repeat, Array or join); process data in smaller pieces", budget>>20)}
	}
	return &Failure{Kind: KindException, Message: "the JavaScript engine stopped unexpectedly while running this program"}
}

// errIsEOF reports the end of an engine's output: it exited, was killed,
// or closed it.
func errIsEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed)
}
