// Package srchash computes the fingerprint of everything the embedded guest
// binary is built from, so a test can tell when the committed binary no
// longer matches the tree.
package srchash

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Roots are the module-relative directories whose Go files (tests
// excluded, since they do not reach the binary) make up the guest: every
// package of the module the guest imports, the in-tree interpreter under
// sandbox/guest/internal/sh among them, lies under one
// (TestRootsCoverEveryPackageTheGuestImports checks). third_party/goawk is
// the fork of GoAWK the go.mod replaces upstream with: a module of its
// own, but in the tree, so its sources count as the guest's.
var Roots = []string{"sandbox/guest", "sandbox/proto", "internal/textdiff", "third_party/goawk"}

// Module is the one dependency whose go.sum lines are part of the hash:
// the guest still takes mvdan.cc/sh's parser (syntax) from upstream.
const Module = "mvdan.cc/sh/v3 "

// Hash returns the hex SHA-256 over the guest's Go sources under
// moduleRoot (path and content of each, in path order) and the go.sum lines
// of Module.
func Hash(moduleRoot string) (string, error) {
	var files []string
	for _, r := range Roots {
		err := filepath.WalkDir(filepath.Join(moduleRoot, r), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(moduleRoot, p)
			if d.Type().IsRegular() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(moduleRoot, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	sum, err := os.Open(filepath.Join(moduleRoot, "go.sum"))
	if err != nil {
		return "", err
	}
	defer sum.Close()
	sc := bufio.NewScanner(sum)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), Module) {
			fmt.Fprintf(h, "%s\n", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ModuleRoot walks up from dir to the directory holding go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}
