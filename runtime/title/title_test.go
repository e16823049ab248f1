package title

import (
	"context"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/script"
)

func TestClean(t *testing.T) {
	cases := map[string]string{
		"Fix the parser": "Fix the parser",
		"  \n\"Title: **Décider la durée du cache**.\"\nmore": "Décider la durée du cache",
		"# `Speed up CI`":                       "Speed up CI",
		"«Migrer la base»":                      "Migrer la base",
		"Rename\x1b[31m the \u202epackage\tnow": "Rename [31m the package now",
		"   \n\n  ":                             "",
		"\"\"":                                  "",
		"bad \xff utf8":                         "bad utf8",
	}
	if got := Clean(strings.Repeat("word ", 40)); len(got) > 80 || !strings.HasSuffix(got, "…") || strings.Contains(got, " …") {
		t.Errorf("a long title: %q", got)
	}
	for in, want := range cases {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAskSendsTheTaggedInstructionAndCleansTheAnswer(t *testing.T) {
	p := script.New([]script.Reply{{Title: true, Text: "'Cache policy'"}})
	d, err := Ask(context.Background(), p, "m", "how long should the cache keep entries?")
	if err != nil || d.Title != "Cache policy" || d.Provider != "script" || d.Model != "m" || d.Usage.OutputTokens == 0 {
		t.Fatalf("%+v %v", d, err)
	}
	req := Request("m", "hello")
	if !llm.IsTitleRequest(req) || !strings.Contains(req.Messages[0].Content, "in the language the user wrote in") || !strings.HasSuffix(req.Messages[0].Content, "hello") || len(req.Tools) != 0 {
		t.Fatalf("%+v", req)
	}
	if _, err := Ask(context.Background(), script.New([]script.Reply{{Title: true, Text: "  \"  \" "}}), "m", "x"); err != ErrNoTitle {
		t.Fatalf("an empty title: %v", err)
	}
	// A script without a title reply fails the request without using a step reply.
	steps := script.New([]script.Reply{{Text: "a step"}})
	if _, err := Ask(context.Background(), steps, "m", "x"); err == nil || steps.Remaining() != 1 {
		t.Fatalf("%v, %d left", err, steps.Remaining())
	}
}
