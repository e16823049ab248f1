package skills

import (
	"fmt"
	"os"
	"path/filepath"
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

func skillText(name, desc, body string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s", name, desc, body)
}

func names(c *Catalog) []string {
	var out []string
	for _, s := range c.Skills() {
		out = append(out, s.Name+"@"+s.Source+":"+s.Root)
	}
	return out
}

func warned(c *Catalog, parts ...string) bool {
	for _, w := range c.Warnings() {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestDiscover(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(ws, ".ptc/skills/deploy-check/SKILL.md"), skillText("deploy-check", "Checks a deploy is ready.", "# Deploy check\nRun the checks.\n"))
	write(t, filepath.Join(ws, ".agents/skills/lint/SKILL.md"), skillText("lint", "|\n  Lints\n  the code.", "body"))
	write(t, filepath.Join(ws, ".claude/skills/review/SKILL.md"), skillText("review", "Reviews a diff.", "body"))
	write(t, filepath.Join(home, "skills/review/SKILL.md"), skillText("review", "The user's review.", "user body"))
	write(t, filepath.Join(ws, ".ptc/skills/broken/SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\n")
	write(t, filepath.Join(ws, ".ptc/skills/nofront/SKILL.md"), "# just markdown\n")
	write(t, filepath.Join(ws, ".ptc/skills/noname/SKILL.md"), "---\ndescription: x\n---\n")
	write(t, filepath.Join(ws, ".ptc/skills/bad-name/SKILL.md"), "---\nname: \"Bad \\u202eName\"\ndescription: x\n---\n")
	write(t, filepath.Join(ws, ".ptc/skills/nodesc/SKILL.md"), "---\nname: nodesc\n---\n")
	write(t, filepath.Join(ws, ".ptc/skills/other-dir/SKILL.md"), skillText("renamed", "Named apart from its directory.", ""))
	write(t, filepath.Join(ws, ".ptc/skills/empty/README.md"), "no SKILL.md here")
	c := Discover(ws, home)

	want := []string{"deploy-check@workspace:.ptc/skills", "lint@workspace:.agents/skills", "renamed@workspace:.ptc/skills", "review@user:skills"}
	if got := names(c); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("skills = %v, want %v", got, want)
	}
	t.Run("a block-scalar description becomes one line", func(t *testing.T) {
		s, _ := c.Lookup("lint")
		if s.Description != "Lints the code." {
			t.Fatalf("description %q", s.Description)
		}
	})
	t.Run("the user's skill wins over the workspace's of the same name", func(t *testing.T) {
		s, _ := c.Lookup("review")
		if s.Source != SourceUser || !warned(c, ".claude/skills/review/SKILL.md", "also defined", filepath.Join(home, "skills/review/SKILL.md")) {
			t.Fatalf("review = %+v, warnings %q", s, c.Warnings())
		}
	})
	for _, w := range []struct{ name, file, says string }{
		{"bad YAML is a warning naming the file", "broken/SKILL.md", "not valid YAML"},
		{"a SKILL.md without front matter is a warning", "nofront/SKILL.md", "no front matter"},
		{"a missing name is a warning", "noname/SKILL.md", "has no name"},
		{"an invalid name is a warning", "bad-name/SKILL.md", "is not a skill name"},
		{"a missing description is a warning", "nodesc/SKILL.md", "has no description"},
		{"a name unlike its directory is loaded with a warning", "other-dir/SKILL.md", "differs from its directory"},
	} {
		t.Run(w.name, func(t *testing.T) {
			if !warned(c, filepath.Join(ws, ".ptc/skills", w.file), w.says) {
				t.Fatalf("no warning about %s saying %q in %q", w.file, w.says, c.Warnings())
			}
		})
	}
	t.Run("a directory without SKILL.md is no skill and no warning", func(t *testing.T) {
		if warned(c, "empty") {
			t.Fatalf("warnings %q", c.Warnings())
		}
	})
}

func TestHostileSkillFiles(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret/SKILL.md"), skillText("secret", "Outside the workspace.", "key"))
	if err := os.MkdirAll(filepath.Join(ws, ".ptc/skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(ws, ".ptc/skills/secret")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".ptc/skills/fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, ".ptc/skills/fifo/SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws, ".ptc/skills/link-file/x"), "")
	if err := os.Symlink(filepath.Join(outside, "secret/SKILL.md"), filepath.Join(ws, ".ptc/skills/link-file/SKILL.md")); err != nil {
		t.Fatal(err)
	}
	c := Discover(ws, "")
	if c.Len() != 0 {
		t.Fatalf("skills from outside the workspace or a FIFO: %v", names(c))
	}
	if !warned(c, "fifo/SKILL.md", "not a regular file") {
		t.Fatalf("warnings %q", c.Warnings())
	}
	if !warned(c, "link-file/SKILL.md", "not read") {
		t.Fatalf("a symlink out of the workspace is not reported: %q", c.Warnings())
	}
}

func TestLoad(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, ".ptc/skills/deploy-check")
	write(t, filepath.Join(dir, "SKILL.md"), skillText("deploy-check", "Checks a deploy.", "\n# Deploy check\n\nRun scripts/check.sh.\n"))
	write(t, filepath.Join(dir, "scripts/check.sh"), "#!/bin/sh\necho ok\n")
	write(t, filepath.Join(dir, "reference.md"), "ref")
	write(t, filepath.Join(dir, ".git/config"), "skipped")
	c := Discover(ws, "")
	l, err := c.Load("deploy-check")
	if err != nil {
		t.Fatal(err)
	}
	if l.Body != "# Deploy check\n\nRun scripts/check.sh." {
		t.Fatalf("body %q", l.Body)
	}
	want := []File{{filepath.Join(dir, "reference.md"), 3}, {filepath.Join(dir, "scripts/check.sh"), 18}}
	if fmt.Sprint(l.Files) != fmt.Sprint(want) {
		t.Fatalf("files %v, want %v", l.Files, want)
	}
	t.Run("an unknown name is an error", func(t *testing.T) {
		if _, err := c.Load("nope"); err == nil || !strings.Contains(err.Error(), `no skill named "nope"`) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a skill renamed since discovery is an error saying so", func(t *testing.T) {
		write(t, filepath.Join(dir, "SKILL.md"), skillText("other", "x", ""))
		if _, err := c.Load("deploy-check"); err == nil || !strings.Contains(err.Error(), `now names the skill "other"`) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a body past the cap is cut with a note", func(t *testing.T) {
		write(t, filepath.Join(dir, "SKILL.md"), skillText("deploy-check", "x", strings.Repeat("a", MaxFile)))
		l, err := c.Load("deploy-check")
		if err != nil || !strings.Contains(l.Note, "cut") || len(l.Body) >= MaxFile {
			t.Fatalf("note %q, body %d bytes, err %v", l.Note, len(l.Body), err)
		}
	})
}

func TestSection(t *testing.T) {
	ws := t.TempDir()
	for i := range 50 {
		name := fmt.Sprintf("skill-%02d", i)
		write(t, filepath.Join(ws, ".ptc/skills", name, "SKILL.md"), skillText(name, strings.Repeat("d", 100), ""))
	}
	c := Discover(ws, "")
	t.Run("the catalog lists skills sorted, within the budget, and counts the rest", func(t *testing.T) {
		s := c.Section(2000)
		if len(s.Text) > 2000+100 || !strings.Contains(s.Text, "- skill-00: ") || !strings.Contains(s.Text, "more skill(s) not listed") {
			t.Fatalf("section (%d bytes):\n%s", len(s.Text), s.Text)
		}
		if strings.Index(s.Text, "skill-00") > strings.Index(s.Text, "skill-01") {
			t.Fatal("not sorted")
		}
	})
	t.Run("the same catalog renders the same bytes", func(t *testing.T) {
		if Discover(ws, "").Section(8000).Text != c.Section(8000).Text {
			t.Fatal("the section is not stable")
		}
	})
	t.Run("no skills, no section", func(t *testing.T) {
		if s := Discover(t.TempDir(), "").Section(8000); s.Text != "" {
			t.Fatalf("text %q", s.Text)
		}
	})
	t.Run("a description cannot drive a terminal or break the list", func(t *testing.T) {
		ws := t.TempDir()
		write(t, filepath.Join(ws, ".ptc/skills/x/SKILL.md"), "---\nname: x\ndescription: \"a\\x1b[2Jb\\u202ec\"\n---\n")
		s := Discover(ws, "").Section(8000)
		if strings.ContainsAny(s.Text, "\x1b\u202e") {
			t.Fatalf("raw controls in %q", s.Text)
		}
	})
}

func TestBudget(t *testing.T) {
	for _, c := range []struct{ window, want int }{{0, 8000}, {32768, 2621}, {131072, 10485}, {1 << 20, 40000}, {1000, 2000}} {
		if got := Budget(c.window); got != c.want {
			t.Errorf("Budget(%d) = %d, want %d", c.window, got, c.want)
		}
	}
}
