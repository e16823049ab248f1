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
// top of every loop body, the sequence
//
//	global.get $interrupt
//	if
//	  unreachable
//	end
//
// which is one load and a branch. The host sets the global to a non-zero
// value (api.MutableGlobal.Set) when the command's context ends; the guest
// traps at its next loop iteration or function call. Every unbounded
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
	haveGlobal, haveExport, haveCode := false, false, false
	for _, s := range secs {
		switch s.id {
		case secImport:
			n, err := countImportedGlobals(s.body)
			if err != nil {
				return nil, err
			}
			importedGlobals = n
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
	idx := importedGlobals + definedGlobals
	check := append(append([]byte{0x23}, uleb(idx)...), 0x04, 0x40, 0x00, 0x0B)

	for i, s := range secs {
		var err error
		switch s.id {
		case secGlobal:
			// (mut i32) = i32.const 0
			secs[i].body = appendEntry(s.body, []byte{0x7F, 0x01, 0x41, 0x00, 0x0B})
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

func countImportedGlobals(body []byte) (uint32, error) {
	r := &reader{b: body}
	var globals uint32
	for range r.u32() {
		r.take(int(r.u32())) // module
		r.take(int(r.u32())) // name
		switch r.byte() {
		case 0x00: // func
			r.u32()
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
			return 0, errors.New("wasmprep: unknown import kind")
		}
	}
	return globals, r.err
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
