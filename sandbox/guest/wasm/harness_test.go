package guestwasm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/hoststub"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// swapReader is the guest's stdin: each call gets a fresh request, and the
// guest sees EOF once it has read it.
type swapReader struct {
	mu sync.Mutex
	r  *bytes.Reader
}

func (s *swapReader) set(b []byte) { s.mu.Lock(); s.r = bytes.NewReader(b); s.mu.Unlock() }

func (s *swapReader) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(p)
}

// lockedBuffer collects stdout or stderr between calls.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}

// guest is one reactor instance of the embedded module, mounting dir at
// the same path inside, as the host does with the workspace.
type guest struct {
	t      testing.TB
	mod    api.Module
	run    api.Function
	stdin  *swapReader
	stdout *lockedBuffer
	stderr *lockedBuffer
}

var (
	compileOnce sync.Once
	rt          wazero.Runtime
	compiled    wazero.CompiledModule
	compileErr  error
)

func newGuest(t testing.TB, dir string) *guest {
	t.Helper()
	ctx := context.Background()
	compileOnce.Do(func() {
		rt = wazero.NewRuntime(ctx)
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		compileErr = hoststub.Refusing(ctx, rt)
		if compileErr == nil {
			compiled, compileErr = rt.CompileModule(ctx, Wasm())
		}
	})
	if compileErr != nil {
		t.Fatal(compileErr)
	}
	g := &guest{t: t, stdin: &swapReader{r: bytes.NewReader(nil)}, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}}
	cfg := wazero.NewModuleConfig().WithName("").
		WithStdin(g.stdin).WithStdout(g.stdout).WithStderr(g.stderr).
		WithFSConfig(wazero.NewFSConfig().WithDirMount(dir, dir)).
		WithSysWalltime().WithSysNanotime().WithRandSource(rand.Reader).
		WithStartFunctions("_initialize")
	mod, err := rt.InstantiateModule(ctx, compiled, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mod.Close(ctx) })
	g.mod, g.run = mod, mod.ExportedFunction(proto.ExportRun)
	if g.run == nil {
		t.Fatalf("the guest does not export %s", proto.ExportRun)
	}
	return g
}

// call performs one request and returns the status, stdout and stderr.
func (g *guest) call(req proto.Request) (int, string, string) {
	g.t.Helper()
	data, _ := json.Marshal(req)
	g.stdin.set(data)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := g.run.Call(ctx)
	if err != nil {
		g.t.Fatalf("%s trapped: %v (stderr %q)", req.Op, err, g.stderr.take())
	}
	return int(int32(res[0])), g.stdout.take(), g.stderr.take()
}

func (g *guest) file(op string, fr proto.FileRequest) proto.FileResponse {
	g.t.Helper()
	code, out, errs := g.call(proto.Request{Op: op, File: &fr})
	if code != 0 {
		g.t.Fatalf("%s returned %d: %s", op, code, errs)
	}
	var resp proto.FileResponse
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		g.t.Fatalf("%s answered %q: %v", op, out, err)
	}
	return resp
}
