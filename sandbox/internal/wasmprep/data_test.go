package wasmprep

import (
	"bytes"
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
	"github.com/ptc-dev/ptc/sandbox/internal/hoststub"
)

// initialMemory instantiates wasm without running anything and returns
// its linear memory.
func initialMemory(t *testing.T, rt wazero.Runtime, wasm []byte) []byte {
	t.Helper()
	ctx := context.Background()
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close(ctx)
	mem, _ := mod.Memory().Read(0, mod.Memory().Size())
	return bytes.Clone(mem)
}

func TestMergedDataLeavesTheSameInitialMemory(t *testing.T) {
	raw := guestwasm.Wasm()
	merged, err := MergeData(raw)
	if err != nil {
		t.Fatal(err)
	}
	count := func(wasm []byte) uint32 {
		secs, err := sections(wasm)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secs {
			if s.id == secData {
				return (&reader{b: s.body}).u32()
			}
		}
		return 0
	}
	if before, after := count(raw), count(merged); after == 0 || after*100 > before {
		t.Fatalf("%d data segments became %d", before, after)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	// The guest imports WASI (never called here: nothing runs).
	instantiateWASI(t, rt)
	if !bytes.Equal(initialMemory(t, rt, raw), initialMemory(t, rt, merged)) {
		t.Fatal("initial memory differs after merging data segments")
	}
}

func TestOverlappingOrPassiveDataIsRefused(t *testing.T) {
	mod := func(data ...byte) []byte {
		m := []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x0B, byte(len(data))}
		return append(m, data...)
	}
	ok := mod(0x02, 0x00, 0x41, 0x00, 0x0B, 0x01, 0xAA, 0x00, 0x41, 0x08, 0x0B, 0x01, 0xBB)
	if _, err := MergeData(ok); err != nil {
		t.Fatalf("two disjoint segments: %v", err)
	}
	for name, wasm := range map[string][]byte{
		"overlap": mod(0x02, 0x00, 0x41, 0x00, 0x0B, 0x02, 0xAA, 0xAA, 0x00, 0x41, 0x01, 0x0B, 0x01, 0xBB),
		"passive": mod(0x01, 0x01, 0x01, 0xAA),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := MergeData(wasm); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

func instantiateWASI(t *testing.T, rt wazero.Runtime) {
	t.Helper()
	if _, err := wasi_snapshot_preview1.Instantiate(context.Background(), rt); err != nil {
		t.Fatal(err)
	}
	if err := hoststub.Refusing(context.Background(), rt); err != nil {
		t.Fatal(err)
	}
}
