package shell

import "unsafe"

//go:wasmimport ptc_host digest
func hostDigest(algo uint32, state unsafe.Pointer, stateLen uint32, data unsafe.Pointer, dataLen uint32, out unsafe.Pointer, outCap uint32) int32

// hostStep asks the host to add data to a hash in state
// (proto.DigestFunc) and returns the new state's length in out, or -1.
func hostStep(algo uint32, state, data, out []byte) int32 {
	if len(state) == 0 || len(data) == 0 || len(out) == 0 {
		return -1
	}
	return hostDigest(algo, unsafe.Pointer(&state[0]), uint32(len(state)), unsafe.Pointer(&data[0]), uint32(len(data)),
		unsafe.Pointer(&out[0]), uint32(len(out)))
}

//go:wasmimport ptc_host deflate
func hostDeflateCall(level int32, in unsafe.Pointer, inLen uint32, out unsafe.Pointer, outCap uint32) int32

// hostDeflate asks the host to compress in into out as one deflate
// segment (proto.DeflateFunc) and returns its length, or -1.
func hostDeflate(level int, in, out []byte) int32 {
	if len(in) == 0 || len(out) == 0 {
		return -1
	}
	return hostDeflateCall(int32(level), unsafe.Pointer(&in[0]), uint32(len(in)), unsafe.Pointer(&out[0]), uint32(len(out)))
}
