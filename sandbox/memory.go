package sandbox

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// mmapMemory backs one instance's linear memory with an anonymous mapping
// of the instance's whole memory limit, reserved up front. wazero's
// default memory is a Go slice that is re-allocated and copied each time
// the guest grows its heap — the Go guest grows it dozens of times per
// command, which made copying the largest part of a warm call. Reserving
// the address space costs no physical memory (pages are touched lazily,
// MAP_NORESERVE), so growing becomes a re-slice and Free hands every page
// back to the kernel at once instead of leaving it to the Go GC.
type mmapMemory struct{ buf []byte }

// mmapAllocator implements experimental.MemoryAllocator. When the mapping
// cannot be made it falls back to plain slices (nil means "wazero's own").
var mmapAllocator = experimental.MemoryAllocatorFunc(func(capBytes, maxBytes uint64) experimental.LinearMemory {
	buf, err := unix.Mmap(-1, 0, int(maxBytes), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return &sliceMemory{buf: make([]byte, 0, capBytes), max: maxBytes}
	}
	return &mmapMemory{buf: buf}
})

// Reallocate returns the first size bytes of the reservation; nil (grow
// refused) beyond it.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

// Free unmaps the reservation; wazero calls it when the module closes.
func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = unix.Munmap(m.buf)
		m.buf = nil
	}
}

// sliceMemory is the fallback when mmap fails: a Go slice grown by copy.
type sliceMemory struct {
	buf []byte
	max uint64
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	nb := make([]byte, size, max(size, 2*uint64(cap(m.buf))))
	copy(nb, m.buf)
	m.buf = nb
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
