package hostcompute

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"hash"
	"hash/crc32"

	"github.com/tetratelabs/wazero/api"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

var algos = map[uint32]func() hash.Hash{
	proto.DigestMD5:    md5.New,
	proto.DigestSHA1:   sha1.New,
	proto.DigestSHA224: sha256.New224,
	proto.DigestSHA256: sha256.New,
	proto.DigestSHA384: sha512.New384,
	proto.DigestSHA512: sha512.New,
	proto.DigestCRC32:  func() hash.Hash { return crc32.NewIEEE() },
}

// DigestParams are the value types of proto.DigestFunc's parameters.
var DigestParams = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}

// Digest implements proto.DigestFunc as an api.GoModuleFunc.
func Digest(_ context.Context, mod api.Module, stack []uint64) {
	stack[0] = uint64(uint32(Step(mod.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2]),
		uint32(stack[3]), uint32(stack[4]), uint32(stack[5]), uint32(stack[6]))))
}

// Step adds the data at (data, dataLen) to the hash algo whose encoded
// state is at (state, stateLen) and writes the new state at out; it
// returns the new state's length or -1 (proto.DigestFunc).
func Step(mem api.Memory, algo, state, stateLen, data, dataLen, out, outCap uint32) int32 {
	newHash, ok := algos[algo]
	if !ok || stateLen > proto.DigestState || dataLen > proto.DigestChunk {
		return -1
	}
	st, ok1 := mem.Read(state, stateLen)
	in, ok2 := mem.Read(data, dataLen)
	if !ok1 || !ok2 {
		return -1
	}
	h := newHash()
	if h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st) != nil {
		return -1
	}
	h.Write(in)
	next, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil || len(next) > int(outCap) || !mem.Write(out, next) {
		return -1
	}
	return int32(len(next))
}
