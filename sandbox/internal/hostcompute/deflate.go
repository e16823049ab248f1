package hostcompute

import (
	"bytes"
	"compress/flate"
	"context"

	"github.com/tetratelabs/wazero/api"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// DeflateParams are the value types of proto.DeflateFunc's parameters.
var DeflateParams = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}

// Deflate implements proto.DeflateFunc as an api.GoModuleFunc.
func Deflate(_ context.Context, mod api.Module, stack []uint64) {
	stack[0] = uint64(uint32(DeflateSegment(mod.Memory(), int32(stack[0]), uint32(stack[1]), uint32(stack[2]),
		uint32(stack[3]), uint32(stack[4]))))
}

// DeflateSegment compresses the bytes at (in, inLen) at level into a
// deflate segment that ends with a sync flush and no final block, writes it
// at out and returns its length, or -1 (proto.DeflateFunc).
func DeflateSegment(mem api.Memory, level int32, in, inLen, out, outCap uint32) int32 {
	if level < flate.HuffmanOnly || level > flate.BestCompression || inLen > proto.DeflateChunk {
		return -1
	}
	data, ok := mem.Read(in, inLen)
	if !ok {
		return -1
	}
	var buf bytes.Buffer
	buf.Grow(int(inLen/2) + 64)
	w, err := flate.NewWriter(&buf, int(level))
	if err != nil {
		return -1
	}
	w.Write(data)
	if w.Flush() != nil || buf.Len() > int(outCap) || !mem.Write(out, buf.Bytes()) {
		return -1
	}
	return int32(buf.Len())
}
