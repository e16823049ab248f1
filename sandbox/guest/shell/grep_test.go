package shell

import (
	"path"
	"testing"
)

func TestGrepFastPathsKeepBehaviour(t *testing.T) {
	const tree = "mkdir -p d/e/f d/.git d/skip && echo foo > d/e/f/x.txt && echo foo > d/.git/y && echo foo > d/skip/z && echo foo > d/a.txt && "
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"a nested walk names files below the operand in lexical order", tree + "grep -rn foo d", "d/a.txt:1:foo\nd/e/f/x.txt:1:foo\nd/skip/z:1:foo\n", 0},
		{"an implicit walk names files without ./ and skips .git", tree + "cd d && grep -r foo", "a.txt:foo\ne/f/x.txt:foo\nskip/z:foo\n", 0},
		{"--exclude-dir prunes below the operand", tree + "grep -rl foo ./d --exclude-dir=skip", "./d/a.txt\n./d/e/f/x.txt\n", 0},
		{"--exclude-dir does not prune the operand itself", tree + "grep -rl foo d/skip --exclude-dir=skip", "d/skip/z\n", 0},
		{"a missing directory operand under -r exits 2", "grep -r foo nowhere/", "", 2},
		{"-o still prints each literal match", "echo foofoo | grep -o foo", "foo\nfoo\n", 0},
		{"-m stops after that many matching lines", "printf 'foo\\nfoo\\nfoo\\n' | grep -c -m 2 foo", "2\n", 0},
		{"-m with a leading zero reads octal as before", "seq 20 | grep -m 010 ''|wc -l", "8\n", 0},
		{"-C gives context both ways", "seq 5 | grep -C 1 3", "2\n3\n4\n", 0},
		{"an invalid UTF-8 -F pattern is rejected as before", "grep -F $'\\xff' a.txt", "", 2},
		{"a pattern with a BRE operator is not taken as a literal", "printf 'ab\\naab\\n' | grep -x 'a\\+b'", "ab\naab\n", 0},
		{"a literal with a star is a regexp in BRE", "printf 'ab\\nb\\n' | grep -c 'a*b'", "2\n", 0},
		{"-v with a literal prints the other lines", "printf 'foo\\nbar\\n' | grep -v foo", "bar\n", 0},
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

// nameMatcher's short cuts (a plain name, *suffix, prefix*) must answer
// as path.Match does for every name.
func TestNameMatcherAgreesWithPathMatch(t *testing.T) {
	pats := []string{"", "*", "*.go", "*.", "a*", "main.go", ".hidden", "*go*", "a?c", "[ab]*", `\*`, "*.{go,ts}", "README*", "x*y"}
	names := []string{"", "a", "abc", "main.go", "x.go", ".go", ".hidden", "go", "README", "README.md", "*", "a.", "xy", "x-y", "{go,ts}"}
	for _, pat := range pats {
		match := nameMatcher(pat)
		for _, name := range names {
			want, _ := path.Match(pat, name)
			if got := match(name); got != want {
				t.Errorf("nameMatcher(%q)(%q) = %v, path.Match says %v", pat, name, got, want)
			}
		}
	}
}
