package live

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptc-dev/ptc/runtime/session"
)

// maxSocketPath is the longest path a unix socket address may hold.
const maxSocketPath = 107

// socketAddr is the address of dir's socket. A path too long for a socket
// address is reached through /proc/self/fd/N, N an open descriptor of
// dir (returned, for the caller to close when done).
func socketAddr(dir string) (string, *os.File, error) {
	path := filepath.Join(dir, session.SocketName)
	if len(path) <= maxSocketPath {
		return path, nil, nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), session.SocketName), d, nil
}
