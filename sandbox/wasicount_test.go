package sandbox

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// wasiCounter counts the guest's WASI calls and the host time they take.
type wasiCounter struct {
	mu    sync.Mutex
	calls map[string]int
	spent map[string]time.Duration
	start []time.Time
}

func (w *wasiCounter) NewFunctionListener(def api.FunctionDefinition) experimental.FunctionListener {
	if def.ModuleName() != "wasi_snapshot_preview1" {
		return nil
	}
	return w
}

func (w *wasiCounter) Before(_ context.Context, _ api.Module, _ api.FunctionDefinition, _ []uint64, _ experimental.StackIterator) {
	w.mu.Lock()
	w.start = append(w.start, time.Now())
	w.mu.Unlock()
}

func (w *wasiCounter) After(_ context.Context, _ api.Module, def api.FunctionDefinition, _ []uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.start[len(w.start)-1]
	w.start = w.start[:len(w.start)-1]
	w.calls[def.Name()]++
	w.spent[def.Name()] += time.Since(t)
}

func (w *wasiCounter) Abort(ctx context.Context, m api.Module, def api.FunctionDefinition, _ error) {
	w.After(ctx, m, def, nil)
}

func (w *wasiCounter) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls, w.spent = map[string]int{}, map[string]time.Duration{}
}

func (w *wasiCounter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var names []string
	for n := range w.calls {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%-24s %5d calls %8.1f µs\n", n, w.calls[n], float64(w.spent[n].Nanoseconds())/1000)
	}
	return b.String()
}

// TestWASICallCounts prints the WASI calls each benchmark command makes
// (run with PTC_WASI_COUNT=1 -v); it is a measuring aid, not a check.
func TestWASICallCounts(t *testing.T) {
	if os.Getenv("PTC_WASI_COUNT") == "" {
		t.Skip("set PTC_WASI_COUNT=1 to print WASI call counts")
	}
	w := &wasiCounter{}
	w.reset()
	h := NewHost(Config{NoCache: true, PoolSize: -1})
	h.listen = w
	defer h.Close(context.Background())
	ws := benchTree(t)
	for _, c := range append(benchCmds, strings.Split(os.Getenv("PTC_WASI_COUNT"), ";")...) {
		if c == "1" {
			continue
		}
		in, err := h.newInstance(context.Background(), poolKey{ws: ws, mode: WorkspaceWrite})
		if err != nil {
			t.Fatal(err)
		}
		w.reset()
		start := time.Now()
		o, err := h.call(context.Background(), in, poolKey{ws: ws, mode: WorkspaceWrite}, callOptions{}, proto.Request{Op: proto.OpShell, Command: c})
		el := time.Since(start)
		in.release()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q exit %d in %v:\n%s", c, o.ExitCode, el, w)
	}
}

// TestRepeatOnOneInstance times the same command several times on one
// instance (PTC_REPEAT=cmd), separating one-time guest costs from
// per-command ones.
func TestRepeatOnOneInstance(t *testing.T) {
	c := os.Getenv("PTC_REPEAT")
	if c == "" {
		t.Skip("set PTC_REPEAT=command")
	}
	h := NewHost(Config{PoolSize: -1})
	defer h.Close(context.Background())
	ws := benchTree(t)
	in, err := h.newInstance(context.Background(), poolKey{ws: ws, mode: WorkspaceWrite})
	if err != nil {
		t.Fatal(err)
	}
	defer in.release()
	for i := range 6 {
		start := time.Now()
		o, err := h.call(context.Background(), in, poolKey{ws: ws, mode: WorkspaceWrite}, callOptions{}, proto.Request{Op: proto.OpShell, Command: c, Persistent: true})
		t.Logf("run %d: %v exit %d err %v", i, time.Since(start), o.ExitCode, err)
	}
}
