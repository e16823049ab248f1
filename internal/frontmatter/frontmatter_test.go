package frontmatter

import (
	"strings"
	"testing"
)

type meta struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, text string
		want       meta
		body       string
		has        bool
		err        string
	}{
		{"a front matter and a body", "---\nname: a\ndescription: does b\n---\n# Body\ntext\n", meta{"a", "does b"}, "# Body\ntext\n", true, ""},
		{"no front matter is all body", "# Title\n---\nx\n", meta{}, "# Title\n---\nx\n", false, ""},
		{"CRLF lines and a byte-order mark are accepted", "\ufeff---\r\nname: a\r\n---\r\nbody", meta{Name: "a"}, "body", true, ""},
		{"an empty front matter is fine", "---\n---\nbody", meta{}, "body", true, ""},
		{"the fence may end the file", "---\nname: a\n---", meta{Name: "a"}, "", true, ""},
		{"an unclosed fence is an error", "---\nname: a\nbody\n", meta{}, "", true, "never closed"},
		{"bad YAML is an error", "---\nname: [a\n---\n", meta{}, "", true, "not valid YAML"},
		{"a list is not a mapping", "---\n- a\n- b\n---\n", meta{}, "", true, "must be a YAML mapping"},
		{"a mapping for a string field does not fit", "---\nname: {x: 1}\n---\n", meta{}, "", true, "does not fit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m meta
			body, has, err := Parse(c.text, &m)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m != c.want || body != c.body || has != c.has {
				t.Fatalf("got %+v %q %v, want %+v %q %v", m, body, has, c.want, c.body, c.has)
			}
		})
	}
}

func TestAnOversizedFrontMatterIsRefused(t *testing.T) {
	text := "---\nname: " + strings.Repeat("a", MaxFrontMatter) + "\n---\nbody"
	if _, _, err := Parse(text, &meta{}); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("---\nname: a\ndescription: b\n---\nbody")
	f.Add("---\n&a [*a]\n---\n")
	f.Add("---\nname: !!binary x\n---")
	f.Fuzz(func(t *testing.T, text string) {
		var m meta
		body, has, err := Parse(text, &m)
		if err == nil && !has && body != strings.TrimPrefix(text, "\ufeff") {
			t.Fatalf("text without front matter changed: %q → %q", text, body)
		}
	})
}
