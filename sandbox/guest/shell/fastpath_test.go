package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// TestFastPathsMatchGNU runs the commands whose builtins have a fast path
// (tr's byte table, grep on a stream and grep -o, sort -k keys, uniq -c,
// awk field printing, jq's reader) and bash with GNU tools over the same
// inputs, in the C locale, and compares the outputs byte for byte. The
// log is larger than one 64 KiB block, so block boundaries are crossed.
func TestFastPathsMatchGNU(t *testing.T) {
	var log strings.Builder
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta")
	for i := range 6000 {
		fmt.Fprintf(&log, "2026-11-%02d %s [w-%d]  %s /a/%d %d %dms user=%s\n", 1+i%28, []string{"INFO", "WARN", "ERROR"}[i%3],
			i%7, words[i%len(words)], i*7919%1000, []int{200, 404, 500}[i*31%3], i*13%2000, words[i*17%len(words)])
		if i%500 == 0 {
			log.WriteString("\tleading tab  and  double  blanks\x01\n\n")
		}
	}
	inputs := map[string]string{
		"log":   log.String(),
		"noeol": "b a\na b\nb a",
		"empty": "",
	}
	bash, dir := gnuFixture(t, inputs)
	commands := []string{
		`tr a-z A-Z < @`, `tr -s ' ' '\n' < @`, `tr -cs 'a-z' '\n' < @`, `tr -d 'aeiou\n' < @`, `tr -c 'a-z\n' XY < @`,
		`tr -s a-z < @`, `tr aa xy < @`, `tr -ds a b < @`,
	}
	for _, k := range []string{``, `-r`, `-t' ' -k7,7`, `-u -k5,5`, `-k3`, `-k2,2 -k1,1r`, `-t' ' -k8n`, `-t' ' -k8,8nr -s`, `-k1.6,1.7 -k4`,
		`-t/ -k3,3n`, `-b -k4,4`, `-k 9 -u`, `-t' ' -k 3,3 -k 6.4n`, `-f`, `-n`, `-rn`} {
		commands = append(commands, "sort "+k+" @", "cat @ | sort "+k)
	}
	for _, a := range []string{`'{print $2}'`, `'{ print $1, $3 }'`, `'{print $NF}'`, `'{print $0}'`, `'{print $12;}'`, `-F/ '{print $3}'`,
		`-F' ' '{print $2}'`, `-F: '{print $1,$2}'`} {
		commands = append(commands, "awk "+a+" @", "cat @ | awk "+a, "awk "+a+" < @")
	}
	for _, u := range []string{`uniq -c`, `uniq -d`, `uniq -u`, `uniq -i -c`, `uniq -f 1 -c`, `cut -d' ' -f3 | uniq -c`, `uniq -c -w 3`} {
		commands = append(commands, "cut -c1-5 @ | sort | "+u, "sort @ | "+u)
	}
	for _, k := range []string{`-d' ' -f3`, `-d' ' -f1,3`, `-d' ' -f2-`, `-d' ' -f2 --complement`, `-s -d/ -f2`, `-d' ' -f1,2 --output-delimiter=:`,
		`-f1`, `-c3-7`, `-d' ' -f9-12`} {
		commands = append(commands, "cut "+k+" @", "cat @ | cut "+k)
	}
	for _, e := range []string{`s/INFO/info/g`, `s/a/b/`, `s/a/b/2`, `s/a/[&]/g`, `s/a/\\n/g`, `s/user=/u:/;s/u:a/UA/`, `N;s/\n/ /`, `s/beta/x/gp`,
		`-n '1000,1010p'`, `-E s/a+/X/g`, `s/ms user/&s/`, `s/w-//2g`, `s/INFO/in\/fo/`, `-z s/a/X/`, `-z s/a/X/g`, `s/a/A/g;s/b/B/`,
		`1d`, `2,5d`, `3,+2s/a/b/`, `-n 5p`, `-n '2{p;p}'`, `-n 5,3p`, `1i head`, `-n '$p'`, `2,4!d`, `0~1000d`, `-n '2,4p;3q'`,
		`-n 6001,6020p`, `-n '/x/,3p'`, `2,/beta/d`, `1,2{/alpha/d}`, `-n '1000,1010{=;p}'`} {
		commands = append(commands, "sed '"+strings.Trim(e, "'")+"' @", "cat @ | sed '"+strings.Trim(e, "'")+"'", "sed '"+strings.Trim(e, "'")+"' @ @")
		if strings.HasPrefix(e, "-") {
			commands[len(commands)-3] = "sed " + e + " @"
			commands[len(commands)-2] = "cat @ | sed " + e
			commands[len(commands)-1] = "sed " + e + " @ @"
		}
	}
	for _, g := range []string{`-o 'user=[a-z]*'`, `-ob 'a[0-9]'`, `-n ERROR`, `-c WARN`, `-v INFO`, `-n -A 2 'w-6'`, `-B 1 leading`,
		`-C 2 -n 'a/99'`, `-m 3 -A 1 ERROR`, `-l beta`, `-q zeta; echo $?`, `-b 404`, `-o 'b'`, `-on '[0-9]*'`, `-c ''`, `-n '^$'`,
		`-nE 'ERROR|zeta|a/99'`, `-c 'WARN\|beta'`, `-F -e zeta -e 'a/1'`, `-E 'a|'`, `-cE 'x|y|(z)'`, `-oE 'ERROR|WARN'`, `-vcE 'INFO|WARN'`, `-F 'a|b'`,
		`-m 2 -n ERROR`, `-nb zeta`, `-c 'user=eta'`, `-H ms`} {
		commands = append(commands, "grep "+g+" @", "cat @ | grep "+g)
	}
	commands = append(commands, `printf 'a\0b\nERROR x\n' | grep ERROR`, `printf 'a\0b\nERROR x\n' | grep -c ERROR`, `printf 'x\nERROR' | grep -n ERROR`)
	for _, command := range commands {
		for name := range inputs {
			script := strings.ReplaceAll(command, "@", name)
			t.Run(script, func(t *testing.T) { compareWithBash(t, bash, dir, script) })
		}
	}
}

// gnuFixture returns bash (the test is unavailable without it and the GNU
// tools) and a directory holding inputs, named by their keys, for the
// tests that compare builtins with GNU.
func gnuFixture(t *testing.T, inputs map[string]string) (bash, dir string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		sharedtest.Unavailable(t, "bash and GNU tools: %v", err)
	}
	dir = t.TempDir()
	for name, data := range inputs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bash, dir
}

// compareWithBash runs script in the builtin shell and in bash, in dir, and
// fails when their outputs (stdout and stderr together) differ.
func compareWithBash(t *testing.T, bash, dir, script string) {
	gnu := exec.Command(bash, "-c", script)
	gnu.Dir = dir
	gnu.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	want, _ := gnu.CombinedOutput()
	_, got, errs := run(t, dir, script, "")
	if got+errs != string(want) {
		t.Errorf("got %.300q (stderr %q), GNU %.300q", got, errs, want)
	}
}

// TestJSONReaderMatchesJQ runs jq filters over JSON that exercises the
// reader (escapes, surrogate pairs, big and exponent numbers, nesting,
// key order, duplicate keys, several texts, a string across the 64 KiB
// buffer) in the builtin and in the host's jq 1.6, and compares.
func TestJSONReaderMatchesJQ(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		sharedtest.Unavailable(t, "bash: %v", err)
	}
	if out, err := exec.Command("jq", "--version").Output(); err != nil || !strings.HasPrefix(string(out), "jq-1.6") {
		sharedtest.Unavailable(t, "jq 1.6 on the host: %v", err)
	}
	dir := t.TempDir()
	doc := `{"z": 1, "a": [true, false, null, 0, 0.5, 1e3, 2E-2, 12345678901234567890123, -7],
	  "s": "tab\t nl\n quote\" slash\/ back\\ \u00e9 \ud83d\ude00 é", "e": {}, "l": [], "n": {"b": {"c": [[1], {"d": "x"}]}},
	  "dup": 1, "dup": 2, "long": "` + strings.Repeat("y", 70000) + `"}
	[1, 2, 3] "text" 42 null
	{"id": 1, "name": "a", "tags": ["x", "y"]}`
	if err := os.WriteFile(filepath.Join(dir, "in.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, filter := range []string{`.`, `-c .`, `-r '.s?'`, `-c '.a?'`, `-c 'keys?'`, `'length'`, `-c '.n?'`, `'.dup?'`, `-c '[.[]?] | length'`, `-S -c .`} {
		script := "jq " + filter + " in.json | sha256sum"
		t.Run(script, func(t *testing.T) { compareWithBash(t, bash, dir, script) })
	}
	for _, bad := range []string{`{"a":`, `[1,]`, `{"a" 1}`, `tru`, `"abc`, `[1 2]`, `{"a":1,}`, `"\x"`, `-`} {
		script := "printf '%s' '" + bad + "' | jq . >/dev/null 2>&1 || echo failed"
		t.Run(script, func(t *testing.T) { compareWithBash(t, bash, dir, script) })
	}
}
