package proto

// Digests on the host. Go's hashes have no WebAssembly assembly, so in the
// guest SHA-256 runs at about 30 ns a byte; the host's native code (SHA-NI,
// AVX2) is tens of times faster. The guest's checksum builtins keep their
// hash in the guest and hand it to the host a chunk at a time through the
// HostModule function
//
//	digest(algo, state, stateLen, data, dataLen, out, outCap u32) i32
//	    state is the guest hash's MarshalBinary form, data the next bytes
//	    (at most DigestChunk). The host decodes the state, adds data and
//	    writes the new state to out. Returns its length, or -1 when algo is
//	    unknown, the state does not decode, data is too long or a buffer is
//	    outside the guest's memory; the guest then hashes the chunk itself.
//
// The host keeps nothing between calls: a hash is the guest's own value,
// so there are no handles to leak, and a hostile guest can only get a
// wrong checksum of its own bytes.
const DigestFunc = "digest"

// DigestChunk caps the bytes one digest call adds, so the call (which the
// interrupt cannot stop) ends within a millisecond or two.
const DigestChunk = 1 << 20

// DigestState caps the encoded state the host accepts (SHA-512's is 204
// bytes).
const DigestState = 512

// The hashes digest knows, by algo number.
const (
	DigestMD5 = iota + 1
	DigestSHA1
	DigestSHA224
	DigestSHA256
	DigestSHA384
	DigestSHA512
	DigestCRC32 // IEEE, as gzip's trailer
)

// Deflate on the host. compress/flate in the guest took 1.3 s for an 8 MB
// log (GNU gzip 0.33 s). The guest's gzip writer has the host compress
// each chunk of up to DeflateChunk bytes through the HostModule function
//
//	deflate(level, in, inLen, out, outCap u32) i32
//	    compresses in at level (-2 … 9, compress/flate's) into a deflate
//	    segment that starts with an empty window and ends with a sync flush
//	    (so segments concatenate into one stream; the guest writes the final
//	    block). Returns its length, or -1 when level or inLen is out of
//	    range, a buffer is outside memory or out is too small.
//
// Each segment forgets the one before (a fresh window per MiB), which
// costs a fraction of a percent of compression and keeps the host
// stateless, as for digest.
const DeflateFunc = "deflate"

// DeflateChunk caps the bytes one deflate call compresses.
const DeflateChunk = 1 << 20
