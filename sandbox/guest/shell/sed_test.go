package shell

import (
	"strings"
	"testing"
)

// TestSedMachine checks sed scripts beyond s and p against what GNU sed 4.9
// prints for them (expected outputs recorded from it).
func TestSedMachine(t *testing.T) {
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"a block runs several commands", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -n \"2{p;q}\" in.txt", "beta\n", 0},
		{"N and a label join all lines", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \":a;N;\\$!ba;s/\\n/ /g\" in.txt", "alpha beta gamma foo bar foo delta\n", 0},
		{"the hold space reverses lines", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"1!G;h;\\$!d\" in.txt", "delta\nfoo bar foo\ngamma\nbeta\nalpha\n", 0},
		{"P and D print each line once", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"\\$!N;P;D\" in.txt", "alpha\nbeta\ngamma\nfoo bar foo\ndelta\n", 0},
		{"= on the last line counts lines", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -n \"\\$=\" in.txt", "5\n", 0},
		{"y transliterates", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"y/abc/ABC/\" in.txt", "AlphA\nBetA\ngAmmA\nfoo BAr foo\ndeltA\n", 0},
		{"\\\\U upcases a group", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"s/\\(.\\)/\\U\\1/\" in.txt", "Alpha\nBeta\nGamma\nFoo bar foo\nDelta\n", 0},
		{"\\\\u upcases one letter", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -E \"s/(\\w+)/\\u\\1/g\" in.txt", "Alpha\nBeta\nGamma\nFoo Bar Foo\nDelta\n", 0},
		{"addr,+N spans N more lines", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"2,+1d\" in.txt", "alpha\nfoo bar foo\ndelta\n", 0},
		{"first~step picks every other line", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"0~2d\" in.txt", "alpha\ngamma\ndelta\n", 0},
		{"0,/re/ can end on the first line", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"0,/a/s//X/\" in.txt", "Xlpha\nbeta\ngamma\nfoo bar foo\ndelta\n", 0},
		{"n moves to the next line", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"/beta/{n;d}\" in.txt", "alpha\nbeta\nfoo bar foo\ndelta\n", 0},
		{"a appends after the line", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"/beta/a new line\" in.txt", "alpha\nbeta\nnew line\ngamma\nfoo bar foo\ndelta\n", 0},
		{"c replaces a whole range once", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"/alpha/,/gamma/c REPL\" in.txt", "REPL\nfoo bar foo\ndelta\n", 0},
		{"s with a number replaces that match", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"s/o/0/2\" in.txt", "alpha\nbeta\ngamma\nfo0 bar foo\ndelta\n", 0},
		{"t skips the rest after a substitution", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"s/a/b/;t;s/e/E/\" in.txt", "blpha\nbetb\ngbmma\nfoo bbr foo\ndeltb\n", 0},
		{"q takes an exit status", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"3q5\" in.txt; echo \"status $?\"", "alpha\nbeta\ngamma\nstatus 5\n", 0},
		{"Q quits without printing", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"3Q\" in.txt", "alpha\nbeta\n", 0},
		{"l shows non-printing characters", "printf \"a\\tb\\r\\n\" | sed -n l", "a\\tb\\r$\n", 0},
		{"p keeps the missing final newline last", "printf \"a\\nb\" | sed p", "a\na\nb\nb", 0},
		{"a nested address narrows a block", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -n \"/a/{/l/p}\" in.txt", "alpha\ndelta\n", 0},
		{"a negated block", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed \"2!{s/a/A/}\" in.txt", "Alpha\nbeta\ngAmma\nfoo bAr foo\ndeltA\n", 0},
		{"an empty regex reuses the last one", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -n \"/gam/{s//GAM/;p}\" in.txt", "GAMma\n", 0},
		{"w writes matching lines to a file", "printf 'alpha\\nbeta\\ngamma\\nfoo bar foo\\ndelta\\n' > in.txt && sed -n \"/a/w out.txt\" in.txt && cat out.txt", "alpha\nbeta\ngamma\nfoo bar foo\ndelta\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, t.TempDir(), tt.command, "")
			if code != tt.code || out != tt.want {
				t.Errorf("got %d %q (stderr %q), want %d %q", code, out, errs, tt.code, tt.want)
			}
		})
	}
}

// TestSedFastPathsMatchGNU runs the scripts that skip sed's cycle (one
// literal substitution over blocks, the input past the last line a script
// can address) and GNU sed over lines longer than a block, CRLF ends and
// a missing final newline, and compares.
func TestSedFastPathsMatchGNU(t *testing.T) {
	long := strings.Repeat("alpha INFO beta\r\n", 3) + strings.Repeat("xa", 50000) + "INFO\n" + strings.Repeat("INFO", 30000) + "\nINFO tail"
	bash, dir := gnuFixture(t, map[string]string{"long": long})
	for _, script := range []string{`s/INFO/info/g`, `s/INFO/info/`, `s/a/\r/g`, `s/beta\r/B/`, `-n 2,4p`, `3d`, `-n 5p`, `1,4s/a/b/`} {
		for _, command := range []string{"sed '" + script + "' long", "cat long | sed '" + script + "'", "sed '" + script + "' long long"} {
			if strings.HasPrefix(script, "-") {
				command = strings.Replace(command, "'"+script+"'", script, 1)
			}
			t.Run(command, func(t *testing.T) { compareWithBash(t, bash, dir, command) })
		}
	}
}
