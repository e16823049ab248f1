package shell

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// TestStreamingBuiltinsMatchGNU runs the builtins that stream their input
// (wc, tail, uniq, cut, sed, grep) and the host's GNU tools over the same inputs, both
// as files (a large one is streamed from disk, a small one read whole) and
// through a pipe, and compares the outputs byte for byte (not cut -c:
// GNU cut counts bytes there, the builtin characters, as POSIX says). The inputs put
// a multi-byte character across the 64 KiB block boundary, end without a
// newline, and hold long lines.
func TestStreamingBuiltinsMatchGNU(t *testing.T) {
	var big bytes.Buffer
	for i := 0; big.Len() < 3<<20; i++ {
		big.WriteString(strings.Repeat("é", i%40) + " w" + strings.Repeat("x", i%7) + "\tz\n")
		if i%50 == 0 {
			big.WriteString("dup line\ndup line\ndup line\n")
		}
	}
	inputs := map[string]string{
		"big":    big.String() + "no newline at the end é",
		"small":  "b a\nb a\nc\n\nd e f\n",
		"noeol":  "one\ntwo",
		"empty":  "",
		"cutrun": strings.Repeat("ab", 32767) + "é" + strings.Repeat("c", 70000),
	}
	bash, dir := gnuFixture(t, inputs)
	commands := []string{
		"wc F", "wc -l F", "wc -c F", "wc -m F", "wc -w F", "wc -L F", "wc -lwmc F",
		"tail F", "tail -n 3 F", "tail -n 1 F", "tail -n 0 F", "tail -n +4 F", "tail -c 100 F", "tail -n 100000 F", "tail -n 5000 F", "tail -n 2 F",
		"uniq F", "uniq -c F", "uniq -d F", "uniq -u F",
		"sed 's/x/Y/g' F", "sed -n '$p' F", "sed 2q F", "sed 'N;P;D' F", "sed '$!d' F", "sed -n '/dup/=' F", "sed '1~3d' F", "sed -n 2,4p F", "sed 1d F",
		"cut -f 2 F", "cut -d ' ' -f 1,3 F", "cut -s -d ' ' -f 2 F",
		"grep -c dup F", "grep -n wxxxxx F", "grep -bn 'é w' F", "grep -m 3 -A 1 dup F", "grep -v z F", "grep -l dup F", "grep -B 2 -n wxxxxxx F",
		`grep -c 'ne\|no' F`,
	}
	for _, command := range commands {
		for name := range inputs {
			for _, form := range []string{"file", "pipe"} {
				script := strings.ReplaceAll(command, "F", name)
				if form == "pipe" {
					script = "cat " + name + " | " + strings.ReplaceAll(command, " F", "")
				}
				t.Run(form+" "+script, func(t *testing.T) {
					gnu := exec.Command(bash, "-c", script)
					gnu.Dir = dir
					gnu.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
					want, _ := gnu.Output()
					_, got, errs := run(t, dir, script, "")
					if got != string(want) {
						t.Errorf("got %.200q (stderr %q), GNU %.200q", got, errs, want)
					}
				})
			}
		}
	}
}

// TestReadLeavesTheRestForTheNextReader: read takes a block of a file at a
// time and keeps what it did not use until something else may read the
// file, so the commands after it (or between its calls) read on from the
// end of its line.
func TestReadLeavesTheRestForTheNextReader(t *testing.T) {
	tests := []struct{ name, command, want string }{
		{"cat after one read", "{ read x; cat; } < f", "two\nthree é\nfour\n"},
		{"reads in turn", "while read x; do echo \"<$x>\"; read y; echo \"[$y]\"; done < f", "<one>\n[two]\n<three é>\n[four]\n"},
		{"a loop's body reads on", "while read x; do echo \"<$x>\"; cat; done < f", "<one>\ntwo\nthree é\nfour\n"},
		{"read -n", "{ read -n 2 x; echo \"$x\"; cat; } < f", "on\ne\ntwo\nthree é\nfour\n"},
		{"read -d", "{ read -d e x; echo \"$x\"; read y; echo \"$y\"; } < f", "on\n\n"},
		{"a long line past the block", "{ read x; echo ${#x}; cat; } < long", "10000\nend\n"},
		{"a pipe keeps the rest in its buffer", "cat f | { read x; cat; }", "two\nthree é\nfour\n"},
		{"a subshell reads on", "{ read x; (cat); } < f", "two\nthree é\nfour\n"},
		{"a command substitution in the body reads on", "while read x; do y=$(head -n 1); echo \"$x|$y\"; done < f", "one|two\nthree é|four\n"},
		{"a read of another file between", "{ read x; read y < long2; read z; echo \"$x $y $z\"; cat; } < f", "one a two\nthree é\nfour\n"},
		{"read -t after read", "{ read x; read -t 5 y; echo \"$y\"; cat; } < f", "two\nthree é\nfour\n"},
		{"mapfile after read", "{ read x; mapfile -t a; echo ${#a[@]} \"${a[2]}\"; } < f", "3 four\n"},
		{"an append to the same file is seen", "cp f g; { read x; echo five >> g; cat; } < g", "two\nthree é\nfour\nfive\n"},
		{"a write through a read-write descriptor lands after the byte read", "cp f h; exec 3<> h; read -n 1 <&3; echo -n . >&3; exec 3>&-; head -c 4 h", "o.e\n"},
		{"-u on a descriptor", "exec 3< f; read -u 3 x; read -u 3 y; cat <&3; exec 3<&-; echo \"$x $y\"", "three é\nfour\none two\n"},
		{"fields and the rest", "while read -r a b; do echo \"[$a][$b]\"; done < fields", "[a][b  c]\n[x\\y][]\n[][]\n[tab][sep]\n"},
		{"a backslash continues the line without -r", "{ read a; read b; echo \"$a|$b\"; } < bs", "one twothree|x\n"},
		{"IFS of colons", "while IFS=: read -r a b c; do echo \"[$a][$b][$c]\"; done < colons", "[][a][]\n[b][][c:d]\n"},
		{"the last line without a newline", "while read -r x; do echo \"<$x>\"; done < nonl; echo \"[$x]\"", "<a>\n[b]\n"},
		{"raw bytes stay as they are", "read -r x < latin1; printf %s \"$x\" | od -An -tx1", " 61 ff 62\n"},
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("one\ntwo\nthree é\nfour\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "long2"), []byte("a\nb\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "fields"), []byte("  a   b  c  \nx\\y\n\n\ttab\tsep\t\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bs"), []byte("one two\\\nthree\nx\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "colons"), []byte(":a:\nb::c:d\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "nonl"), []byte("a\nb"), 0o644)
	os.WriteFile(filepath.Join(dir, "latin1"), []byte("a\xffb\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "long"), []byte(strings.Repeat("x", 10000)+"\nend\n"), 0o644)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got, errs := run(t, dir, tt.command, ""); got != tt.want {
				t.Errorf("%s: got %q (stderr %q), want %q", tt.command, got, errs, tt.want)
			}
		})
	}
}

// TestSortMergesRunsPastItsBudget lowers sort's memory budget so its input
// goes to disk in sorted runs, and compares the merged output with GNU
// sort's for the orders agents use (ties, -u, -s, -r and keys included).
func TestSortMergesRunsPastItsBudget(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		sharedtest.Unavailable(t, "bash and GNU sort: %v", err)
	}
	defer func(b int) { sortBudget = b }(sortBudget)
	sortBudget = 16 << 10
	dir := t.TempDir()
	var b strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&b, "%d %s %d.%d k%d\n", (i*7919)%1000, fixtureWord(i), i%13, i%7, i%50)
	}
	b.WriteString("no newline 1")
	os.WriteFile(filepath.Join(dir, "in"), []byte(b.String()), 0o644)
	os.Mkdir(filepath.Join(dir, "tmp"), 0o755)
	for _, command := range []string{"sort in", "sort -r in", "sort -n in", "sort -t' ' -k2,2 in", "sort -k3,3n -k1,1nr in",
		"sort -u -k2,2 in", "sort -s -k2,2 in", "sort -u in | wc -l", "cat in | sort -k4 | tail -3"} {
		t.Run(command, func(t *testing.T) {
			gnu := exec.Command(bash, "-c", command)
			gnu.Dir, gnu.Env = dir, []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			want, _ := gnu.Output()
			_, got, errs := run(t, dir, "TMPDIR=tmp "+command, "")
			if got != string(want) {
				t.Errorf("got %.300q (stderr %q), GNU %.300q", got, errs, want)
			}
			if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
				t.Errorf("%d runs left behind", len(left))
			}
		})
	}
}

func fixtureWord(i int) string {
	return []string{"alpha", "beta", "Gamma", "delta", "beta", "", "zeta"}[i%7]
}

// TestSeqMatchesGNU covers seq's whole-number short cut and the general
// path it falls back to.
func TestSeqMatchesGNU(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		sharedtest.Unavailable(t, "bash and GNU seq: %v", err)
	}
	for _, command := range []string{"seq 5", "seq -w 8 11", "seq -s, 3", "seq 5 -2 -5", "seq -w -3 2", "seq 0", "seq 3 1",
		"seq 2 2 10", "seq 1.5 3", "seq -f %03g 3", "seq -s ' ' -w 98 101", "seq 100000 | tail -1", "seq -5 -1"} {
		t.Run(command, func(t *testing.T) {
			want, _ := exec.Command(bash, "-c", command).Output()
			if _, got, errs := run(t, t.TempDir(), command, ""); got != string(want) {
				t.Errorf("got %q (stderr %q), GNU %q", got, errs, want)
			}
		})
	}
}
