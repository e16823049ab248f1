//go:build !linux

package live

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptc-dev/ptc/runtime/session"
)

const maxSocketPath = 103

func socketAddr(dir string) (string, *os.File, error) {
	path := filepath.Join(dir, session.SocketName)
	if len(path) > maxSocketPath {
		return "", nil, fmt.Errorf("the session directory %s is too deep for a unix socket; use a shorter --home", dir)
	}
	return path, nil, nil
}
