package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// maxLogBytes is where a server's log file starts over.
const maxLogBytes = 8 << 20

// serverLog is a server's log file, opened on first write and appended
// to; past maxLogBytes it is truncated with a note, so a chatty server
// cannot fill the disk.
type serverLog struct {
	path string
	mu   sync.Mutex
	f    *os.File
	size int64
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
			return len(p), nil // a log that cannot be written must not break the server
		}
		f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return len(p), nil
		}
		l.f = f
		if st, err := f.Stat(); err == nil {
			l.size = st.Size()
		}
	}
	if l.size+int64(len(p)) > maxLogBytes {
		if l.f.Truncate(0) == nil {
			n, _ := fmt.Fprintf(l.f, "[ptc] log truncated at %d bytes\n", maxLogBytes)
			l.size = int64(n)
		}
	}
	n, _ := l.f.Write(p)
	l.size += int64(n)
	return len(p), nil
}

func (l *serverLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// logName is a file name for a server's log: its name with anything but
// letters, digits, dot, dash and underscore replaced, plus a short hash
// when that changed it (so two names never share a file).
func logName(server string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return r
		}
		return '_'
	}, server)
	if len(clean) > 80 {
		clean = clean[:80]
	}
	if clean != server || strings.HasPrefix(clean, ".") {
		sum := sha256.Sum256([]byte(server))
		clean += "-" + hex.EncodeToString(sum[:4])
	}
	return clean + ".log"
}
