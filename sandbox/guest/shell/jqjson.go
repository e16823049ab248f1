package shell

import (
	"bufio"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// keyOrders remembers the order in which the input's objects listed their
// keys. gojq keeps objects as Go maps, so that order is lost inside the
// filter; jq keeps it, and an agent that edits package.json with jq must
// not see every key reshuffled. The encoder asks for the order of a key
// set and gets the input's when some input object had exactly those keys,
// else the order they appear in the input object sharing most of them,
// with the keys no input object had appended in sorted order.
type keyOrders struct {
	exact map[string][]string // sorted keys joined by \x00 → input order
	all   [][]string
}

const maxKeyOrders = 4096

// add records the order of one object's keys; keys is the caller's and
// is copied when kept. The orders recorded last are compared first, as
// an array of records repeats the same few orders (sorting and joining
// every object's keys was a fifth of jq's time).
func (k *keyOrders) add(keys []string) {
	for i := len(k.all) - 1; i >= max(0, len(k.all)-4); i-- {
		if slices.Equal(k.all[i], keys) {
			return
		}
	}
	if len(k.all) >= maxKeyOrders {
		return
	}
	sig := keySignature(slices.Clone(keys))
	if _, ok := k.exact[sig]; ok {
		return
	}
	if k.exact == nil {
		k.exact = map[string][]string{}
	}
	keys = slices.Clone(keys)
	k.exact[sig] = keys
	k.all = append(k.all, keys)
}

func keySignature(sorted []string) string {
	slices.Sort(sorted)
	return strings.Join(sorted, "\x00")
}

// order returns the keys of m in output order.
func (k *keyOrders) order(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	if k == nil || len(k.all) == 0 {
		return keys
	}
	if o, ok := k.exact[strings.Join(keys, "\x00")]; ok {
		return o
	}
	var best []string
	bestN := 0
	for _, o := range k.all {
		n := 0
		for _, key := range o {
			if _, ok := m[key]; ok {
				n++
			}
		}
		if n > bestN {
			best, bestN = o, n
		}
	}
	out := make([]string, 0, len(keys))
	for _, key := range best {
		if _, ok := m[key]; ok {
			out = append(out, key)
		}
	}
	for _, key := range keys {
		if !slices.Contains(best, key) {
			out = append(out, key)
		}
	}
	return out
}

// jsonWriter prints values as jq 1.6 does.
type jsonWriter struct {
	w      *bufio.Writer
	indent string // "" for compact output
	sorted bool
	ascii  bool
	orders *keyOrders
}

func (e *jsonWriter) write(v any, level int) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			e.w.WriteString("[]")
			return
		}
		e.w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				e.w.WriteByte(',')
			}
			e.newline(level + 1)
			e.write(x, level+1)
		}
		e.newline(level)
		e.w.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			e.w.WriteString("{}")
			return
		}
		var keys []string
		if e.sorted {
			keys = (*keyOrders)(nil).order(v)
		} else {
			keys = e.orders.order(v)
		}
		e.w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.w.WriteByte(',')
			}
			e.newline(level + 1)
			e.scalar(k)
			e.w.WriteByte(':')
			if e.indent != "" {
				e.w.WriteByte(' ')
			}
			e.write(v[k], level+1)
		}
		e.newline(level)
		e.w.WriteByte('}')
	default:
		e.scalar(v)
	}
}

func (e *jsonWriter) newline(level int) {
	if e.indent == "" {
		return
	}
	e.w.WriteByte('\n')
	for range level {
		e.w.WriteString(e.indent)
	}
}

func (e *jsonWriter) scalar(v any) {
	switch v := v.(type) {
	case int:
		if v > -1e17 && v < 1e17 {
			e.w.WriteString(strconv.Itoa(v))
			return
		}
		e.w.WriteString(jqFloat(float64(v)))
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		e.w.WriteString(jqFloat(f))
	case float64:
		e.w.WriteString(jqFloat(v))
	case string:
		b, _ := gojq.Marshal(v)
		if e.ascii {
			b = []byte(asciiJSON(string(b)))
		}
		e.w.Write(b)
	default:
		b, _ := gojq.Marshal(v)
		e.w.Write(b)
	}
}

// jqFloat formats f as jq 1.6 does: the shortest digits that read back as
// f, in exponent form when the decimal point would sit more than 15
// places past them or 4 or more places before the first digit.
func jqFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "null"
	case f == 0 && math.Signbit(f):
		return "-0"
	case f == 0:
		return "0"
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	sign := ""
	if mant[0] == '-' {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	decpt := x + 1
	if decpt <= -4 || decpt > len(digits)+15 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if x < 0 {
			es, x = "-", -x
		}
		return sign + m + "e" + es + twoDigits(x)
	}
	return sign + strconv.FormatFloat(math.Abs(f), 'f', -1, 64)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// asciiJSON escapes every non-ASCII character of an encoded string as
// \uXXXX (with surrogate pairs), for jq -a.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			b.WriteString(`\u` + hex4(0xd800+(r>>10)) + `\u` + hex4(0xdc00+(r&0x3ff)))
		default:
			b.WriteString(`\u` + hex4(r))
		}
	}
	return b.String()
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

// addFilterOrders records the key order of every object the filter builds
// with constant keys ({city, name}, {"a": 1, b: 2}): jq prints a built
// object in the order it was written, which gojq's maps do not keep. They
// are recorded before the input's orders, so they win for the same keys.
func (k *keyOrders) addFilterOrders(q *gojq.Query) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if obj, ok := v.Addr().Interface().(*gojq.Object); ok {
				k.addObject(obj)
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(q))
}

func (k *keyOrders) addObject(obj *gojq.Object) {
	var keys []string
	for _, kv := range obj.KeyVals {
		switch {
		case kv.Key != "":
			keys = append(keys, strings.TrimPrefix(kv.Key, "$"))
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			keys = append(keys, kv.KeyString.Str)
		default:
			return // a computed key: the order is not known
		}
	}
	if len(keys) > 1 {
		k.add(keys)
	}
}
