package srchash

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const modulePath = "github.com/ptc-dev/ptc/"

// TestRootsCoverEveryPackageTheGuestImports keeps Hash honest: a package
// of this module that the guest links (found by go list for wasip1) must
// lie under Roots, or a change to it would leave the embedded guest stale
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
	if len(imports) < 10 {
		t.Fatalf("found %d imports: the test no longer looks where the guest is", len(imports))
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
