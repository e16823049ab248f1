package ptc

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// waitTool blocks until ready is closed (then returns "ready") or its
// call is cancelled.
type waitTool struct {
	*fakeTool
	ready <-chan struct{}
}

func (w *waitTool) Execute(ctx context.Context, _ tools.Call) (any, error) {
	select {
	case <-w.ready:
		return "ready", nil
	case <-ctx.Done():
		return nil, tools.Errorf(tools.CodeAborted, "cancelled")
	}
}

// logSignal is a Sink that closes seen when a console line with the text
// arrives.
type logSignal struct {
	recordingSink
	text string
	once sync.Once
	seen chan struct{}
}

func (s *logSignal) Emit(typ string, data any) error {
	if l, ok := data.(session.PtcLog); ok && typ == session.TypePtcLog && l.Text == s.text {
		s.once.Do(func() { close(s.seen) })
	}
	return s.recordingSink.Emit(typ, data)
}

func TestTheHostHearsTheProgramWhileItsOnlyCallRuns(t *testing.T) {
	cases := []struct{ name, code string }{
		{"a timer prints during the call", `setTimeout(() => console.log("tick"), 5); return await tools.wait({})`},
		{"a second call's settlement lets the program print", `const p = tools.wait({}); await tools.echo({}); console.log("tick"); return await p`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sink := &logSignal{text: "tick", seen: make(chan struct{})}
			d := newFakeDispatcher(&fakeTool{name: "echo", safe: true})
			d.tools["wait"] = &waitTool{fakeTool: &fakeTool{name: "wait", safe: true}, ready: sink.seen}
			// If the host stopped reading while the wait call ran, the line
			// would never arrive and the run would end at its timeout.
			o := Run(context.Background(), Limits{Timeout: time.Minute}, Request{CallID: "c", Code: c.code, Tools: d.names(), Dispatcher: d, Sink: sink})
			if !o.OK() || string(o.Result) != `"ready"` {
				t.Fatalf("outcome %+v result %s", o.Failure, o.Result)
			}
		})
	}
}

func TestAnAwaitedCallEndsWithTheRun(t *testing.T) {
	cases := []struct {
		name   string
		lim    Limits
		cancel bool
		kind   string
	}{
		{"at the deadline", Limits{Timeout: 2 * time.Second}, false, KindTimeout}, // time to start the engine under load
		{"when the run is cancelled", Limits{Timeout: time.Minute}, true, KindAborted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			started := make(chan struct{})
			d := newFakeDispatcher()
			d.tools["slow"] = &blockingTool{fakeTool: &fakeTool{name: "slow"}, started: started}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				go func() { <-started; cancel() }()
			}
			// The call blocks until its context is cancelled: a run that did
			// not cancel it would never return.
			o := Run(ctx, c.lim, Request{CallID: "c", Code: "console.log('before'); await tools.slow({}); return 1", Tools: d.names(), Dispatcher: d})
			if o.OK() || o.Failure.Kind != c.kind {
				t.Fatalf("outcome %+v, want %s", o.Failure, c.kind)
			}
			if len(o.Calls) != 1 || !o.Calls[0].Started || o.Calls[0].Code != tools.CodeAborted || len(o.Logs) != 1 {
				t.Fatalf("calls %+v logs %q", o.Calls, o.Logs)
			}
		})
	}
}

func TestTimersAndCallsInterleave(t *testing.T) {
	d := echoTools()
	code := `const order: string[] = [];
const t = new Promise(r => setTimeout(() => { order.push("timer"); r(0) }, 1));
for (let i = 0; i < 20; i++) { await tools.echo({ i }); }
await t;
order.push("calls");
return order`
	o := runCode(t, d, Limits{}, code)
	if !o.OK() || !strings.Contains(string(o.Result), `"timer"`) || len(o.Calls) != 20 {
		t.Fatalf("outcome %+v result %s calls %d", o.Failure, o.Result, len(o.Calls))
	}
}

// pipeInbox is an inbox on the read end of a blocking pipe, as the
// engine reads its stdin, and the write end.
func pipeInbox(t *testing.T) (*inbox, *os.File) {
	t.Helper()
	r, w, err := blockingPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	in, err := newInbox(r)
	if err != nil {
		t.Fatal(err)
	}
	return in, w
}

func TestAFrameCutByAWakeIsReadWhole(t *testing.T) {
	for _, size := range []int{10, frameBuffer + 1000} {
		t.Run(map[int]string{10: "a small frame", frameBuffer + 1000: "a frame larger than the buffer"}[size], func(t *testing.T) {
			in, w := pipeInbox(t)
			var buf strings.Builder
			fw := newFrameWriter(&buf)
			payload := strings.Repeat("p", size)
			_ = fw.write(frameSettle, []byte(payload))
			wire := buf.String()
			half := len(wire) / 2
			go func() { _, _ = w.WriteString(wire[:half]) }() // a large half fills the pipe
			// Woken while the frame is half there, blocking and polling.
			for i := 0; i < 3; i++ {
				in.pr.poll = i == 1
				time.AfterFunc(10*time.Millisecond, in.wake)
				if _, _, err := in.next(); err != errWoken {
					t.Fatalf("read %d: %v, want errWoken", i, err)
				}
			}
			go func() { _, _ = w.WriteString(wire[half:]) }()
			typ, p, err := in.next()
			if err != nil || typ != frameSettle || string(p) != payload {
				t.Fatalf("got %q %d bytes %v", typ, len(p), err)
			}
		})
	}
}

func TestAWakeBeforeAReadEndsThatRead(t *testing.T) {
	in, w := pipeInbox(t)
	in.wake()
	in.wake() // two wakes before a read end one read, not two
	if _, _, err := in.next(); err != errWoken {
		t.Fatalf("got %v, want errWoken", err)
	}
	_ = newFrameWriter(w).write(frameSettle, []byte("x"))
	if typ, p, err := in.next(); err != nil || typ != frameSettle || string(p) != "x" {
		t.Fatalf("got %q %q %v, want the frame", typ, p, err)
	}
}

func TestAPipeReaderSeesTheWriterGo(t *testing.T) {
	for _, poll := range []bool{false, true} {
		t.Run(map[bool]string{false: "blocking", true: "polling first"}[poll], func(t *testing.T) {
			in, w := pipeInbox(t)
			in.pr.poll = poll
			go func() {
				time.Sleep(5 * time.Millisecond)
				_, _ = w.Write([]byte{1, 0, 0}) // part of a frame header
				w.Close()
			}()
			if _, _, err := in.next(); err != io.ErrUnexpectedEOF {
				t.Fatalf("got %v, want io.ErrUnexpectedEOF", err)
			}
		})
	}
}

func TestPollingBacksOffAfterMisses(t *testing.T) {
	in, w := pipeInbox(t)
	in.pr.poll = true
	fw := newFrameWriter(w)
	for i := 0; i < 6; i++ { // every frame comes long after the poll window
		time.AfterFunc(20*time.Millisecond, func() { _ = fw.write(frameSettle, []byte("x")) })
		if _, _, err := in.next(); err != nil {
			t.Fatal(err)
		}
	}
	if in.pr.skip < 2 { // 4 unless a poll was late enough to find its frame
		t.Fatalf("after 6 late frames the reader blocks at once for %d reads, want at least 2", in.pr.skip)
	}
	_ = fw.write(frameSettle, []byte("x"))
	for i := 0; i <= in.pr.skip; i++ {
		if i > 0 {
			_ = fw.write(frameSettle, []byte("x"))
		}
		if _, _, err := in.next(); err != nil {
			t.Fatal(err)
		}
	}
	if in.pr.skip != 0 {
		t.Fatalf("a frame found by polling left skip at %d, want 0", in.pr.skip)
	}
}

func TestAWaitFrameIsTakenOnlyForItsCall(t *testing.T) {
	var buf strings.Builder
	fw := newFrameWriter(&buf)
	_ = fw.buffer(frameCall, encodeCall(callFrame{n: 6, name: "x", args: "{}"})...)
	_ = fw.buffer(frameCall, encodeCall(callFrame{n: 7, name: "x", args: "{}"})...)
	_ = fw.write(frameWait, u32(7))
	fr := newFrameReader(strings.NewReader(buf.String()), 1<<20)
	if typ, _, err := fr.next(); err != nil || typ != frameCall {
		t.Fatalf("got %q %v", typ, err)
	}
	if fr.takeWait(7) {
		t.Fatal("took a wait frame while a call frame comes first")
	}
	if typ, p, err := fr.next(); err != nil || typ != frameCall || p[0] != 7 {
		t.Fatalf("got %q %v %v", typ, p, err)
	}
	if fr.takeWait(8) {
		t.Fatal("took the wait frame of call 7 for call 8")
	}
	if !fr.takeWait(7) {
		t.Fatal("did not take the wait frame of call 7")
	}
	if _, _, err := fr.next(); err != io.EOF {
		t.Fatalf("after the wait frame: %v, want EOF", err)
	}
}
