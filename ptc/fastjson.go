package ptc

import (
	"strconv"

	"github.com/dop251/goja"
	"github.com/ptc-dev/ptc/internal/jsonscan"
)

// JSON.parse is the engine's: goja's reads tokens through encoding/json's
// Decoder, which allocates per token and made parsing 5 MB about ten times
// slower than Node. This parser builds the values directly and produces
// what goja's does (numbers as float64, own data properties in source
// order, a repeated key keeping its first position, lone surrogate
// escapes as U+FFFD). Anything it does not handle — a reviver, text that
// is not valid JSON (so the error is goja's), nesting deeper than
// maxJSONDepth — goes to goja's parse. Whitespace, numbers and string
// literals are scanned by internal/jsonscan, as the session log's reader
// scans them.

// maxJSONDepth bounds the parser's recursion; deeper text goes to goja.
const maxJSONDepth = 2000

// installJSONParse replaces JSON.parse in rt and returns the replacement
// (the engine parses tool values with it too).
func installJSONParse(rt *goja.Runtime) goja.Callable {
	j := rt.Get("JSON").ToObject(rt)
	native, _ := goja.AssertFunction(j.Get("parse"))
	parse := func(call goja.FunctionCall) goja.Value {
		text := call.Argument(0)
		if len(call.Arguments) < 2 || goja.IsUndefined(call.Argument(1)) {
			if _, isObj := text.(*goja.Object); !isObj {
				p := &jsonParser{rt: rt, s: text.String()}
				if v, ok := p.document(); ok {
					return v
				}
			}
		}
		v, err := native(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}
	fn := rt.ToValue(parse).ToObject(rt)
	must(fn.DefineDataProperty("name", rt.ToValue("parse"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(fn.DefineDataProperty("length", rt.ToValue(2), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(j.DefineDataProperty("parse", fn, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	f, _ := goja.AssertFunction(fn)
	return f
}

type jsonParser struct {
	rt    *goja.Runtime
	s     string
	i     int
	depth int
	keys  map[string]goja.Value // interned key and short string values
	buf   []byte
}

// document parses the whole text; false when it is not valid JSON or not
// handled here.
func (p *jsonParser) document() (goja.Value, bool) {
	p.space()
	v, ok := p.value()
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.s)
}

func (p *jsonParser) space() { p.i = jsonscan.Space(p.s, p.i) }

func (p *jsonParser) value() (goja.Value, bool) {
	if p.i >= len(p.s) {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return p.intern(s), true
	case c == 't':
		return p.literal("true", p.rt.ToValue(true))
	case c == 'f':
		return p.literal("false", p.rt.ToValue(false))
	case c == 'n':
		return p.literal("null", goja.Null())
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *jsonParser) literal(word string, v goja.Value) (goja.Value, bool) {
	if len(p.s)-p.i < len(word) || p.s[p.i:p.i+len(word)] != word {
		return nil, false
	}
	p.i += len(word)
	return v, true
}

func (p *jsonParser) object() (goja.Value, bool) {
	if p.depth++; p.depth > maxJSONDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // {
	obj := p.rt.NewObject()
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return obj, true
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		if obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) != nil {
			return nil, false
		}
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return obj, true
		default:
			return nil, false
		}
	}
}

func (p *jsonParser) array() (goja.Value, bool) {
	if p.depth++; p.depth > maxJSONDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // [
	var items []any
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return p.rt.NewArray(), true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		items = append(items, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case ']':
			p.i++
			return p.rt.NewArray(items...), true
		default:
			return nil, false
		}
	}
}

// intern returns the JS value of a string, sharing short ones: JSON
// repeats the same small values (names, kinds, states) many times.
func (p *jsonParser) intern(s string) goja.Value {
	if len(s) > 32 {
		return p.rt.ToValue(s)
	}
	if p.keys == nil {
		p.keys = map[string]goja.Value{}
	}
	if v, ok := p.keys[s]; ok {
		return v
	}
	v := p.rt.ToValue(s)
	if len(p.keys) < 1<<16 {
		p.keys[s] = v
	}
	return v
}

func (p *jsonParser) number() (goja.Value, bool) {
	end, ok := jsonscan.Number(p.s, p.i)
	if !ok {
		return nil, false
	}
	f, err := strconv.ParseFloat(p.s[p.i:end], 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, false
		}
	}
	p.i = end
	return p.rt.ToValue(f), true
}

// str reads a string literal at p.i (the opening quote).
func (p *jsonParser) str() (string, bool) {
	s, end, ok := jsonscan.String(p.s, p.i, &p.buf)
	p.i = end
	return s, ok
}
