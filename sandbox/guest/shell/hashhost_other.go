//go:build !wasip1

package shell

// hostStep is the guest's host digest; outside wasip1 (the shell's native
// tests) there is no host, and every chunk is hashed in place.
func hostStep(uint32, []byte, []byte, []byte) int32 { return -1 }

// hostDeflate is the guest's host deflate; outside wasip1 every segment
// is compressed in place.
func hostDeflate(int, []byte, []byte) int32 { return -1 }
