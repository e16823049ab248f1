package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadToken(t *testing.T) {
	home := t.TempDir()
	tok, created, err := LoadToken(home)
	if err != nil || !created || len(tok) != 64 {
		t.Fatalf("first start: %q %v %v", tok, created, err)
	}
	st, err := os.Stat(filepath.Join(home, TokenFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v %v", st.Mode(), err)
	}
	again, created, err := LoadToken(home)
	if err != nil || created || again != tok {
		t.Fatalf("second start: %q %v %v", again, created, err)
	}
	t.Run("a token others can read is refused", func(t *testing.T) {
		os.Chmod(filepath.Join(home, TokenFile), 0o644)
		defer os.Chmod(filepath.Join(home, TokenFile), 0o600)
		if _, _, err := LoadToken(home); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a short token is refused", func(t *testing.T) {
		h := t.TempDir()
		os.WriteFile(filepath.Join(h, TokenFile), []byte("short\n"), 0o600)
		if _, _, err := LoadToken(h); err == nil {
			t.Fatal("a short token was taken")
		}
	})
	t.Run("a symlink is refused", func(t *testing.T) {
		h := t.TempDir()
		os.Symlink(filepath.Join(home, TokenFile), filepath.Join(h, TokenFile))
		if _, _, err := LoadToken(h); err == nil {
			t.Fatal("a symlinked token was taken")
		}
	})
}
