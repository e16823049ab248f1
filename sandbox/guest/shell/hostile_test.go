package shell

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileTar is a tar archive whose members try to leave the directory
// it is extracted into.
func hostileTar(t *testing.T) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, name := range []string{"../escaped.txt", "/abs.txt", "ok/../../up.txt", "fine.txt"} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg})
		tw.Write([]byte("x\n"))
	}
	tw.WriteHeader(&tar.Header{Name: "link", Typeflag: tar.TypeLink, Linkname: "../../etc/passwd"})
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func hostileZip(t *testing.T) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range []string{"../zip-escaped.txt", "sub/../../zip-up.txt", "good.txt"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("z\n"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHostileArchives checks that no member of a hostile archive lands
// outside the extraction directory, and that extraction reports it.
func TestHostileArchives(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "w")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "evil.tar"), hostileTar(t), 0o644)
	os.WriteFile(filepath.Join(dir, "evil.zip"), hostileZip(t), 0o644)
	code, _, errs := run(t, dir, "mkdir x && tar xf evil.tar -C x", "")
	if code == 0 || !strings.Contains(errs, "'..'") {
		t.Errorf("tar: status %d, stderr %q; want a failure naming '..'", code, errs)
	}
	code, _, errs = run(t, dir, "unzip -q evil.zip -d z", "")
	if code == 0 || !strings.Contains(errs, "'..'") {
		t.Errorf("unzip: status %d, stderr %q; want a failure naming '..'", code, errs)
	}
	for _, p := range []string{"escaped.txt", "up.txt", "zip-escaped.txt", "zip-up.txt", "w/escaped.txt", "w/up.txt", "w/zip-up.txt"} {
		if _, err := os.Stat(filepath.Join(base, p)); err == nil {
			t.Errorf("%s was written outside the extraction directory", p)
		}
	}
	for _, p := range []string{"x/fine.txt", "x/abs.txt", "z/good.txt"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: the safe member was not extracted: %v", p, err)
		}
	}
}

// TestHostileNamesAreNotCode runs commands that pass file names on to
// other commands (find -exec, xargs, timeout) with names that would run
// code if they were pasted into a command line.
func TestHostileNamesAreNotCode(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"$(touch pwned1)", "`touch pwned2`", "a;touch pwned3", "q'uote"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	tests := []string{
		"find . -type f -exec echo {} \\;",
		"find . -type f -exec echo {} +",
		"ls | xargs -I{} echo {}",
		"ls | xargs -d '\\n' echo",
		"timeout 5 ls",
	}
	for _, cmd := range tests {
		run(t, dir, cmd, "")
	}
	for _, p := range []string{"pwned1", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("a file name ran as code: %s exists", p)
		}
	}
}

// TestNewBuiltins covers behaviour of the added commands that the
// one-liner comparison with bash does not reach: refusals, limits and
// the exit statuses a caller branches on.
func TestNewBuiltins(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name, command, stdin, want string
		code                       int
	}{
		{"jq keeps the input's key order", `jq -c '.b = 2' `, `{"z":1,"a":0,"b":1}`, `{"z":1,"a":0,"b":2}` + "\n", 0},
		{"jq puts a new key last", `jq -c '.new = 1'`, `{"z":1,"a":0}`, `{"z":1,"a":0,"new":1}` + "\n", 0},
		{"jq -S sorts keys", `jq -cS .`, `{"z":1,"a":0}`, `{"a":0,"z":1}` + "\n", 0},
		{"jq refuses too deep an input without crashing", `jq . ; echo "status $?"`, deep, "status 2\n", 0},
		{"jq reports malformed JSON with status 2", `jq . ; echo "status $?"`, `{"a":`, "status 2\n", 0},
		{"jq reports a compile error with status 3", `jq 'if' ; echo "status $?"`, `1`, "status 3\n", 0},
		{"jq -e fails on false", `jq -e .a`, `{"a":false}`, "false\n", 1},
		{"jq reads several documents", `jq -c .a`, `{"a":1} {"a":[2]}`, "1\n[2]\n", 0},
		{"jq --argjson binds a value", `jq -n -c --argjson v '{"x":1}' '$v.x'`, ``, "1\n", 0},
		{"jq prints numbers as jq 1.6 does", `jq -c .`, `[1e1000, 1.0, 100000000000000000000, 0.00001]`, "[1.7976931348623157e+308,1,1e+20,1e-05]\n", 0},
		{"awk refuses system()", `awk 'BEGIN { system("touch awk-ran") }'; ls awk-ran`, ``, "", 2},
		{"awk reads files relative to the shell's directory", `mkdir d && printf 'a b\n' > d/f && cd d && awk '{print $2}' f`, ``, "b\n", 0},
		{"awk writes files relative to the shell's directory", `mkdir d && cd d && awk 'BEGIN { print "hi" > "out" }' && cat out`, ``, "hi\n", 0},
		{"grep -P bounds a catastrophic pattern", `grep -P '(a+)+$' ; echo "status $?"`, strings.Repeat("a", 40) + "b\n", "status 2\n", 0},
		{"expr division by zero is an error", `expr 1 / 0; echo "status $?"`, ``, "status 2\n", 0},
		{"expr sets status 1 for a zero result", `expr 2 - 2`, ``, "0\n", 1},
		{"date -d rejects garbage", `date -d 'not a date'`, ``, "", 1},
		{"chmod rejects a bad mode", `touch f && chmod u+q f`, ``, "", 1},
		{"chmod applies symbolic modes", `touch f && chmod 640 f && chmod g+w,o=r f && stat -c %a f`, ``, "664\n", 0},
		{"timeout exits 124 when the command overruns", `timeout 0.05 sleep 5; echo $?`, ``, "124\n", 0},
		{"mktemp -d makes a private directory", `d=$(mktemp -d -p .) && stat -c %a "$d"`, ``, "700\n", 0},
		{"rm -r removes a deep tree", `mkdir -p ` + strings.Repeat("d/", 300) + ` && rm -r d && ls`, ``, "", 0},
		{"cmp -s reports a difference only by status", `printf a > x; printf b > y; cmp -s x y`, ``, "", 1},
		{"sha256sum -c catches a changed file", `echo a > f && sha256sum f > s && echo b > f && sha256sum -c s`, ``, "f: FAILED\n", 1},
		{"gzip refuses a file that is not gzip", `echo hi > f.gz && gunzip f.gz`, ``, "", 1},
		{"tar without a mode is a usage error", `tar f x.tar`, ``, "", 2},
		{"unzip of a missing archive fails with 9", `unzip nothing.zip`, ``, "", 9},
		{"strings prints runs of four or more printable bytes", `printf 'ab\001abcd\000xyz12\n' | strings`, ``, "abcd\nxyz12\n", 0},
		{"less without a terminal copies its input", `echo hi | less`, ``, "hi\n", 0},
		{"xxd -r round-trips a dump", `printf 'bin\000ary' | xxd | xxd -r | od -c | head -1`, ``, "0000000   b   i   n  \\0   a   r   y\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, t.TempDir(), tt.command, tt.stdin)
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}
