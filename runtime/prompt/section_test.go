package prompt

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (run go test -update): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestRenderGolden(t *testing.T) {
	vars := map[string]string{"model": "deepseek-chat", "cwd": "/work/repo"}
	cases := []struct {
		golden   string
		sections []Section
	}{
		{"ordered.txt", []Section{
			{Name: "output", Order: OrderOutputRules, Text: "Answer briefly."},
			{Name: "identity", Order: OrderIdentity, Text: "You are ptc, running {{model}}."},
			{Name: "empty", Order: OrderPersona, Text: "  \n"},
			{Name: "cwd", Order: OrderToolGuidance, Text: "Work inside {{ cwd }}."},
			{Name: "sdk", Order: OrderSDK, Text: "declare const tools: {{not a var}};", Verbatim: true},
		}},
		{"complete.txt", []Section{
			{Name: "identity", Order: OrderIdentity, Text: "dropped"},
			{Name: "whole", Order: 7, Text: "The whole prompt for {{model}}.", Complete: true},
		}},
	}
	for _, c := range cases {
		t.Run("renders "+c.golden, func(t *testing.T) {
			got, err := Render(c.sections, vars)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.golden, got)
		})
	}
}

func TestRenderErrors(t *testing.T) {
	cases := []struct {
		name     string
		sections []Section
		want     string
	}{
		{"duplicate names are refused", []Section{{Name: "a"}, {Name: "a"}}, `"a" is defined twice`},
		{"two complete sections are refused", []Section{{Name: "a", Complete: true}, {Name: "b", Complete: true}}, "both marked complete"},
		{"an unknown variable is named", []Section{{Name: "a", Text: "hi {{user}}"}}, "unknown variable {{user}}"},
		{"an unclosed variable is reported", []Section{{Name: "a", Text: "hi {{model"}}, "unclosed"},
		{"a nameless section is refused", []Section{{Text: "x"}}, "no name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(c.sections, map[string]string{"model": "m"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestErrorsQuoteTextWithoutSplittingACharacter(t *testing.T) {
	_, err := Expand("{{ "+strings.Repeat("é", 15), nil)
	if err == nil || strings.Contains(err.Error(), `\x`) {
		t.Fatalf("err = %v, want the quoted text cut between characters", err)
	}
}

func TestRenderIsStable(t *testing.T) {
	secs := []Section{{Name: "b", Order: 1, Text: "B"}, {Name: "a", Order: 1, Text: "A"}, {Name: "c", Order: 0, Text: "C"}}
	got, err := Render(secs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != "C\n\nB\n\nA" {
		t.Fatalf("equal orders must keep their given order, got %q", got)
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "plain", "{{model}}", "{{ cwd }} and {{model}}", "{{", "}}{{", "{{}}", "{{{{model}}}}"} {
		f.Add(s)
	}
	vars := map[string]string{"model": "M", "cwd": "{{model}}"}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Expand(s, vars)
		if err != nil {
			return
		}
		if !strings.Contains(s, "{{") && out != s {
			t.Fatalf("text without variables changed: %q -> %q", s, out)
		}
	})
}
