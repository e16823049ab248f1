//go:build !wasip1

package shell

import (
	"io/fs"
	"os/user"
	"strconv"
	"syscall"
)

// sysStat is what the platform knows about a file beyond fs.FileInfo.
type sysStat struct {
	nlink, ino, blocks uint64 // blocks of 512 bytes
	uid, gid           uint32
	known              bool // false: the platform reports none of it
}

func statOf(fi fs.FileInfo) sysStat {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return sysStat{nlink: 1, blocks: estimateBlocks(fi)}
	}
	return sysStat{nlink: uint64(st.Nlink), ino: uint64(st.Ino), blocks: uint64(st.Blocks), uid: st.Uid, gid: st.Gid, known: true}
}

// ownerName is the user name for uid, or the number when unknown.
func ownerName(c *cmd, st sysStat) string {
	if u, err := user.LookupId(strconv.Itoa(int(st.uid))); err == nil {
		return u.Username
	}
	return strconv.Itoa(int(st.uid))
}

// groupName is the group name for gid, or the number when unknown.
func groupName(c *cmd, st sysStat) string {
	if g, err := user.LookupGroupId(strconv.Itoa(int(st.gid))); err == nil {
		return g.Name
	}
	return strconv.Itoa(int(st.gid))
}

// chmodSupported reports whether os.Chmod really changes permissions.
const chmodSupported = true
