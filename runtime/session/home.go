package session

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultHome is ptc's home directory: $PTC_HOME when set, else ~/.ptc.
func DefaultHome() (string, error) {
	if h := os.Getenv("PTC_HOME"); h != "" {
		return h, nil
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find your home directory to keep ptc's sessions in (%w); set PTC_HOME to the directory ptc should use", err)
	}
	return filepath.Join(u, ".ptc"), nil
}

// StoreDir is where the session store of home lives.
func StoreDir(home string) string { return filepath.Join(home, "sessions") }
