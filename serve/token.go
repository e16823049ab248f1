package serve

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is the name of the bearer token's file in the ptc home.
const TokenFile = "serve.token"

// tokenBytes is the token's entropy: 32 random bytes, 64 hex digits.
const tokenBytes = 32

// LoadToken returns the server's bearer token from <home>/serve.token,
// creating the file (mode 0600, 32 random bytes as hex) when it does not
// exist; created reports that it was made now. A token file that others
// may read (any group or world permission bit) or that is not a regular
// file is refused: the token is the only thing between the network and
// shell commands, so a leaked one must not be used silently.
func LoadToken(home string) (token string, created bool, err error) {
	path := filepath.Join(home, TokenFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createToken(home, path)
	}
	if err != nil {
		return "", false, fmt.Errorf("read the serve token: %w", err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		return "", false, fmt.Errorf("read the serve token: %w", err)
	}
	if !st.Mode().IsRegular() {
		return "", false, fmt.Errorf("the serve token %s is not a regular file; remove it and start again", path)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", false, fmt.Errorf("the serve token %s can be read by other users (mode %04o); run chmod 600 on it, or remove it for a new one", path, st.Mode().Perm())
	}
	token = strings.TrimSpace(string(b))
	if len(token) < 32 || strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return "", false, fmt.Errorf("the serve token in %s is too short or not printable; remove the file for a new one", path)
	}
	return token, false, nil
}

func createToken(home, path string) (string, bool, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", false, fmt.Errorf("create the ptc home: %w", err)
	}
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", false, err
	}
	token := hex.EncodeToString(raw)
	// O_EXCL: two servers starting at once must not both write a token;
	// the loser reads the winner's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		t, _, err := LoadToken(home)
		return t, false, err
	}
	if err != nil {
		return "", false, fmt.Errorf("create the serve token: %w", err)
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return "", false, fmt.Errorf("write the serve token: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", false, fmt.Errorf("write the serve token: %w", err)
	}
	return token, true, nil
}
