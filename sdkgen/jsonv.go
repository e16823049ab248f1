package sdkgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// kind is the JSON type of a parsed value.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// value is a parsed JSON value that keeps object member order, which
// encoding/json maps lose. Schema property order is what authors wrote and
// what readers expect, so the generator must preserve it.
type value struct {
	kind kind
	b    bool
	s    string // string contents, or the literal text of a number
	arr  []*value
	keys []string
	vals []*value
}

// get returns the member named key of an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != kObject {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// keysIfObject returns the member names of an object, or nil.
func (v *value) keysIfObject() []string {
	if v == nil || v.kind != kObject {
		return nil
	}
	return v.keys
}

// str returns the string a member holds, or "".
func (v *value) str(key string) string {
	if m := v.get(key); m != nil && m.kind == kString {
		return m.s
	}
	return ""
}

// isTrue reports whether a member is the boolean true.
func (v *value) isTrue(key string) bool {
	m := v.get(key)
	return m != nil && m.kind == kBool && m.b
}

// isFalse reports whether v is the boolean false.
func (v *value) isFalse() bool { return v != nil && v.kind == kBool && !v.b }

// parseValue decodes one JSON document without recursion: a schema nested
// thousands of levels deep must not exhaust the stack.
func parseValue(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		v   *value
		key string
		has bool // an object key is pending
	}
	var stack []*frame
	var root *value
	attach := func(v *value) {
		if len(stack) == 0 {
			root = v
			return
		}
		top := stack[len(stack)-1]
		if top.v.kind == kArray {
			top.v.arr = append(top.v.arr, v)
			return
		}
		top.v.keys = append(top.v.keys, top.key)
		top.v.vals = append(top.v.vals, v)
		top.has = false
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if n := len(stack); n > 0 && stack[n-1].v.kind == kObject && !stack[n-1].has {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].has = k, true
				continue
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				v := &value{kind: kObject}
				if t == '[' {
					v.kind = kArray
				}
				attach(v)
				stack = append(stack, &frame{v: v})
			default:
				stack = stack[:len(stack)-1]
			}
		case nil:
			attach(&value{kind: kNull})
		case bool:
			attach(&value{kind: kBool, b: t})
		case json.Number:
			attach(&value{kind: kNumber, s: t.String()})
		case string:
			attach(&value{kind: kString, s: t})
		}
		if len(stack) == 0 && root != nil {
			break
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, errors.New("unexpected end of JSON input")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return root, nil
}

// canonical returns compact JSON for v with object members in their
// original order. Two schemas with equal canonical text are identical.
func canonical(v *value) string {
	var b strings.Builder
	type item struct {
		v     *value
		close byte // non-zero: write this closing delimiter instead
		sep   bool // write a comma first
		key   *string
	}
	stack := []item{{v: v}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.sep {
			b.WriteByte(',')
		}
		if it.close != 0 {
			b.WriteByte(it.close)
			continue
		}
		if it.key != nil {
			b.WriteString(quoteJSON(*it.key))
			b.WriteByte(':')
		}
		switch it.v.kind {
		case kNull:
			b.WriteString("null")
		case kBool:
			b.WriteString(strconv.FormatBool(it.v.b))
		case kNumber:
			b.WriteString(it.v.s)
		case kString:
			b.WriteString(quoteJSON(it.v.s))
		case kArray:
			b.WriteByte('[')
			stack = append(stack, item{close: ']'})
			for i := len(it.v.arr) - 1; i >= 0; i-- {
				stack = append(stack, item{v: it.v.arr[i], sep: i > 0})
			}
		case kObject:
			b.WriteByte('{')
			stack = append(stack, item{close: '}'})
			for i := len(it.v.vals) - 1; i >= 0; i-- {
				stack = append(stack, item{v: it.v.vals[i], sep: i > 0, key: &it.v.keys[i]})
			}
		}
	}
	return b.String()
}

// quoteJSON quotes s as a JSON string that is also a valid TypeScript and
// JavaScript string literal (U+2028 and U+2029 are escaped), with no
// unsafe rune raw (safe.go).
func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
