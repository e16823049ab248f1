package wasmprep

import (
	"errors"
	"sort"
)

// maxDataGap is the widest run of zeros MergeData writes out to join two
// segments; wider gaps start a new segment.
const maxDataGap = 64 << 10

type dataSegment struct {
	off  uint32
	init []byte
}

// MergeData returns a copy of the module whose active data segments are
// joined into as few segments as possible, the gaps between them filled
// with zeros. Linear memory starts zeroed, so memory after instantiation
// is byte for byte the same. The Go linker emits one segment per run of
// non-zero data (70 000 for the guest) and wazero evaluates each
// segment's offset expression with allocations on every instantiation:
// that was half of an instance's start-up time.
//
// Only modules whose segments are all active, in memory 0, at constant
// i32 offsets, without overlaps and without a data count section are
// rewritten; any other is refused.
func MergeData(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, s := range secs {
		switch s.id {
		case secDataCount:
			return nil, errors.New("wasmprep: a data count section is present")
		case secData:
			at = i
		}
	}
	if at < 0 {
		return nil, errors.New("wasmprep: no data section")
	}
	segs, err := parseData(secs[at].body)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].off < segs[j].off })
	var merged []dataSegment
	for _, s := range segs {
		if n := len(merged); n > 0 {
			last := &merged[n-1]
			end := uint64(last.off) + uint64(len(last.init))
			if uint64(s.off) < end {
				return nil, errors.New("wasmprep: data segments overlap")
			}
			if gap := uint64(s.off) - end; gap <= maxDataGap {
				last.init = append(last.init, make([]byte, gap)...)
				last.init = append(last.init, s.init...)
				continue
			}
		}
		merged = append(merged, dataSegment{s.off, append([]byte(nil), s.init...)})
	}
	body := uleb(uint32(len(merged)))
	for _, s := range merged {
		body = append(body, 0x00, 0x41) // active, memory 0; i32.const
		body = append(body, sleb32(int32(s.off))...)
		body = append(body, 0x0B)
		body = append(body, uleb(uint32(len(s.init)))...)
		body = append(body, s.init...)
	}
	secs[at].body = body
	return assemble(wasm[:8], secs), nil
}

func parseData(body []byte) ([]dataSegment, error) {
	r := &reader{b: body}
	n := r.u32()
	segs := make([]dataSegment, 0, n)
	for range n {
		if r.u32() != 0 || r.byte() != 0x41 {
			return nil, errors.New("wasmprep: a data segment is not active at an i32.const offset")
		}
		off := r.s32()
		if r.byte() != 0x0B {
			return nil, errors.New("wasmprep: a data segment offset is not a plain constant")
		}
		init := r.take(int(r.u32()))
		if r.err != nil {
			return nil, r.err
		}
		segs = append(segs, dataSegment{uint32(off), init})
	}
	if r.i != len(body) {
		return nil, errors.New("wasmprep: trailing bytes in the data section")
	}
	return segs, nil
}

// s32 decodes a signed LEB128 i32.
func (r *reader) s32() int32 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int64(c&0x7F) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return int32(v)
		}
		if shift >= 35 {
			r.err = errors.New("wasmprep: LEB128 too long")
			return 0
		}
	}
}

// sleb32 encodes v as signed LEB128.
func sleb32(v int32) []byte {
	var out []byte
	x := int64(v)
	for {
		c := byte(x & 0x7F)
		x >>= 7
		if x == 0 && c&0x40 == 0 || x == -1 && c&0x40 != 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}
