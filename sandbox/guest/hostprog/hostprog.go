//go:build wasip1

// Package hostprog is the guest side of host programs: it implements
// shell.HostPrograms over the functions of the host module
// proto.HostModule (see sandbox/proto/hostexec.go for the contract).
//
// A host program runs while the guest keeps running its pipeline: the
// program's stdin is fed from the command's stdin reader, and its stdout
// and stderr are written to the command's writers (a pipe to the next
// stage, a file, the call's own output), all from one loop of exec_io
// calls. The guest is single-threaded, so the loop never blocks in the
// host while another goroutine could run: it yields first, and waits in
// the host only when no goroutine has work (waking on any host program's
// activity, or after a short timer for the guest's own sleeps). Output
// that goes straight to the call's stdout or stderr is written there by
// the host and never passes through the guest.
package hostprog

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/interp"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

//go:wasmimport ptc_host lookup
func hostLookup(name unsafe.Pointer, nameLen uint32, out unsafe.Pointer, outCap uint32) int32

//go:wasmimport ptc_host exec_start
func hostExecStart(req unsafe.Pointer, reqLen uint32, out unsafe.Pointer, outCap uint32) int32

//go:wasmimport ptc_host exec_io
func hostExecIO(handle uint32, in unsafe.Pointer, inLen uint32, flags uint32, out unsafe.Pointer, outCap uint32, errOut unsafe.Pointer, errCap uint32, waitMs uint32, res unsafe.Pointer) int32

//go:wasmimport ptc_host exec_close
func hostExecClose(handle uint32) int32

// Programs implements shell.HostPrograms.
type Programs struct{}

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// call passes in and a reply buffer to f and decodes the n / -n answer.
func call(f func(unsafe.Pointer, uint32, unsafe.Pointer, uint32) int32, in []byte) (int32, string) {
	out := make([]byte, 4096)
	n := f(ptr(in), uint32(len(in)), ptr(out), uint32(len(out)))
	if n >= 0 {
		return n, string(out[:min(int(n), len(out))])
	}
	return n, string(out[:min(int(-n), len(out))])
}

// Lookup implements shell.HostPrograms.
func (Programs) Lookup(name string) (string, error) {
	n, text := call(hostLookup, []byte(name))
	if n > 0 {
		return text, nil
	}
	return "", errors.New(text)
}

// Run implements shell.HostPrograms.
func (Programs) Run(ctx context.Context, args []string, ownStdin bool) int {
	hc := interp.HandlerCtx(ctx)
	req := proto.ExecRequest{Args: args, Dir: hc.Dir, Env: exported(hc.Env), Stdout: proto.StreamPipe, Stderr: proto.StreamPipe}
	if same(hc.Stdout, os.Stdout) {
		req.Stdout = proto.StreamDirect
	}
	switch {
	case same(hc.Stderr, hc.Stdout):
		req.Stderr = proto.StreamStdout
	case same(hc.Stderr, os.Stderr):
		req.Stderr = proto.StreamDirect
	}
	body, _ := json.Marshal(req)
	handle, text := call(hostExecStart, body)
	if handle <= 0 {
		io.WriteString(hc.Stderr, args[0]+": "+text+"\n")
		return 126
	}
	var stdin io.Reader
	if ownStdin {
		stdin = hc.Stdin
	}
	return pump(uint32(handle), stdin, hc.Stdout, hc.Stderr)
}

// same reports whether two writers are the same object (without
// panicking on values that cannot be compared).
func same(a, b io.Writer) bool {
	if a == nil || b == nil {
		return false
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}

// exported lists the exported variables, "K=V".
func exported(env expand.Environ) []string {
	var out []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			out = append(out, name+"="+vr.String())
		}
		return true
	})
	return out
}

// pump drives one host program to its end and returns its exit status.
func pump(handle uint32, stdin io.Reader, stdout, stderr io.Writer) int {
	defer hostExecClose(handle)
	done := make(chan struct{})
	defer close(done)
	chunks := readChunks(stdin, done)
	outBuf, errBuf := make([]byte, 32<<10), make([]byte, 32<<10)
	var res [proto.ExecResultWords * 4]byte
	var pending []byte
	stdinDone := chunks == nil
	gone := uint32(0)
	idle := 0
	for {
		if len(pending) == 0 && !stdinDone {
			select {
			case b, ok := <-chunks:
				pending, stdinDone = b, !ok
			default:
			}
		}
		flags := gone
		if stdinDone && len(pending) == 0 {
			flags |= proto.ExecStdinEOF
		}
		wait := uint32(0)
		if idle > 1 {
			wait = uint32(min(idle, 10))
		}
		if hostExecIO(handle, ptr(pending), uint32(len(pending)), flags, ptr(outBuf), uint32(len(outBuf)),
			ptr(errBuf), uint32(len(errBuf)), wait, unsafe.Pointer(&res[0])) < 0 {
			return 125 // the call is ending
		}
		word := func(i int) uint32 { return binary.LittleEndian.Uint32(res[i*4:]) }
		accepted, nOut, nErr := word(0), word(1), word(2)
		pending = pending[accepted:]
		if nOut > 0 && gone&proto.ExecStdoutGone == 0 {
			if _, err := stdout.Write(outBuf[:nOut]); err != nil {
				gone |= proto.ExecStdoutGone
			}
		}
		if nErr > 0 && gone&proto.ExecStderrGone == 0 {
			if _, err := stderr.Write(errBuf[:nErr]); err != nil {
				gone |= proto.ExecStderrGone
			}
		}
		if word(3) == 1 {
			return int(word(4))
		}
		if accepted == 0 && nOut == 0 && nErr == 0 {
			idle++
			runtime.Gosched() // let the rest of the pipeline run first
		} else {
			idle = 0
		}
	}
}

// readChunks reads r in the background (it may be a pipe from another
// stage of the pipeline) and hands over what it read; the channel closes
// at the end, and the reader stops once done is closed. nil for no
// stdin.
func readChunks(r io.Reader, done <-chan struct{}) chan []byte {
	if r == nil {
		return nil
	}
	if sr, ok := r.(*strings.Reader); ok && sr.Len() == 0 {
		return nil
	}
	ch := make(chan []byte, 1)
	go func() {
		defer close(ch)
		for {
			buf := make([]byte, 32<<10)
			n, err := r.Read(buf)
			if n > 0 {
				select {
				case ch <- buf[:n]:
				case <-done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}
