// Package interrupt rewrites a wasm module so the host can stop it
// cheaply from another goroutine.
//
// wazero's own way to stop running guest code,
// RuntimeConfig.WithCloseOnContextDone, calls out of the compiled code
// into the Go runtime at every loop header to check whether the module was
// closed. Go's wasm backend opens a loop at the entry of every function
// (for goroutine resumption), so that check runs on every function call
// and made the Go guest three to four times slower on plain computation.
//
// Instrument adds one exported mutable i32 global (Export) and, at the
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
package interrupt

import (
	"bytes"
	"errors"
	"fmt"
)

// Export is the name of the global the host sets to stop the guest.
const Export = "ptc_interrupt"

// Section ids of the wasm binary format.
const (
	secImport = 2
	secGlobal = 6
	secExport = 7
	secCode   = 10
)

// Instrument returns a copy of the module with the interrupt global and
// checks added. It fails on anything it does not understand (a missing
// global or export section, an unknown opcode); the caller should then
// fall back to wazero's WithCloseOnContextDone.
func Instrument(wasm []byte) ([]byte, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errors.New("interrupt: not a wasm module")
	}
	type section struct {
		id   byte
		body []byte
	}
	var secs []section
	r := &reader{b: wasm, i: 8}
	for r.i < len(r.b) {
		id := r.byte()
		n := r.u32()
		body := r.take(int(n))
		if r.err != nil {
			return nil, r.err
		}
		secs = append(secs, section{id, body})
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
		return nil, errors.New("interrupt: the module lacks a global, export or code section")
	}
	idx := importedGlobals + definedGlobals
	check := append(append([]byte{0x23}, uleb(idx)...), 0x04, 0x40, 0x00, 0x0B)

	out := append([]byte(nil), wasm[:8]...)
	for _, s := range secs {
		body := s.body
		var err error
		switch s.id {
		case secGlobal:
			// (mut i32) = i32.const 0
			body = appendEntry(body, []byte{0x7F, 0x01, 0x41, 0x00, 0x0B})
		case secExport:
			e := append(uleb(uint32(len(Export))), Export...)
			e = append(append(e, 0x03), uleb(idx)...)
			body = appendEntry(body, e)
		case secCode:
			body, err = instrumentCode(body, check)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s.id)
		out = append(out, uleb(uint32(len(body)))...)
		out = append(out, body...)
	}
	return out, nil
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
			return 0, errors.New("interrupt: unknown import kind")
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

var errTruncated = errors.New("interrupt: truncated module")

// reader decodes the wasm binary format; the first error sticks.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) take(n int) []byte {
	if n < 0 || r.i+n > len(r.b) {
		r.err = errTruncated
		r.i = len(r.b)
		return nil
	}
	s := r.b[r.i : r.i+n]
	r.i += n
	return s
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7F) << shift
		if c&0x80 == 0 || r.err != nil {
			return v
		}
	}
	r.err = errors.New("interrupt: LEB128 too long")
	return 0
}

// skipLEB skips one signed or unsigned LEB128 number.
func (r *reader) skipLEB() {
	for r.err == nil && r.byte()&0x80 != 0 {
	}
}

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.u32()
	}
	r.u32()
}

func (r *reader) blockType() {
	switch c := r.byte(); {
	case c == 0x40 || c >= 0x6F && c <= 0x7F:
	default:
		r.i--
		r.skipLEB() // s33 type index
	}
}

// skipImmediates skips the immediates of op (already read). It knows the
// MVP, sign extension, saturating truncation, bulk memory, reference type
// and tail call instructions; anything else is an error.
func (r *reader) skipImmediates(op byte) error {
	switch {
	case op <= 0x01 || op == 0x05 || op == 0x0B || op == 0x0F || op == 0x1A || op == 0x1B || op == 0xD1:
	case op == 0x02 || op == 0x04:
		r.blockType()
	case op == 0x0C || op == 0x0D || op == 0x10 || op == 0x12 || op == 0xD2 || op >= 0x20 && op <= 0x26:
		r.u32()
	case op == 0x0E:
		for range r.u32() + 1 {
			r.u32()
		}
	case op == 0x11 || op == 0x13:
		r.u32()
		r.u32()
	case op == 0x1C:
		for range r.u32() {
			r.byte()
		}
	case op >= 0x28 && op <= 0x3E:
		r.u32()
		r.u32()
	case op == 0x3F || op == 0x40:
		r.u32()
	case op == 0x41 || op == 0x42:
		r.skipLEB()
	case op == 0x43:
		r.take(4)
	case op == 0x44:
		r.take(8)
	case op >= 0x45 && op <= 0xC4:
	case op == 0xD0:
		r.byte()
	case op == 0xFC:
		return r.skipFC(r.u32())
	default:
		return fmt.Errorf("interrupt: unsupported opcode 0x%02x", op)
	}
	return nil
}

func (r *reader) skipFC(sub uint32) error {
	switch {
	case sub <= 7: // saturating truncation
	case sub == 9 || sub == 11 || sub == 13 || sub >= 15 && sub <= 17:
		r.u32()
	case sub == 8 || sub == 10 || sub == 12 || sub == 14:
		r.u32()
		r.u32()
	default:
		return fmt.Errorf("interrupt: unsupported opcode 0xfc %d", sub)
	}
	return nil
}

// uleb encodes v as unsigned LEB128.
func uleb(v uint32) []byte {
	var out []byte
	for {
		c := byte(v & 0x7F)
		v >>= 7
		if v != 0 {
			out = append(out, c|0x80)
			continue
		}
		return append(out, c)
	}
}
