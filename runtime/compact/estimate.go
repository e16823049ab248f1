package compact

import (
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Overheads of the local estimate: the role and separator tokens a chat
// template adds around each message, and the framing of each tool
// definition and tool call.
const (
	messageOverhead = 4
	toolOverhead    = 8
	callOverhead    = 6
)

// Tokens estimates how many tokens a model's tokenizer makes of s, with no
// tokenizer at hand: a quarter of the ASCII bytes plus one token per
// non-ASCII character.
//
// How far off it can be: the quarter is the usual rule of thumb for BPE
// tokenizers on English prose and source code, which run at about 3 to 5
// characters a token, so typical text lands within about ±25 % (a rule of
// thumb, not a figure measured here: no tokenizer ships with ptc). The
// bounds are wider: text whose tokens are single bytes (random hex, base64,
// unusual punctuation runs) is underestimated up to 4×, long common words
// are overestimated up to about 2×; a non-ASCII character counts as one
// token, which overestimates accented Latin and is about right for CJK.
// The meter leans on this only for what changed since the provider last
// reported a count, so the error applies to that delta, not to the whole
// request.
func Tokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		other++
	}
	return (ascii+3)/4 + other
}

// MessageTokens is the estimate of one message as a request carries it.
func MessageTokens(m llm.Message) int {
	n := messageOverhead + Tokens(m.Content) + Tokens(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += callOverhead + Tokens(c.ID) + Tokens(c.Name) + Tokens(c.Arguments)
	}
	if m.ToolCallID != "" {
		n += Tokens(m.ToolCallID)
	}
	return n
}

// RequestTokens is the local estimate of a whole request: system text,
// tool definitions and messages.
func RequestTokens(req llm.Request) int {
	n := Tokens(req.System)
	for _, t := range req.Tools {
		n += toolOverhead + Tokens(t.Name) + Tokens(t.Description) + Tokens(string(t.Parameters))
	}
	for _, m := range req.Messages {
		n += MessageTokens(m)
	}
	return n
}

// Chars is the length of s in characters (code points), the unit of the
// pruning sizes.
func Chars(s string) int { return utf8.RuneCountInString(s) }
