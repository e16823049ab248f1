package slash

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExpand(t *testing.T) {
	cases := []struct{ name, body, input, want string }{
		{"$ARGUMENTS takes everything after the name", "Say hello to $ARGUMENTS", "/hello world", "Say hello to world"},
		{"$1 and $2 take words, quotes group them", "Fix $1 in $2 ($ARGUMENTS)", `/hello "issue 12" 'main branch'`, `Fix issue 12 in main branch ("issue 12" 'main branch')`},
		{"a missing word is empty", "a=$1 b=$2.", "/hello x", "a=x b=."},
		{"arguments no placeholder takes are added after the text", "Review the diff.", "/hello carefully", "Review the diff.\n\nArguments: carefully"},
		{"no arguments, no placeholders", "Review.", "/hello", "Review."},
		{"the name may end at a newline", "Do $ARGUMENTS", "/hello\nsecond line", "Do second line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Set{Commands: []Command{{Name: "hello", Body: c.body}}}
			got, _, ok := s.Expand(c.input)
			if !ok || got != c.want {
				t.Fatalf("Expand(%q) = %q, %v; want %q", c.input, got, ok, c.want)
			}
		})
	}
	for _, input := range []string{"hello", "//hello x", "/usr/bin/env", "/other x", "/", "/hello.md"} {
		t.Run("no expansion of "+input, func(t *testing.T) {
			s := Set{Commands: []Command{{Name: "hello", Body: "x"}}}
			if _, _, ok := s.Expand(input); ok {
				t.Fatalf("%q expanded", input)
			}
		})
	}
}

func TestWords(t *testing.T) {
	if got := Words(` a  "b c" 'd"e' f"g h"`); !reflect.DeepEqual(got, []string{"a", "b c", `d"e`, "fg h"}) {
		t.Fatalf("%q", got)
	}
}

func TestLoad(t *testing.T) {
	ws, home, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(ws, ".ptc/commands/hello.md"), "Say hello to $ARGUMENTS\n")
	write(t, filepath.Join(ws, ".ptc/commands/review.md"), "---\ndescription: Review the change\nargument-hint: '[file]'\n---\nReview $1.\n")
	write(t, filepath.Join(home, "commands/review.md"), "---\ndescription: My review\n---\nReview mine.\n")
	write(t, filepath.Join(ws, ".ptc/commands/bad.md"), "---\ndescription: [x\n---\n")
	write(t, filepath.Join(ws, ".ptc/commands/Bad Name.md"), "x")
	write(t, filepath.Join(ws, ".ptc/commands/notes.txt"), "not a command")
	write(t, filepath.Join(outside, "secret.md"), "secret")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(ws, ".ptc/commands/leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, ".ptc/commands/fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Load(ws, home)
	var got []string
	for _, c := range s.Commands {
		got = append(got, c.Name+"@"+c.Source+":"+c.Description)
	}
	if want := []string{"hello@workspace:", "review@user:My review"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("commands %q, want %q", got, want)
	}
	for _, w := range []struct{ file, says string }{
		{"bad.md", "not valid YAML"}, {"Bad Name.md", "not a command name"}, {"review.md", "also defined"},
		{"leak.md", "not read"}, {"fifo.md", "not a regular file"},
	} {
		t.Run("a warning names "+w.file, func(t *testing.T) {
			found := false
			for _, m := range s.Warnings {
				found = found || strings.Contains(m, filepath.Join(ws, ".ptc/commands", w.file)) && strings.Contains(m, w.says)
			}
			if !found {
				t.Fatalf("warnings %q", s.Warnings)
			}
		})
	}
}

func FuzzExpand(f *testing.F) {
	f.Add("Say $ARGUMENTS to $1 and $9", "/x a 'b c' \"d")
	f.Fuzz(func(t *testing.T, body, input string) {
		s := Set{Commands: []Command{{Name: "x", Body: body}}}
		s.Expand(input)
		Words(input)
	})
}
