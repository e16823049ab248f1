//go:build unix

package session

import (
	"fmt"
	"os"
	"syscall"
)

// checkOwner refuses to write sessions into dir when another user owns
// it (as git refuses a repository of another user): files made there
// would belong to this user and break the owner's own ptc, or — for root
// — leave root-owned files in someone's home. A missing dir is fine.
func checkOwner(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); int(sys.Uid) != uid {
		return fmt.Errorf("the ptc home %s belongs to another user (uid %d; ptc runs as uid %d): %w to write sessions there; run ptc as that user, or give it a home of your own with --home or $PTC_HOME", dir, sys.Uid, uid, ErrPermission)
	}
	return nil
}
