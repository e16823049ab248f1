package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestTerminalAnswerer(t *testing.T) {
	approval := tools.Question{Kind: tools.KindApproval, Tool: "bash", Args: `{"command":"rm -rf build"}`, Text: "Allow bash?"}
	question := tools.Question{Kind: tools.KindQuestion, Text: "Which database?", Options: []string{"Postgres", "SQLite"}}
	cases := []struct {
		name, input string
		q           tools.Question
		want        string
		err         error
		shows       string
	}{
		{"a allows once", "a\n", approval, tools.AnswerAllowOnce, nil, `"command": "rm -rf build"`},
		{"s allows for the session", "s\n", approval, tools.AnswerAllowSession, nil, "ptc wants to run bash"},
		{"d denies", "d\n", approval, tools.AnswerDeny, nil, "[d] deny"},
		{"nonsense is asked again", "what\nA\n", approval, tools.AnswerAllowOnce, nil, "Please type a, s or d."},
		{"endless nonsense denies", "x\ny?\nz\n", approval, tools.AnswerDeny, nil, ""},
		{"end of input means nobody can answer", "", approval, "", tools.ErrNoAnswerer, ""},
		{"a number picks an option", "2\n", question, "SQLite", nil, "  1) Postgres"},
		{"free text is kept", "\nuse both\n", question, "use both", nil, "Which database?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			got, err := newLineAnswerer(strings.NewReader(c.input), &out).Ask(context.Background(), c.q)
			if got != c.want || !errors.Is(err, c.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, c.want, c.err)
			}
			if !strings.Contains(out.String(), c.shows) {
				t.Fatalf("output %q lacks %q", out.String(), c.shows)
			}
		})
	}
	t.Run("headless answers nothing", func(t *testing.T) {
		if _, err := (headlessAnswerer{}).Ask(context.Background(), approval); !errors.Is(err, tools.ErrNoAnswerer) {
			t.Fatal(err)
		}
	})
}
