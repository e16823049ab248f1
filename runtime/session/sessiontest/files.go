package sessiontest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TreeHash hashes the path, mode and content (a link's target) of
// everything under dir, leaving out entries whose name is in skip, so a
// fault test can prove a damaged or refused store was neither deleted nor
// rewritten. Callers that open a session as a reader skip "owner": each
// opener writes its pid into that lock file.
func TreeHash(t testing.TB, dir string, skip ...string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if slices.Contains(skip, d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + info.Mode().String()
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			line += " -> " + target
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// StoreFile returns the first file of a session's store (the log
// directory of sessionDir) matching glob, failing the test when none does.
func StoreFile(t testing.TB, sessionDir, glob string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(sessionDir, "log", glob))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) == 0 {
		t.Fatalf("no %s in the store of %s", glob, sessionDir)
	}
	return m[0]
}
