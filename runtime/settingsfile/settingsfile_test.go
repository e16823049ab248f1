package settingsfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if f, err := Read(filepath.Join(dir, "none.json")); err != nil || len(f.Sections) != 0 {
		t.Fatalf("a missing file: %+v %v", f, err)
	}
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a directory: %v", err)
	}
	write := func(text string) string {
		p := filepath.Join(dir, Name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := Read(write("[1, 2]")); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("an array: %v", err)
	}
	if _, err := Read(write(strings.Repeat(" ", MaxSize+1))); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("too large: %v", err)
	}
	f, err := Read(write(`{"web": {"backend": "brave"}, "model": "someone else's key"}`))
	if err != nil {
		t.Fatal(err)
	}
	var web struct{ Backend string }
	if ok, err := f.Decode("web", &web); !ok || err != nil || web.Backend != "brave" {
		t.Fatalf("%+v %v %v", web, ok, err)
	}
	var strict struct{ Other string }
	if _, err := f.Decode("web", &strict); err == nil || !strings.Contains(err.Error(), `"web"`) {
		t.Fatalf("an unknown field in a section: %v", err)
	}
	if ok, err := f.Decode("hooks", &strict); ok || err != nil {
		t.Fatalf("an absent section: %v %v", ok, err)
	}
}
