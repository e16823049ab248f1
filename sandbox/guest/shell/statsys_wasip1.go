//go:build wasip1

package shell

import (
	"io/fs"
	"syscall"
)

// sysStat is what the platform knows about a file beyond fs.FileInfo.
// WASI preview 1 has link counts and inode numbers but no owners, no
// permission bits and no block counts.
type sysStat struct {
	nlink, ino, blocks uint64 // blocks of 512 bytes
	uid, gid           uint32
	known              bool
}

func statOf(fi fs.FileInfo) sysStat {
	s := sysStat{nlink: 1, blocks: estimateBlocks(fi)}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.nlink, s.ino = st.Nlink, st.Ino
	}
	return s
}

// ownerName is the sandbox user: WASI has no owners, and every file the
// sandbox sees belongs to the user running ptc.
func ownerName(c *cmd, _ sysStat) string { return sandboxUser(c) }

func groupName(c *cmd, _ sysStat) string { return sandboxUser(c) }

// chmodSupported is false: WASI preview 1 cannot change permissions (Go's
// os.Chmod on wasip1 does nothing and reports success).
const chmodSupported = false
