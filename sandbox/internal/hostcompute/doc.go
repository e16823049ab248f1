// Package hostcompute holds the host functions that compute for the guest:
// proto.DigestFunc (one step of a guest's hash) and proto.DeflateFunc (one
// segment of a deflate stream), run natively over the guest's memory,
// where Go compiled to wasm is tens of times slower. Both are pure (no
// state between calls), so the sandbox host and the test stub register the
// same functions, and a guest can only get wrong answers about its own
// bytes from them.
package hostcompute
