package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func TestMarkdownRendersEachBlockForTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		width     int
		want      string
	}{
		{"a heading shows its text without the hashes", "# Title\n\n## Sub\n\n###### Deep", 40,
			"Title\n\nSub\n\nDeep"},
		{"a setext heading shows its text without the underline", "Title\n=====", 40, "Title"},
		{"a width under 20 counts as 20", "one two three four five", 5, "one two three four\nfive"},
		{"a paragraph is word-wrapped to the width", "one two three four five six seven eight nine ten eleven", 20,
			"one two three four\nfive six seven eight\nnine ten eleven"},
		{"a word longer than the width is broken at the edge", "abcdefghijklmnopqrstuvwxyz0123", 20,
			"abcdefghijklmnopqrst\nuvwxyz0123"},
		{"soft line breaks join and hard ones break", "one\ntwo  \nthree\\\nfour", 40, "one two\nthree\nfour"},
		{"emphasis, strong, strikethrough and code spans lose their markers", "*a* **b** ~~c~~ `d` _e_ __f__", 40,
			"a b c d e f"},
		{"escapes and character references are resolved", `\*not em\* &amp; &lt;x&gt; &#65;`, 40, "*not em* & <x> A"},
		{"a code span keeps its backslashes", "`a\\*b`", 40, `a\*b`},
		{"a link shows its text then its address", "see [the docs](https://example.com/d) now", 60,
			"see the docs (https://example.com/d) now"},
		{"a link whose text is its address shows it once", "<https://example.com> and [https://x.y](https://x.y)", 60,
			"https://example.com and https://x.y"},
		{"an image shows its alt text and address", "![a cat](cat.png)", 40, "a cat (cat.png)"},
		{"a fenced code block is shown verbatim and indented", "```go\nif x {\n\treturn  1\n}\n```", 40,
			"  if x {\n      return  1\n  }"},
		{"an indented code block is shown verbatim and indented", "    a  b\n    c", 40, "  a  b\n  c"},
		{"a code line longer than the width goes on under itself", "```\n" + strings.Repeat("x", 25) + "\n```", 20,
			"  " + strings.Repeat("x", 18) + "\n  xxxxxxx"},
		{"a bullet list has a bullet per item", "- one\n- two\n* three", 40, "• one\n• two\n\n• three"},
		{"a nested list is indented under its item with its own bullet", "- one\n  - inner\n    - deeper\n- two", 40,
			"• one\n  ◦ inner\n    ▪ deeper\n• two"},
		{"a long item wraps with a hanging indent", "- one two three four five six seven eight", 20,
			"• one two three four\n  five six seven\n  eight"},
		{"a numbered list keeps its numbers and lines up its text", "8. eight\n9. nine\n10. ten\n    more", 40,
			"8.  eight\n9.  nine\n10. ten more"},
		{"a loose list keeps a blank line between items", "- one\n\n- two", 40, "• one\n\n• two"},
		{"a task list shows its boxes", "- [x] done\n- [ ] to do", 40, "• [x] done\n• [ ] to do"},
		{"a block quote has a bar before each line", "> one two three four five\n>\n> six", 20,
			"│ one two three four\n│ five\n│\n│ six"},
		{"a thematic break is a rule across the width", "a\n\n---\n\nb", 20, "a\n\n" + strings.Repeat("─", 20) + "\n\nb"},
		{"a table is laid out in aligned columns", "| a | bb | c |\n|:--|---:|:-:|\n| xxx | 1 | y |\n| z | 22 | `www` |", 40,
			"a   │ bb │  c\n────┼────┼────\nxxx │  1 │  y\nz   │ 22 │ www"},
		{"a table too wide for the width wraps its widest column", "| k | v |\n|---|---|\n| a | one two three four five six |", 20,
			"k │ v\n──┼" + strings.Repeat("─", 17) + "\na │ one two three\n  │ four five six"},
		{"raw HTML is shown as the text it is", "<div>\nhi\n</div>\n\na <b>b</b>", 40, "<div>\nhi\n</div>\n\na <b>b</b>"},
		{"blocks are separated by one blank line", "# H\npara\n\n- item\n\n```\ncode\n```", 40,
			"H\n\npara\n\n• item\n\n  code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := newMarkdown(termenv.Ascii).render(tc.src, tc.width)
			if got != tc.want {
				t.Errorf("render(%q, %d):\n%s\n--- want ---\n%s", tc.src, tc.width, got, tc.want)
			}
		})
	}
}

var controls = regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]")

func TestMarkdownNeverPassesControlCharactersThrough(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"in a paragraph", "a\x1b[31mred\x07 \u009b2J"},
		{"from a numeric character reference", "a &#27;[31m &#x9b; b"},
		{"in a code span", "`a\x1b]0;title\x07`"},
		{"in a code block", "```\n\x1b[2Jx\r\n```"},
		{"in a table cell", "| a |\n|---|\n| \x1b[1mb |"},
		{"in a link address", "[x](http://a\x1b[31m)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI256} {
				got := ansi.Strip(newMarkdown(p).render(tc.src, 40))
				if controls.MatchString(got) {
					t.Errorf("profile %v: %q keeps a control character", p, got)
				}
			}
		})
	}
}

func TestMarkdownStylesFollowTheColourProfile(t *testing.T) {
	const src = "# Title\n\n**bold** *it* `code` [link](https://x.y)\n\n```\nblock\n```\n\n> q\n\n| a |\n|---|\n| b |"
	t.Run("the ascii profile writes no escape sequences", func(t *testing.T) {
		if got := newMarkdown(termenv.Ascii).render(src, 40); strings.Contains(got, "\x1b") {
			t.Errorf("escape sequences in %q", got)
		}
	})
	t.Run("a colour profile styles headings, emphasis, code and links", func(t *testing.T) {
		got := newMarkdown(termenv.ANSI256).render(src, 40)
		for _, want := range []string{
			"\x1b[1;4;38;5;39mTitle", "\x1b[1mbold", "\x1b[3mit", "\x1b[38;5;215mcode",
			"\x1b[38;5;75;4mlink", "\x1b[38;5;250mblock", "\x1b[2m│",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%q lacks %q", got, want)
			}
		}
	})
	t.Run("no style runs on from one line to the next", func(t *testing.T) {
		got := newMarkdown(termenv.ANSI256).render("**"+strings.Repeat("word ", 20)+"**", 20)
		for _, l := range strings.Split(got, "\n") {
			if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, "\x1b[0m") {
				t.Errorf("line %q does not end its style", l)
			}
		}
	})
}

func TestMarkdownLinesFitTheWidth(t *testing.T) {
	src := "# A heading long enough to wrap around\n\n" + answerMarkdown +
		"\n> a quote with words that go on well past the edge of the narrow view\n\n" +
		"1. an item with words that go on well past the edge\n   - and a nested one that does too, again and again\n\n" +
		"| column one | column two | column three |\n|---|---|---|\n| a long cell of words | b | c c c c c c c c |\n"
	for _, width := range []int{20, 33, 50} {
		for _, l := range strings.Split(newMarkdown(termenv.ANSI256).render(src, width), "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("width %d: line %q is %d wide", width, ansi.Strip(l), w)
			}
		}
	}
}
