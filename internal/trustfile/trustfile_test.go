package trustfile

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type entry struct {
	Workspace string `json:"workspace"`
	Name      string `json:"name"`
}

func TestTheApprovalsFile(t *testing.T) {
	t.Run("a missing file holds no approvals", func(t *testing.T) {
		f := Open[entry](filepath.Join(t.TempDir(), "x.json"), "things")
		if es, err := f.Load(); err != nil || len(es) != 0 {
			t.Fatalf("%v %v", es, err)
		}
	})
	t.Run("an update is read back and the file is private", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "home", "x.json")
		f := Open[entry](path, "things")
		if err := f.Update(func(es []entry) []entry { return append(es, entry{"/w", "a"}) }); err != nil {
			t.Fatal(err)
		}
		es, err := Open[entry](path, "things").Load()
		if err != nil || len(es) != 1 || es[0] != (entry{"/w", "a"}) {
			t.Fatalf("%v %v", es, err)
		}
		if st, err := os.Stat(path); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Fatalf("mode %v %v", st.Mode(), err)
		}
		if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".x.json-*")); len(leftovers) != 0 {
			t.Fatalf("temporary files left: %v", leftovers)
		}
	})
	t.Run("a corrupt file is an error naming it and what to do, and is not overwritten", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "x.json")
		if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		f := Open[entry](path, "things")
		if _, err := f.Load(); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "remove it to approve things again") {
			t.Fatalf("got %v", err)
		}
		if err := f.Update(func(es []entry) []entry { return append(es, entry{"/w", "a"}) }); err == nil {
			t.Fatal("an update over a corrupt file succeeded")
		}
		if b, _ := os.ReadFile(path); string(b) != "{" {
			t.Fatalf("the corrupt file was replaced: %q", b)
		}
	})
	t.Run("concurrent updates lose none", func(t *testing.T) {
		f := Open[entry](filepath.Join(t.TempDir(), "x.json"), "things")
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = f.Update(func(es []entry) []entry { return append(es, entry{"/w", string(rune('a' + i))}) })
			}()
		}
		wg.Wait()
		if es, err := f.Load(); err != nil || len(es) != 20 {
			t.Fatalf("%d entries, %v", len(es), err)
		}
	})
}
