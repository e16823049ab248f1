package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Store holds the bytes of kept file states, one file per sha256 under
// Dir (created 0700, files 0600). The zero Store keeps nothing.
type Store struct{ Dir string }

// path is where the bytes with hash h live; h is checked to be a sha256
// in hex, so a log's hash never names another path.
func (s Store) path(h string) (string, error) {
	if len(h) != 64 {
		return "", fmt.Errorf("checkpoint: %q is not a sha256", h)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("checkpoint: %q is not a sha256", h)
	}
	return filepath.Join(s.Dir, h[:2], h), nil
}

// Has reports whether the bytes of h are kept.
func (s Store) Has(h string) bool {
	p, err := s.path(h)
	if err != nil || s.Dir == "" {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// Put keeps b under h (its sha256), written beside and renamed into
// place so a reader never sees half of it.
func (s Store) Put(h string, b []byte) error {
	if s.Dir == "" {
		return errors.New("checkpoint: no store")
	}
	p, err := s.path(h)
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := p + ".tmp-" + hex.EncodeToString(rnd[:])
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// size is the bytes the store holds.
func (s Store) size() int64 {
	var n int64
	if s.Dir == "" {
		return 0
	}
	_ = filepath.WalkDir(s.Dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// Get returns the bytes kept under h.
func (s Store) Get(h string) ([]byte, error) {
	p, err := s.path(h)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
