package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fixture lays out a small tree and returns its directory.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a.txt":       "apple\nbanana\ncherry\napple pie\n",
		"nums.txt":    "10\n9\n100\n9\n",
		"csv.txt":     "x,1,foo\ny,2,bar\n",
		"src/main.go": "package main\n\nfunc main() {}\n",
		"src/util.go": "package main\n\nfunc Util() {}\n",
		"src/doc.md":  "func in docs\n",
		"old.txt":     "one\ntwo\nthree\nfour\n",
		"new.txt":     "one\nTWO\nthree\nfour\nfive\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, dir, command, stdin string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code, err := Run(context.Background(), dir, map[string]string{"HOME": "/home/u", "PATH": "/usr/bin"}, command, strings.NewReader(stdin), &out, &errb)
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	return code, out.String(), errb.String()
}

func TestBuiltins(t *testing.T) {
	tests := []struct {
		name, command, stdin, want string
		code                       int
	}{
		{"cat concatenates files", "cat a.txt nums.txt | wc -l", "", "8\n", 0},
		{"cat -n numbers lines", "cat -n nums.txt | head -1", "", "     1\t10\n", 0},
		{"head -n and -N take the first lines", "head -n 2 a.txt; head -1 nums.txt", "", "apple\nbanana\n10\n", 0},
		{"tail -n takes the last lines", "tail -n 1 a.txt", "", "apple pie\n", 0},
		{"tail -n +N starts at line N", "tail -n +4 a.txt", "", "apple pie\n", 0},
		{"wc -l aligns counts to the width of the total size", "wc -l a.txt nums.txt", "", " 4 a.txt\n 4 nums.txt\n 8 total\n", 0},
		{"wc of a pipe prints lines words bytes seven wide", "printf 'a b\\n' | wc", "", "      1       2       4\n", 0},
		{"sort -n sorts numerically", "sort -n nums.txt", "", "9\n9\n10\n100\n", 0},
		{"sort -rn reverses", "sort -rn nums.txt | head -1", "", "100\n", 0},
		{"sort -u drops duplicates", "sort -u nums.txt", "", "10\n100\n9\n", 0},
		{"sort -k sorts by a field", "printf 'b 2\\na 3\\nc 1\\n' | sort -k2 -n", "", "c 1\nb 2\na 3\n", 0},
		{"sort -t -k uses a separator", "sort -t, -k3 csv.txt", "", "y,2,bar\nx,1,foo\n", 0},
		{"uniq -c counts runs", "sort nums.txt | uniq -c", "", "      1 10\n      1 100\n      2 9\n", 0},
		{"uniq -d keeps repeated lines", "sort nums.txt | uniq -d", "", "9\n", 0},
		{"cut -d -f selects fields", "cut -d, -f1,3 csv.txt", "", "x,foo\ny,bar\n", 0},
		{"cut -c selects characters", "cut -c2-3 a.txt | head -1", "", "pp\n", 0},
		{"tr maps ranges", "echo hello | tr a-z A-Z", "", "HELLO\n", 0},
		{"tr -d deletes", "echo hello | tr -d l", "", "heo\n", 0},
		{"tr -s squeezes", "echo 'a   b' | tr -s ' '", "", "a b\n", 0},
		{"tr understands classes", "echo Hi5 | tr -d '[:digit:]'", "", "Hi\n", 0},
		{"seq counts", "seq 3; seq 2 2 6", "", "1\n2\n3\n2\n4\n6\n", 0},
		{"basename and dirname split paths", "basename /x/y.go .go; dirname /x/y.go", "", "y\n/x\n", 0},
		{"base64 round-trips", "echo hi | base64; echo aGkK | base64 -d", "", "aGkK\nhi\n", 0},
		{"sha256sum hashes stdin", "printf abc | sha256sum", "", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n", 0},
		{"/dev/null swallows output and reads empty", "echo hi > /dev/null; ls nothing 2>/dev/null; cat /dev/null; wc -l < /dev/null", "", "0\n", 0},
		{"tee writes and passes through", "echo x | tee t1 > /dev/null; echo y | tee -a t1; cat t1", "", "y\nx\ny\n", 0},
		{"mkdir -p, touch, ls", "mkdir -p d/e && touch d/e/f && ls d/e", "", "f\n", 0},
		{"cp -r copies trees", "cp -r src s2 && ls s2", "", "doc.md\nmain.go\nutil.go\n", 0},
		{"mv renames", "mv a.txt b.txt && cat b.txt | head -1 && ls a.txt", "", "apple\n", 2},
		{"rm -rf removes trees quietly", "rm -rf src nothing && ls src", "", "", 2},
		{"rm without -r refuses a directory", "rm src", "", "", 1},
		{"ln -s makes a symlink", "ln -s a.txt l && cat l | head -1", "", "apple\n", 0},
		{"ls -a shows dot entries", "mkdir e && touch e/.h && ls -a e", "", ".\n..\n.h\n", 0},
		{"ls -la prints a long listing", "ls -la src | grep -c '^-rw-r--r-- 1 '", "", "3\n", 0},
		{"find -name filters by base name", "find . -name '*.go' | sort", "", "./src/main.go\n./src/util.go\n", 0},
		{"find -type d -maxdepth", "find . -maxdepth 1 -type d", "", ".\n./src\n", 0},
		{"find -not negates", "find src -type f -not -name '*.go'", "", "src/doc.md\n", 0},
		{"xargs passes words as arguments", "printf 'a.txt\\nnums.txt\\n' | xargs wc -l", "", " 4 a.txt\n 4 nums.txt\n 8 total\n", 0},
		{"xargs -n batches", "echo 1 2 3 | xargs -n 2 echo", "", "1 2\n3\n", 0},
		{"xargs -I substitutes", "printf 'a\\nb\\n' | xargs -I{} echo '<{}>'", "", "<a>\n<b>\n", 0},
		{"diff prints the normal format and exits 1", "diff old.txt new.txt", "", "2c2\n< two\n---\n> TWO\n4a5\n> five\n", 1},
		{"diff -U0 prints a unified diff without context", "diff -U0 old.txt new.txt | tail -n +3", "", "@@ -2 +2 @@\n-two\n+TWO\n@@ -4,0 +5 @@\n+five\n", 0},
		{"diff of equal files is silent", "diff old.txt old.txt", "", "", 0},
		{"env shows the given environment and the exported PWD, as bash does", "env | grep -v ^PWD=; env | grep -c ^PWD=/", "", "HOME=/home/u\nPATH=/usr/bin\n1\n", 0},
		{"date formats", "date -u +%Y | wc -c", "", "5\n", 0},
		{"which finds builtins only", "which grep; which gcc", "", "/usr/bin/grep\n", 1},
		{"true and false set the status", "true && false", "", "", 1},
		{"sleep 0 returns at once", "sleep 0 && echo ok", "", "ok\n", 0},
		{"an unknown command exits 127", "make", "", "", 127},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t)
			code, out, errs := run(t, dir, tt.command, tt.stdin)
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

func TestGrep(t *testing.T) {
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"a plain match prints lines", "grep apple a.txt", "apple\napple pie\n", 0},
		{"-n adds line numbers", "grep -n cherry a.txt", "3:cherry\n", 0},
		{"-rn prints path:line:text", "grep -rn 'func ' src --include='*.go'", "src/main.go:3:func main() {}\nsrc/util.go:3:func Util() {}\n", 0},
		{"-r without a path searches the cwd", "grep -r Util", "src/util.go:func Util() {}\n", 0},
		{"-i ignores case", "grep -i APPLE a.txt | wc -l", "2\n", 0},
		{"-l lists files", "grep -rl func src", "src/doc.md\nsrc/main.go\nsrc/util.go\n", 0},
		{"-c counts", "grep -c apple a.txt", "2\n", 0},
		{"-v inverts", "grep -v apple a.txt", "banana\ncherry\n", 0},
		{"-w matches whole words", "grep -w apple a.txt", "apple\napple pie\n", 0},
		{"-x matches whole lines", "grep -x apple a.txt", "apple\n", 0},
		{"-E takes alternation", "grep -E 'ban|cher' a.txt", "banana\ncherry\n", 0},
		{"basic regex \\| is alternation", "grep 'ban\\|cher' a.txt", "banana\ncherry\n", 0},
		{"basic regex ( is literal", "echo 'f(x)' | grep 'f(x)'", "f(x)\n", 0},
		{"-F takes text literally", "echo 'a.b' | grep -F 'a.b'; echo axb | grep -F a.b", "a.b\n", 1},
		{"several -e are ORed", "grep -e ban -e cher a.txt", "banana\ncherry\n", 0},
		{"-H and -h control names", "grep -H ban a.txt; grep -h ban a.txt nums.txt", "a.txt:banana\nbanana\n", 0},
		{"-o prints only matches", "grep -o 'a[a-z]' a.txt | head -2", "ap\nan\n", 0},
		{"-q is quiet", "grep -q apple a.txt && echo yes", "yes\n", 0},
		{"no match exits 1", "grep zebra a.txt", "", 1},
		{"a missing file exits 2", "grep x missing.txt", "", 2},
		{"-A prints context after", "grep -A1 banana a.txt", "banana\ncherry\n", 0},
		{"stdin is searched by default", "cat a.txt | grep pie", "apple pie\n", 0},
		{"-rn on . joins ./ with the path", "grep -rn Util .", "./src/util.go:3:func Util() {}\n", 0},
		{"-rn on a directory with a trailing slash prints one slash", "grep -rn Util src/", "src/util.go:3:func Util() {}\n", 0},
		{"-rn on ./src keeps the ./", "grep -rn Util ./src", "./src/util.go:3:func Util() {}\n", 0},
		{"-rn on an absolute directory prints absolute paths", "cd src && grep -rn Util \"$PWD\" | sed \"s|$PWD|ABS|\"", "ABS/util.go:3:func Util() {}\n", 0},
		{"-n on one file prints no file name", "grep -n cherry a.txt", "3:cherry\n", 0},
		{"-rn on one file operand prints no file name", "grep -rn cherry a.txt", "3:cherry\n", 0},
		{"-rn on two operands names every file", "grep -rn cherry a.txt src", "a.txt:3:cherry\n", 0},
		{"-rh drops names under recursion", "grep -rh Util src", "func Util() {}\n", 0},
		{"-H names a single file", "grep -Hn cherry a.txt", "a.txt:3:cherry\n", 0},
		{"-c on one file prints the bare count", "grep -c apple a.txt", "2\n", 0},
		{"-rl on . lists ./ paths", "grep -rl Util .", "./src/util.go\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, fixture(t), tt.command, "")
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

func TestSed(t *testing.T) {
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"s replaces the first match", "echo aaa | sed s/a/b/", "baa\n", 0},
		{"g replaces all", "echo aaa | sed 's/a/b/g'", "bbb\n", 0},
		{"i ignores case", "echo AaA | sed 's/a/x/gi'", "xxx\n", 0},
		{"& is the match", "echo ab | sed 's/b/[&]/'", "a[b]\n", 0},
		{"\\1 is a group in basic regex", "echo 'k=v' | sed 's/\\(.*\\)=\\(.*\\)/\\2=\\1/'", "v=k\n", 0},
		{"-E groups use bare parentheses", "echo 'k=v' | sed -E 's/(.*)=(.*)/\\2=\\1/'", "v=k\n", 0},
		{"another delimiter works", "echo /a/b | sed 's|/|:|g'", ":a:b\n", 0},
		{"an escaped delimiter is literal", "echo a/b | sed 's/\\//-/'", "a-b\n", 0},
		{"-n with p prints selected lines", "sed -n 2p a.txt", "banana\n", 0},
		{"a line range prints", "sed -n '2,3p' a.txt", "banana\ncherry\n", 0},
		{"$ is the last line", "sed -n '$p' a.txt", "apple pie\n", 0},
		{"d deletes lines", "sed '1d;$d' a.txt", "banana\ncherry\n", 0},
		{"a regex address selects lines", "sed -n '/^b/p' a.txt", "banana\n", 0},
		{"a regex range spans lines", "sed -n '/banana/,/cherry/p' a.txt", "banana\ncherry\n", 0},
		{"! negates an address", "sed '/apple/!d' a.txt", "apple\napple pie\n", 0},
		{"several -e run in order", "echo abc | sed -e s/a/x/ -e s/x/y/", "ybc\n", 0},
		{"s with p under -n prints changed lines", "sed -n 's/cherry/CHERRY/p' a.txt", "CHERRY\n", 0},
		{"the nth occurrence is replaced", "echo aaa | sed 's/a/b/2'", "aba\n", 0},
		{"q stops after a line", "sed 2q a.txt", "apple\nbanana\n", 0},
		{"-i edits in place", "sed -i 's/apple/APPLE/g' a.txt && head -1 a.txt", "APPLE\n", 0},
		{"a bad script is an error", "sed 's/a/b' a.txt", "", 1},
		{"a missing final newline is kept", "printf 'x' | sed s/x/y/", "y", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, fixture(t), tt.command, "")
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

func TestShellState(t *testing.T) {
	dir := fixture(t)
	s, err := New(dir, map[string]string{"A": "1"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, c := range []string{"cd src; X=2; f() { echo f$1; }", "pwd; echo $A$X; f 3"} {
		if _, err := s.Run(context.Background(), c, nil, &out, &out); err != nil {
			t.Fatal(err)
		}
	}
	if want := filepath.Join(dir, "src") + "\n12\nf3\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	t.Run("the not-found message names the escalation", func(t *testing.T) {
		_, _, errs := run(t, dir, "cc", "")
		if !strings.Contains(errs, "cc: command not found in the sandbox") || !strings.Contains(errs, "danger-full-access") {
			t.Errorf("stderr %q", errs)
		}
	})
	t.Run("sleep stops when the context ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var b bytes.Buffer
		code, _ := Run(ctx, dir, nil, "sleep 1000", nil, &b, &b)
		if code == 0 {
			t.Errorf("sleep under a cancelled context returned 0")
		}
	})
}

func FuzzParseSed(f *testing.F) {
	for _, s := range []string{"s/a/b/g", "1,3p;$d", "/x/,/y/!s|a|\\1&|2p", "a hello", "2q", "s/\\(a\\)/\\1/", "/[/p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		prog, err := parseSed(script, false)
		if err != nil {
			return
		}
		var b strings.Builder
		runSed(prog, "a\nb\nc\n", &b, false)
	})
}

func TestPathsOutsideEveryMountAreNamedAsSuch(t *testing.T) {
	// The guest's WASI layer answers EBADF for a path under no mount.
	for _, err := range []error{
		&os.PathError{Op: "open", Path: "/etc/passwd", Err: syscall.EBADF},
		&os.LinkError{Op: "rename", Old: "a", New: "/etc/x", Err: syscall.EBADF},
	} {
		if got := errText(err); got != OutsideText {
			t.Errorf("errText(%v) = %q, want %q", err, got, OutsideText)
		}
	}
	if got := errText(&os.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}); got != "No such file or directory" {
		t.Errorf("ENOENT became %q", got)
	}
}

func TestWritesToDevicesNeverReachAFile(t *testing.T) {
	for p := range devices {
		w, err := openWrite(p, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := w.(device); !ok {
			t.Fatalf("openWrite(%s) = %T, want the in-memory device", p, w)
		}
	}
}

func TestDevicesServeBuiltinsAndRedirections(t *testing.T) {
	tests := []struct{ name, command, want string }{
		{"head reads /dev/zero as an operand", "head -c 1000 /dev/zero | wc -c", "1000\n"},
		{"a redirection reads /dev/zero", "head -c 5 < /dev/zero | od -An -tx1", " 00 00 00 00 00\n"},
		{"/dev/urandom gives the bytes asked for", "head -c 4096 /dev/urandom | wc -c", "4096\n"},
		{"/dev/random is random too", "a=$(head -c 16 /dev/random | od -An -tx1); b=$(head -c 16 /dev/random | od -An -tx1); [ \"$a\" != \"$b\" ] && echo differ", "differ\n"},
		{"cat of /dev/null is empty", "cat /dev/null | wc -c", "0\n"},
		{"writes to /dev/zero are discarded", "echo x > /dev/zero && echo ok", "ok\n"},
		{"/dev/full reads as zeros", "head -c 3 /dev/full | wc -c", "3\n"},
		{"file names the device", "file /dev/zero", "/dev/zero: character special (1/5)\n"},
		{"/dev/stdin is the command's input", "echo in | cat /dev/stdin", "in\n"},
		{"/dev/fd/0 too", "echo in | cat /dev/fd/0", "in\n"},
		{"/dev/stderr is the command's stderr", "{ echo err > /dev/stderr; } 2>&1", "err\n"},
		{"/dev/fd/3 is a descriptor the shell opened", "exec 3<<<three; cat /dev/fd/3", "three\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, t.TempDir(), tt.command, "")
			if out != tt.want {
				t.Errorf("%s: got %d %q (stderr %q), want %q", tt.command, code, out, errs, tt.want)
			}
		})
	}
}
