package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// overlay is the content of the _overlay directory: whole files by their
// upstream path, and patches by the upstream path they apply to.
type overlay struct {
	files   map[string][]byte // "interp/stdin_os.go" → our file
	patches map[string][]byte // "interp/runner.go" → unified diff
	used    map[string]bool   // upstream paths that met their file or patch
}

func readOverlay(dir string) (*overlay, error) {
	ov := &overlay{files: map[string][]byte{}, patches: map[string][]byte{}, used: map[string]bool{}}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasPrefix(rel, "patches/") && strings.HasSuffix(rel, ".patch"):
			target, err := patchTarget(data)
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			if _, dup := ov.patches[target]; dup {
				return fmt.Errorf("%s: a second patch for %s", rel, target)
			}
			ov.patches[target] = data
		case strings.HasSuffix(rel, ".go"):
			ov.files[rel] = data
		default:
			return fmt.Errorf("%s: the overlay holds only .go files and patches/*.patch", rel)
		}
		return nil
	})
	return ov, err
}

// apply returns the staged content of the upstream file rel.
func (ov *overlay) apply(rel string, data []byte) ([]byte, error) {
	if f, ok := ov.files[rel]; ok {
		if _, both := ov.patches[rel]; both {
			return nil, fmt.Errorf("%s is both replaced and patched", rel)
		}
		ov.used[rel] = true
		return f, nil
	}
	if p, ok := ov.patches[rel]; ok {
		ov.used[rel] = true
		out, err := applyPatch(data, p)
		if err != nil {
			return nil, fmt.Errorf("patching %s: %w", rel, err)
		}
		return out, nil
	}
	return data, nil
}

// addNew stages our files that replace nothing upstream, and fails for a
// patch whose upstream file does not exist.
func (ov *overlay) addNew(stageDir string) error {
	var names []string
	for rel := range ov.files {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		if ov.used[rel] {
			continue
		}
		if _, err := os.Stat(filepath.Join(stageDir, filepath.Dir(rel))); err != nil {
			return fmt.Errorf("overlay file %s: no such upstream package", rel)
		}
		if err := writeStaged(stageDir, rel, ov.files[rel]); err != nil {
			return err
		}
	}
	for rel := range ov.patches {
		if !ov.used[rel] {
			return fmt.Errorf("a patch for %s, which upstream does not have", rel)
		}
	}
	return nil
}

func writeStaged(stageDir, rel string, data []byte) error {
	to := filepath.Join(stageDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}
