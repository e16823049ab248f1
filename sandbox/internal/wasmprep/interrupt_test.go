package wasmprep

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
)

// spinModule exports "spin", an endless loop; it imports sched_yield and
// has one global, as the Go guest does.
var spinModule = module(
	sec(1, 0x02, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7F), // types: () -> (), () -> i32
	sec(2, cat([]byte{0x01}, name("wasi_snapshot_preview1"), name("sched_yield"), []byte{0x00, 0x01})...),
	sec(3, 0x01, 0x00),                         // function 1 has type 0
	sec(6, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B), // global 0: i32 const 0
	sec(7, cat([]byte{0x01}, name("spin"), []byte{0x00, 0x01})...),
	sec(10, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0C, 0x00, 0x0B, 0x0B), // loop br 0 end end
)

func module(secs ...[]byte) []byte {
	return cat(append([][]byte{{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}}, secs...)...)
}

func sec(id byte, body ...byte) []byte { return cat([]byte{id}, uleb(uint32(len(body))), body) }

func name(s string) []byte { return cat(uleb(uint32(len(s))), []byte(s)) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestSettingTheGlobalStopsAnEndlessLoop(t *testing.T) {
	wasm, err := AddInterrupt(spinModule)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx) // no WithCloseOnContextDone: the global must do it
	defer rt.Close(ctx)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := mod.ExportedGlobal(Export).(api.MutableGlobal)
	if !ok {
		t.Fatalf("no mutable global %s exported", Export)
	}
	done := make(chan error)
	go func() {
		_, err := mod.ExportedFunction("spin").Call(ctx)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond) // let it spin; any time works
	// A stop-the-world pause must not wait for the spinning guest (it
	// would hang here, and so would the goroutine meant to stop it).
	runtime.GC()
	g.Set(1)
	if err := <-done; err == nil {
		t.Fatalf("spin returned %v, want a trap", err)
	}
}

func TestTheEmbeddedGuestIsInstrumentedAndStillCompiles(t *testing.T) {
	raw := guestwasm.Wasm()
	wasm, err := AddInterrupt(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(wasm) <= len(raw) {
		t.Fatalf("instrumented module (%d bytes) is not larger than the original (%d)", len(wasm), len(raw))
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.ExportedFunctions()["ptc_run"]; !ok {
		t.Fatal("ptc_run lost")
	}
}

func TestMalformedModulesAreRefused(t *testing.T) {
	for name, wasm := range map[string][]byte{
		"empty":     nil,
		"not wasm":  []byte("hello world!"),
		"truncated": spinModule[:len(spinModule)-3],
		"no global": module(sec(1, 0x01, 0x60, 0x00, 0x00), sec(3, 0x01, 0x00), sec(7, 0x00),
			sec(10, 0x01, 0x04, 0x00, 0x01, 0x0B)),
		"no sched_yield": module(sec(1, 0x01, 0x60, 0x00, 0x00), sec(3, 0x01, 0x00),
			sec(6, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B), sec(7, 0x00), sec(10, 0x01, 0x02, 0x00, 0x0B)),
		"unknown opcode": cat(spinModule[:len(spinModule)-11], sec(10, 0x01, 0x04, 0x00, 0xFD, 0x0B, 0x0B)),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := AddInterrupt(wasm); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
