package wasmprep

import (
	"context"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
)

// spinModule exports "spin", an endless loop, and has one global.
var spinModule = []byte{
	0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00,
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: () -> ()
	0x03, 0x02, 0x01, 0x00, // function 0 has type 0
	0x06, 0x06, 0x01, 0x7F, 0x00, 0x41, 0x00, 0x0B, // global 0: i32 const 0
	0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x00, // export "spin"
	0x0A, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0C, 0x00, 0x0B, 0x0B, // loop br 0 end end
}

func TestSettingTheGlobalStopsAnEndlessLoop(t *testing.T) {
	wasm, err := AddInterrupt(spinModule)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx) // no WithCloseOnContextDone: the global must do it
	defer rt.Close(ctx)
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
		"empty":          nil,
		"not wasm":       []byte("hello world!"),
		"truncated":      spinModule[:len(spinModule)-3],
		"no global":      append(append([]byte(nil), spinModule[:18]...), spinModule[26:]...),
		"unknown opcode": append(append([]byte(nil), spinModule[:len(spinModule)-9]...), 0x0A, 0x06, 0x01, 0x04, 0x00, 0xFD, 0x0B, 0x0B),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := AddInterrupt(wasm); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
