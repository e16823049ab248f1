package layering

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name, pkg, imp string
		bad            bool
	}{
		{"harness may import toolbox", "harness", "toolbox", false},
		{"toolbox may import ptc, sandbox and runtime", "toolbox", "sandbox/proto", false},
		{"a front end may import harness", "serve", "harness", false},
		{"cmd may import a front end", "cmd/ptc", "serve", false},
		{"runtime may import runtime and internal", "runtime/agent", "internal/clip", false},
		{"ptc may import sdkgen, its own layer", "ptc", "sdkgen", false},
		{"outside packages are always fine", "internal/clip", "golang.org/x/text", false},
		{"runtime importing toolbox is caught", "runtime/tools", "toolbox", true},
		{"runtime importing sandbox is caught", "runtime/session", "sandbox", true},
		{"toolbox importing harness is caught", "toolbox", "harness", true},
		{"harness importing a front end is caught", "harness", "serve", true},
		{"a front end importing cmd is caught", "acp", "cmd/ptc/tui", true},
		{"sdkgen importing anything of ours is caught", "sdkgen", "internal/jsonscan", true},
		{"internal importing runtime is caught", "internal/termsafe", "runtime/llm", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			why := Check(Module+"/"+c.pkg, full(c.imp))
			if (why != "") != c.bad {
				t.Fatalf("Check(%s, %s) = %q", c.pkg, c.imp, why)
			}
		})
	}
}

func full(p string) string {
	if strings.Contains(p, ".") {
		return p
	}
	return Module + "/" + p
}

// TestNoImportGoesAgainstTheLayers checks every non-test import of every
// package of the module, for the host and for the wasip1 guest.
func TestNoImportGoesAgainstTheLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	wasm := build.Default
	wasm.GOOS, wasm.GOARCH = "wasip1", "wasm"
	checked, reported := 0, map[string]bool{}
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); dir != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && dir != root {
			return filepath.SkipDir // a module of its own (third_party/goja)
		}
		rel, _ := filepath.Rel(root, dir)
		pkg := Module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		for _, ctx := range []*build.Context{&build.Default, &wasm} {
			p, err := ctx.ImportDir(dir, build.ImportComment)
			var none *build.NoGoError
			if errors.As(err, &none) {
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				continue
			}
			checked++
			for _, imp := range p.Imports {
				if why := Check(pkg, imp); why != "" && !reported[why] {
					reported[why] = true
					t.Error(why)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Fatalf("only %d packages checked", checked)
	}
}
