package guestwasm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// TestBuiltinsThatDependOnWASI runs, in the wasm guest, the commands whose
// behaviour depends on what WASI offers (stat fields, directory walks,
// temporary files, symlink resolution, the process directory awk uses)
// rather than on Go code alone, which the native tests cover.
func TestBuiltinsThatDependOnWASI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "d", "e"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "e", "f.json"), []byte(`{"z":1,"a":[1,2]}`), 0o644)
	g := newGuest(t, dir)
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"stat reports size and type", "stat -c '%s %F' a.txt d", "14 regular file\n4096 directory\n", 0},
		{"du walks a tree", "du -a d | wc -l", "3\n", 0},
		{"mktemp makes a file in the workspace", "t=$(mktemp -p .) && test -f \"$t\" && echo ok", "ok\n", 0},
		{"realpath resolves a relative path", "cd d && realpath e/../../a.txt | sed \"s|$OLDPWD|W|\"", "W/a.txt\n", 0},
		{"readlink follows a symlink", "ln -s a.txt l && readlink l && readlink -f l | sed \"s|$PWD|W|\"", "a.txt\nW/a.txt\n", 0},
		{"awk reads a file relative to the shell's directory", "cd d/e && awk -F: '{print NF}' f.json", "3\n", 0},
		{"jq keeps key order", "jq -c '.a |= length' d/e/f.json", "{\"z\":1,\"a\":2}\n", 0},
		{"tar round-trips a tree", "tar czf t.tgz d && mkdir x && tar xzf t.tgz -C x && find x -type f", "x/d/e/f.json\n", 0},
		{"zip round-trips a file", "zip -q z.zip a.txt && unzip -p z.zip a.txt | wc -l", "3\n", 0},
		{"gzip replaces a file with its .gz", "gzip a.txt && ls a.txt* && gunzip -c a.txt.gz | head -1", "a.txt.gz\none\n", 0},
		{"truncate shrinks a file", "truncate -s 4 a.txt && cat a.txt", "one\n", 0},
		{"rmdir refuses a non-empty directory", "rmdir d", "", 1},
		{"find -exec runs builtins", "find d -name '*.json' -exec wc -c {} \\;", "17 d/e/f.json\n", 0},
		{"chmod says the sandbox cannot change modes", "chmod +x a.txt", "", 1},
		{"sort -k sorts by two keys", "printf 'b 2\\na 2\\nc 1\\n' | sort -k2,2n -k1,1", "c 1\na 2\nb 2\n", 0},
		{"diff exits 1 on a difference", "printf 'one\\n' > b.txt; diff a.txt b.txt > /dev/null", "", 1},
		{"seq stops when head has enough", "seq 1 100000000 | head -2", "1\n2\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			// each case gets its own copy under the mounted directory
			sub := filepath.Join(dir, filepath.Base(work))
			os.MkdirAll(sub, 0o755)
			copyInto(t, dir, sub)
			code, out, errs := g.call(proto.Request{Op: proto.OpShell, Command: tt.command, Cwd: sub, Env: map[string]string{"HOME": "/home/u"}})
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

// copyInto copies a.txt and d/ from dir into sub.
func copyInto(t *testing.T, dir, sub string) {
	t.Helper()
	for _, rel := range []string{"a.txt", "d/e/f.json"} {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(sub, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
