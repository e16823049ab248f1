package wasmprep

import (
	"errors"
)

// Interrupting a running guest.
//
// wazero's own way to stop running guest code,
// RuntimeConfig.WithCloseOnContextDone, calls out of the compiled code
// into the Go runtime at every loop header to check whether the module was
// closed. Go's wasm backend opens a loop at the entry of every function
// (for goroutine resumption), so that check runs on every function call
// and made the Go guest three to four times slower on plain computation.
//
// AddInterrupt adds one exported mutable i32 global (Export) and, at the
// top of every loop body, a countdown that every yieldEvery passes calls
// sched_yield and traps if the global is set (see checkSequence): a few
// instructions on the common path. The host sets the global to a non-zero
// value (api.MutableGlobal.Set) when the command's context ends; the guest
// traps within yieldEvery loop iterations or function calls. Every unbounded
// execution passes a loop header (unbounded recursion without loops runs
// out of stack and traps by itself), so this stops the guest as surely as
// wazero's check. Blocking host calls are the host's business: they must
// return when the context ends.

// Export is the name of the global the host sets to stop the guest.
const Export = "ptc_interrupt"

// AddInterrupt returns a copy of the module with the interrupt global and
// checks added. It fails on anything it does not understand (a missing
// global or export section, an unknown opcode); the caller should then
// fall back to wazero's WithCloseOnContextDone.
func AddInterrupt(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm)
	if err != nil {
		return nil, err
	}
	var importedGlobals, definedGlobals uint32
	yield := int64(-1)
	haveGlobal, haveExport, haveCode := false, false, false
	for _, s := range secs {
		switch s.id {
		case secImport:
			n, y, err := scanImports(s.body)
			if err != nil {
				return nil, err
			}
			importedGlobals, yield = n, y
		case secGlobal:
			haveGlobal = true
			definedGlobals = (&reader{b: s.body}).u32()
		case secExport:
			haveExport = true
		case secCode:
			haveCode = true
		}
	}
	if !haveGlobal || !haveExport || !haveCode {
		return nil, errors.New("wasmprep: the module lacks a global, export or code section")
	}
	if yield < 0 {
		return nil, errors.New("wasmprep: the module does not import WASI sched_yield")
	}
	idx := importedGlobals + definedGlobals
	check := checkSequence(idx, idx+1, uint32(yield))

	for i, s := range secs {
		var err error
		switch s.id {
		case secGlobal:
			// (mut i32) = i32.const 0
			// $interrupt (mut i32) = 0, $budget (mut i32) = yieldEvery
			secs[i].body = appendEntry(s.body, []byte{0x7F, 0x01, 0x41, 0x00, 0x0B})
			secs[i].body = appendEntry(secs[i].body, append(append([]byte{0x7F, 0x01, 0x41}, sleb32(yieldEvery)...), 0x0B))
		case secExport:
			e := append(uleb(uint32(len(Export))), Export...)
			e = append(append(e, 0x03), uleb(idx)...)
			secs[i].body = appendEntry(s.body, e)
		case secCode:
			secs[i].body, err = instrumentCode(s.body, check)
		}
		if err != nil {
			return nil, err
		}
	}
	return assemble(wasm[:8], secs), nil
}

// appendEntry adds one entry to a section that is a vector of entries.
func appendEntry(body, entry []byte) []byte {
	r := &reader{b: body}
	n := r.u32()
	out := uleb(n + 1)
	out = append(out, body[r.i:]...)
	return append(out, entry...)
}

// yieldEvery is how many loop headers the guest passes between two
// sched_yield calls.
const yieldEvery = 1024

// checkSequence is the code put at the top of every loop body:
//
//	$budget = $budget - 1
//	if $budget == 0 {
//	  $budget = yieldEvery
//	  drop(sched_yield())
//	  if $interrupt { unreachable }
//	}
//
// The host call matters as much as the interrupt check: compiled wasm
// code has no point where the Go runtime can preempt it, so a guest that
// computes without calling the host would hold up every stop-the-world
// pause of the host's garbage collector, and with it the goroutine that
// is to set $interrupt. Leaving for a host call now and then gives the Go
// runtime that point (wazero's sched_yield does nothing else by default).
func checkSequence(interrupt, budget, yield uint32) []byte {
	g := func(op byte, idx uint32) []byte { return append([]byte{op}, uleb(idx)...) }
	var b []byte
	b = append(b, g(0x23, budget)...)     // global.get $budget
	b = append(b, 0x41, 0x01, 0x6B)       // i32.const 1; i32.sub
	b = append(b, g(0x24, budget)...)     // global.set $budget
	b = append(b, g(0x23, budget)...)     // global.get $budget
	b = append(b, 0x45, 0x04, 0x40)       // i32.eqz; if
	b = append(b, 0x41)                   // i32.const
	b = append(b, sleb32(yieldEvery)...)  //   yieldEvery
	b = append(b, g(0x24, budget)...)     // global.set $budget
	b = append(b, g(0x10, yield)...)      // call sched_yield
	b = append(b, 0x1A)                   // drop
	b = append(b, g(0x23, interrupt)...)  // global.get $interrupt
	b = append(b, 0x04, 0x40, 0x00, 0x0B) // if unreachable end
	return append(b, 0x0B)                // end
}

// scanImports counts the imported globals and finds the function index
// of wasi_snapshot_preview1.sched_yield (-1 when not imported).
func scanImports(body []byte) (globals uint32, yield int64, err error) {
	r := &reader{b: body}
	yield = -1
	var funcs int64
	for range r.u32() {
		module := string(r.take(int(r.u32())))
		name := string(r.take(int(r.u32())))
		switch r.byte() {
		case 0x00: // func
			r.u32()
			if module == "wasi_snapshot_preview1" && name == "sched_yield" {
				yield = funcs
			}
			funcs++
		case 0x01: // table
			r.byte()
			r.limits()
		case 0x02: // memory
			r.limits()
		case 0x03: // global
			r.byte()
			r.byte()
			globals++
		default:
			return 0, -1, errors.New("wasmprep: unknown import kind")
		}
	}
	return globals, yield, r.err
}

// instrumentCode rewrites every function body of the code section.
func instrumentCode(body, check []byte) ([]byte, error) {
	r := &reader{b: body}
	n := r.u32()
	out := uleb(n)
	for range n {
		size := r.u32()
		fn := r.take(int(size))
		if r.err != nil {
			return nil, r.err
		}
		nfn, err := instrumentFunc(fn, check)
		if err != nil {
			return nil, err
		}
		out = append(out, uleb(uint32(len(nfn)))...)
		out = append(out, nfn...)
	}
	return out, r.err
}

// instrumentFunc copies one function body, inserting check after the
// block type of every loop.
func instrumentFunc(fn, check []byte) ([]byte, error) {
	r := &reader{b: fn}
	for range r.u32() { // local declarations
		r.u32()
		r.byte()
	}
	out := make([]byte, 0, len(fn)+len(fn)/16)
	out = append(out, fn[:r.i]...)
	last := r.i
	for r.i < len(r.b) && r.err == nil {
		op := r.byte()
		if op == 0x03 { // loop
			r.blockType()
			out = append(out, fn[last:r.i]...)
			out = append(out, check...)
			last = r.i
			continue
		}
		if err := r.skipImmediates(op); err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return append(out, fn[last:]...), nil
}
