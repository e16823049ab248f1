package rootfs

import (
	"reflect"
	"testing"
)

// Options.Before hears of every mutation before it happens, with the
// cleaned path, and of no read.
func TestBeforeHearsEveryMutation(t *testing.T) {
	ws, _ := tree(t)
	var heard []string
	f := newFS(t, ws, Options{Before: func(rel string) { heard = append(heard, rel) }})
	h, e := f.OpenFile("/a.txt", rdonly, 0)
	if e != 0 {
		t.Fatal(e)
	}
	h.Close()
	if h, e = f.OpenFile("d/../n.txt", create, 0o644); e != 0 {
		t.Fatal(e)
	}
	h.Close()
	f.Mkdir("m", 0o755)
	f.Rename("n.txt", "m/n.txt")
	f.Unlink("a.txt")
	f.Symlink("d", "s")
	f.Chmod("d/b.txt", 0o600)
	f.Rmdir("d")
	want := []string{"n.txt", "m", "m/n.txt", "n.txt", "a.txt", "s", "d/b.txt", "d"}
	if !reflect.DeepEqual(heard, want) {
		t.Fatalf("Before heard %q, want %q", heard, want)
	}
}
