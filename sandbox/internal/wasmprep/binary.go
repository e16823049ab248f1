package wasmprep

import (
	"bytes"
	"errors"
	"fmt"
)

// Section ids of the wasm binary format.
const (
	secImport    = 2
	secGlobal    = 6
	secExport    = 7
	secCode      = 10
	secData      = 11
	secDataCount = 12
)

type section struct {
	id   byte
	body []byte
}

// sections splits a module after its 8-byte header.
func sections(wasm []byte) ([]section, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errors.New("wasmprep: not a wasm module")
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
	return secs, nil
}

// assemble joins a header and sections into a module.
func assemble(header []byte, secs []section) []byte {
	out := append([]byte(nil), header...)
	for _, s := range secs {
		out = append(out, s.id)
		out = append(out, uleb(uint32(len(s.body)))...)
		out = append(out, s.body...)
	}
	return out
}

var errTruncated = errors.New("wasmprep: truncated module")

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
	r.err = errors.New("wasmprep: LEB128 too long")
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
		return fmt.Errorf("wasmprep: unsupported opcode 0x%02x", op)
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
		return fmt.Errorf("wasmprep: unsupported opcode 0xfc %d", sub)
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
