// Package title names a session after its first turn: one side request
// to the session's model with an instruction of ptc's own, whose answer,
// cleaned to one plain line, becomes the session/title event. A failed
// or empty answer names nothing: the listing keeps the first line of the
// first prompt.
package title

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"unicode"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Instruction is what the model is asked, after llm.TitleRequestTag and
// before the user's first prompt.
const Instruction = `Give this conversation a short title: three to eight words that say what the user wants done, written in the language the user wrote in. Answer with the title alone, on one line, as plain text: no quotes, no markdown, no full stop at the end, nothing before or after it.

The user's first message:
`

// Bounds: the prompt sent (the start of a long paste is enough to name
// it), the answer's tokens, and the title kept: with the ellipsis of a
// cut, within the 80 bytes a listing keeps.
const (
	promptMax = 4 << 10
	maxTokens = 64
	titleMax  = 77
)

// Request is the title side request for prompt, to model.
func Request(model, prompt string) llm.Request {
	return llm.Request{
		Model: model,
		Messages: []llm.Message{{Role: llm.RoleUser,
			Content: llm.TitleRequestTag + "\n" + Instruction + clip.String(strings.TrimSpace(prompt), promptMax)}},
		Options: llm.Options{MaxTokens: maxTokens},
	}
}

// ErrNoTitle is an answer with nothing usable as a title in it.
var ErrNoTitle = errors.New("the model's answer held no title")

// Ask sends the title request for prompt and returns the session/title
// data: the cleaned answer, the provider, model and usage.
func Ask(ctx context.Context, p llm.Provider, model, prompt string) (session.Title, error) {
	resp, err := p.Stream(ctx, Request(model, prompt), func(llm.Chunk) {})
	if err != nil {
		return session.Title{}, err
	}
	t := Clean(resp.Message.Content)
	if t == "" {
		return session.Title{}, ErrNoTitle
	}
	return session.Title{Title: t, Provider: p.Name(), Model: model, Usage: resp.Usage}, nil
}

// Clean makes a model's answer a title: its first non-blank line, without
// a "Title:" label, markdown marks or wrapping quotes, with every control
// or invisible formatting character (bidi overrides among them) dropped
// and spaces collapsed, cut to titleMax bytes. "" when nothing is left.
func Clean(answer string) string {
	line := ""
	for _, l := range strings.Split(strings.ToValidUTF8(answer, ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	line = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
			return ' '
		}
		return r
	}, line)
	// Marks may nest ("**Title: \"Fix it\".**"): peel until nothing changes.
	for prev := ""; prev != line; {
		prev = line
		line = strings.TrimLeft(line, "#>-")
		line = strings.Trim(line, " *_`\"'“”‘’«»„")
		line, _ = cutLabel(line)
		line = strings.TrimSuffix(line, ".")
	}
	line = strings.Join(strings.Fields(line), " ")
	if c := clip.String(line, titleMax); c != line {
		return strings.TrimRight(strings.TrimSuffix(c, clip.Ellipsis), " ") + clip.Ellipsis
	}
	return line
}

// cutLabel drops a leading "Title:" the model may add.
func cutLabel(s string) (string, bool) {
	if len(s) > 6 && strings.EqualFold(s[:6], "title:") {
		return strings.TrimSpace(s[6:]), true
	}
	return s, false
}

// FirstPrompt is the text of the first user prompt of events, "" when
// there is none.
func FirstPrompt(events []session.Event) string {
	for _, e := range events {
		if e.Type != session.TypeUserMessage {
			continue
		}
		var d session.UserMessage
		if json.Unmarshal(e.Data, &d) == nil && d.Source.Kind == "user" && d.Replaces == nil {
			var b strings.Builder
			for _, bl := range d.Content {
				b.WriteString(bl.Text)
			}
			return b.String()
		}
	}
	return ""
}

// Titled reports whether events already hold a session/title.
func Titled(events []session.Event) bool {
	for _, e := range events {
		if e.Type == session.TypeTitle {
			return true
		}
	}
	return false
}
