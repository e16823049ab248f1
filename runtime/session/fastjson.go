package session

import (
	"strings"

	"github.com/ptc-dev/ptc/internal/jsonscan"
	"github.com/ptc-dev/ptc/runtime/llm"
)

// A small strict JSON reader for the three surface shapes, used by
// DeriveMessages to avoid encoding/json's reflection and double scan on
// million-event sessions. It reads exactly what encoding/json would and
// gives up (ok == false) on anything it is not sure about — null, a
// case-insensitive key match, invalid UTF-8, any syntax error — so the
// caller falls back to encoding/json, which then decides. Tokens are
// scanned by internal/jsonscan, which the engine's JSON.parse shares.
// FuzzFastSurface checks the two agree.
type jreader struct {
	b   []byte
	i   int
	buf []byte // scratch for string literals with escapes
}

func (r *jreader) ws() { r.i = jsonscan.Space(r.b, r.i) }

// peek skips whitespace and returns the next byte (0 at the end).
func (r *jreader) peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *jreader) eat(c byte) bool {
	if r.peek() == c {
		r.i++
		return true
	}
	return false
}

// str reads a string value.
func (r *jreader) str() (string, bool) {
	if r.peek() != '"' {
		return "", false
	}
	v, end, ok := jsonscan.String(r.b, r.i, &r.buf)
	r.i = end
	return v, ok
}

// skip reads and discards any value, checking its syntax.
func (r *jreader) skip(depth int) bool {
	if depth > 100 {
		return false
	}
	switch c := r.peek(); {
	case c == '"':
		_, ok := r.str()
		return ok
	case c == '{':
		return r.object(func(string) bool { return r.skip(depth + 1) })
	case c == '[':
		return r.array(func() bool { return r.skip(depth + 1) })
	case c == 't':
		return r.lit("true")
	case c == 'f':
		return r.lit("false")
	case c == 'n':
		return r.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	}
	return false
}

func (r *jreader) lit(s string) bool {
	if strings.HasPrefix(string(r.b[r.i:min(r.i+len(s), len(r.b))]), s) {
		r.i += len(s)
		return true
	}
	return false
}

func (r *jreader) number() bool {
	end, ok := jsonscan.Number(r.b, r.i)
	r.i = end
	return ok
}

// object reads an object, calling field for each key with the reader
// positioned at its value; field must consume the value.
func (r *jreader) object(field func(key string) bool) bool {
	if !r.eat('{') {
		return false
	}
	if r.eat('}') {
		return true
	}
	for {
		k, ok := r.str()
		if !ok || !r.eat(':') || !field(k) {
			return false
		}
		if r.eat('}') {
			return true
		}
		if !r.eat(',') {
			return false
		}
	}
}

// array reads an array, calling elem for each element.
func (r *jreader) array(elem func() bool) bool {
	if !r.eat('[') {
		return false
	}
	if r.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if r.eat(']') {
			return true
		}
		if !r.eat(',') {
			return false
		}
	}
}

// end checks that only whitespace follows the top-level value.
func (r *jreader) end() bool {
	r.ws()
	return r.i == len(r.b)
}

// fields dispatches the keys of one object: exact matches go to their
// reader; a repeated key, or one that matches only case-insensitively
// (both of which encoding/json handles its own way), makes the whole read
// give up; other keys are skipped.
func (r *jreader) fields(names []string, read func(i int) bool) bool {
	var seen uint
	return r.object(func(k string) bool {
		for i, n := range names {
			if k == n {
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
				return read(i)
			}
		}
		for _, n := range names {
			if strings.EqualFold(k, n) {
				return false
			}
		}
		return r.skip(1)
	})
}

func (r *jreader) strInto(dst *string) bool {
	s, ok := r.str()
	*dst = s
	return ok
}

var (
	blockKeys = []string{"type", "text"}
	// userKeys: a user/message with "replaces" is a summary; the fast
	// reader leaves those (rare) to encoding/json.
	userKeys    = []string{"content", "replaces"}
	messageKeys = []string{"message"}
	// asstKeys are all fields of llm.Message: encoding/json type-checks
	// them all, so the fast reader reads the ones it discards too.
	asstKeys   = []string{"content", "reasoning", "toolCalls", "role", "toolCallId", "name"}
	callKeys   = []string{"id", "name", "arguments"}
	resultKeys = []string{"callId", "name", "content"}
)

func (r *jreader) blocks(dst *[]Block) bool {
	var out []Block
	ok := r.array(func() bool {
		var b Block
		out = append(out, b)
		p := &out[len(out)-1]
		return r.fields(blockKeys, func(i int) bool {
			if i == 0 {
				return r.strInto(&p.Type)
			}
			return r.strInto(&p.Text)
		})
	})
	if out == nil {
		out = []Block{}
	}
	*dst = out
	return ok
}

// fastUser reads the content of a user/message.
func fastUser(data []byte) (blocks []Block, ok bool) {
	r := &jreader{b: data}
	ok = r.fields(userKeys, func(i int) bool { return i == 0 && r.blocks(&blocks) })
	return blocks, ok && r.end()
}

// fastResult reads what the projection needs of a tool/result.
func fastResult(data []byte) (callID, name string, blocks []Block, ok bool) {
	r := &jreader{b: data}
	ok = r.fields(resultKeys, func(i int) bool {
		switch i {
		case 0:
			return r.strInto(&callID)
		case 1:
			return r.strInto(&name)
		}
		return r.blocks(&blocks)
	})
	return callID, name, blocks, ok && r.end()
}

// fastAssistant reads content, reasoning and tool calls of an
// assistant/message.
func fastAssistant(data []byte) (content, reasoning string, calls []llm.ToolCall, ok bool) {
	r := &jreader{b: data}
	ok = r.fields(messageKeys, func(int) bool {
		return r.fields(asstKeys, func(i int) bool {
			switch i {
			case 0:
				return r.strInto(&content)
			case 1:
				return r.strInto(&reasoning)
			case 3, 4, 5:
				var discard string
				return r.strInto(&discard)
			}
			calls = []llm.ToolCall{}
			return r.array(func() bool {
				calls = append(calls, llm.ToolCall{})
				c := &calls[len(calls)-1]
				return r.fields(callKeys, func(i int) bool {
					switch i {
					case 0:
						return r.strInto(&c.ID)
					case 1:
						return r.strInto(&c.Name)
					}
					return r.strInto(&c.Arguments)
				})
			})
		})
	})
	return content, reasoning, calls, ok && r.end()
}
