package srchash

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/ptc-dev/ptc/"

// TestRootsCoverEveryPackageTheGuestImports keeps Hash honest: a package
// of this module that the guest links (found by go list for wasip1) or
// that an overlay file imports (go list does not see those: they are
// added to mvdan.cc/sh's packages only when the guest is built) must lie
// under Roots, or a change to it would leave the embedded guest stale
// without TestEmbeddedGuestMatchesItsSources noticing.
func TestRootsCoverEveryPackageTheGuestImports(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./sandbox/guest/cmd/ptcguest")
	list.Dir = root
	list.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := strings.Fields(string(out))
	overlay, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(Overlay), "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range overlay {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			imports = append(imports, path)
		}
	}
	if len(overlay) == 0 || len(imports) < 10 {
		t.Fatalf("found %d overlay files and %d imports: the test no longer looks where the guest is", len(overlay), len(imports))
	}
	for _, imp := range imports {
		rel, ours := strings.CutPrefix(imp, modulePath)
		if !ours || covered(rel) {
			continue
		}
		t.Errorf("the guest imports %s, which no entry of Roots covers: add its directory", imp)
	}
}

func covered(rel string) bool {
	for _, r := range Roots {
		if rel == r || strings.HasPrefix(rel, r+"/") {
			return true
		}
	}
	return false
}
