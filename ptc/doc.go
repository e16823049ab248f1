// Package ptc is run_code's engine: it runs a model-written TypeScript
// program whose tools.x() calls go through the same tool pipeline as
// direct calls. The run_code tool itself (schema, description, rendering
// of its value) is defined in package toolbox, over Run.
//
// A run has two halves in two processes:
//
//	host (ptc, the caller of Run)            engine (the same binary, re-executed)
//	─────────────────────────────            ─────────────────────────────────────
//	Run ── enginePool.acquire ──spawn──────▶ init hook (worker.go) → serveEngine
//	hostRun.execute ── start ──────────────▶ jsRun: esbuild transform, preflight,
//	                                          fresh goja runtime, prelude, program
//	output (console lines, events) ◀── log ─ console.log
//	bridge: Gate, Dispatcher, events ◀ call ─ tools.x(args) (sent when it waits)
//	        settlement ─────────────────────▶ step (loop.go) reads it and resolves
//	                                          or rejects (ToolCallError)
//	watch: deadline → interrupt ─(own pipe)▶ rt.Interrupt (the engine names the line)
//	       killGrace later, or RSS over ──── SIGKILL
//	Outcome ◀────────────────────────── done ─ failure or result JSON
//
// A sequential nested call costs one pipe round trip and no more: the
// engine goroutine that runs the program reads settlements itself while it
// waits, and when the program waits for one call alone the host loop that
// read the call runs it and writes its settlement (loop.go, engine.go);
// both then poll their pipe briefly for the answer before they block, on
// pipes outside Go's poller so that no write wakes an idle thread
// (pipe.go). Calls made before the program waits leave in one write.
//
// Everything the model or the program controls runs in the engine, so a Go
// stack overflow, a goja panic, a native loop or a huge allocation ends
// that process and becomes a Failure; the host keeps every line and call
// record as it arrives (wire.go has the frames). Wall time is bounded by the
// budget plus killGrace, memory by Limits.HeapGrowth plus memMargin (the
// engine's own watch, an address-space limit and the host's RSS kill).
// Engines are reused while they end cleanly; each run gets a fresh runtime.
//
// The engine also replaces two of goja's builtins that are far slower than
// Node's on the reshaping programs do: Array.prototype.sort (fastsort.go,
// which sorts by keys when sortexpr.go reads the comparator as a chain of
// key orders) and JSON.parse (fastjson.go). goja itself is the fork in
// third_party/goja (string concatenation appends in place; a merge sort
// for the comparators the engine calls). ptc/jsbench holds the workloads
// all this is measured on against Node.
package ptc
