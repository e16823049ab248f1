package shell

import "testing"

func TestFastFileReadingKeepsBehaviour(t *testing.T) {
	tests := []struct {
		name, command, want string
		code                int
	}{
		{"grep anchors match each line of a multi-line file", "grep -n '^cherry$' a.txt", "3:cherry\n", 0},
		{"grep -c counts files with no match as 0", "grep -c zebra a.txt nums.txt", "a.txt:0\nnums.txt:0\n", 1},
		{"grep -L lists files with no match", "grep -L apple a.txt nums.txt", "nums.txt\n", 0},
		{"grep reuses its buffer without leaking a longer file into a shorter one", "grep -c '' new.txt a.txt old.txt", "new.txt:5\na.txt:4\nold.txt:4\n", 0},
		{"grep -v still sees lines of files the other patterns skip", "grep -v e old.txt", "two\nfour\n", 0},
		{"grep -i prefilters case-insensitively", "grep -il APPLE a.txt nums.txt", "a.txt\n", 0},
		{"a literal pattern still honours -x", "grep -x apple a.txt", "apple\n", 0},
		{"a literal pattern still honours -w and -i", "grep -wi APPLE a.txt", "apple\napple pie\n", 0},
		{"a literal with regexp metacharacters under -F", "printf 'a.b\\naxb\\n' | grep -F a.b", "a.b\n", 0},
		{"cat of a directory says so", "cat src 2>&1", "cat: src: Is a directory\n", 1},
		{"a file over the whole-read limit is streamed", "seq 300000 > big.txt; head -1 big.txt; tail -1 big.txt; wc -l big.txt", "1\n300000\n300000 big.txt\n", 0},
		{"buffered stdout stays in order with stderr", "head -1 a.txt missing.txt nums.txt 2>&1", "==> a.txt <==\napple\nhead: missing.txt: No such file or directory\n\n==> nums.txt <==\n10\n", 1},
		{"ls prints names without looking up each entry", "ls src; ls -F", "doc.md\nmain.go\nutil.go\na.txt\ncsv.txt\nnew.txt\nnums.txt\nold.txt\nsrc/\n", 0},
		{"find -path matches across slashes", "find . -path './src/*.go'", "./src/main.go\n./src/util.go\n", 0},
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
