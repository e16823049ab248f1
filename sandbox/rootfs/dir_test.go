package rootfs

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

func TestReaddirListsEveryEntryWithInodeAndTypeAcrossBatches(t *testing.T) {
	ws, _ := tree(t)
	dir := filepath.Join(ws, "many")
	must(t, os.Mkdir(dir, 0o755))
	want := map[string]fs.FileMode{"sub": fs.ModeDir, "link": fs.ModeSymlink}
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.Symlink("f000-with-a-longer-name-to-fill-batches", filepath.Join(dir, "link")))
	for i := range 700 { // several getdents batches of 8 KiB
		name := fmt.Sprintf("f%03d-with-a-longer-name-to-fill-batches", i)
		must(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
		want[name] = 0
	}
	f := newFS(t, ws, Options{})
	d, e := f.OpenFile("many", experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if e != 0 {
		t.Fatal(e)
	}
	defer d.Close()
	readAll := func(chunk int) map[string]fs.FileMode {
		got := map[string]fs.FileMode{}
		for {
			ents, e := d.Readdir(chunk)
			if e != 0 {
				t.Fatal(e)
			}
			for _, de := range ents {
				if de.Ino == 0 {
					t.Fatalf("%s has no inode", de.Name)
				}
				if _, dup := got[de.Name]; dup {
					t.Fatalf("%s listed twice", de.Name)
				}
				got[de.Name] = de.Type
			}
			if chunk <= 0 || len(ents) < chunk {
				return got
			}
		}
	}
	check := func(got map[string]fs.FileMode) {
		t.Helper()
		if len(got) != len(want) {
			var names []string
			for n := range got {
				names = append(names, n)
			}
			sort.Strings(names)
			t.Fatalf("got %d entries, want %d (first: %.5q)", len(got), len(want), names)
		}
		for n, m := range want {
			if got[n] != m {
				t.Fatalf("%s: type %v, want %v", n, got[n], m)
			}
		}
	}
	check(readAll(7))
	if _, e := d.Seek(0, io.SeekStart); e != 0 {
		t.Fatal(e)
	}
	check(readAll(-1))
}
