package shell

import (
	"fmt"
	"strings"

	"github.com/itchyny/gojq"
)

// jqPrelude redefines, ahead of the user's filter, the builtins whose
// result depends on object key order, so that they follow the order jq
// keeps (as recorded in keyOrders) rather than gojq's sorted keys.
// keys_unsorted is jq's and missing from gojq.
const jqPrelude = `def keys_unsorted: _ptc_keys_unsorted;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: _ptc_from_entries;
def with_entries(f): to_entries | map(f) | from_entries;
`

// withPrelude prefixes the filter with jqPrelude unless it starts with
// module directives, which must come first.
func withPrelude(filter string) string {
	t := strings.TrimSpace(filter)
	if strings.HasPrefix(t, "import") || strings.HasPrefix(t, "include") || strings.HasPrefix(t, "module") {
		return filter
	}
	return jqPrelude + filter
}

// orderFunctions are the Go halves of jqPrelude.
func (k *keyOrders) orderFunctions() []gojq.CompilerOption {
	return []gojq.CompilerOption{
		gojq.WithFunction("_ptc_keys_unsorted", 0, 0, func(v any, _ []any) any {
			switch v := v.(type) {
			case map[string]any:
				keys := k.order(v)
				out := make([]any, len(keys))
				for i, key := range keys {
					out[i] = key
				}
				return out
			case []any:
				out := make([]any, len(v))
				for i := range v {
					out[i] = i
				}
				return out
			}
			return fmt.Errorf("%s (%s) has no keys", gojq.TypeOf(v), gojq.Preview(v))
		}),
		gojq.WithFunction("_ptc_from_entries", 0, 0, func(v any, _ []any) any {
			arr, ok := v.([]any)
			if !ok {
				return fmt.Errorf("cannot iterate over %s (%s)", gojq.TypeOf(v), gojq.Preview(v))
			}
			obj := map[string]any{}
			var keys []string
			for _, e := range arr {
				key, val, err := entryOf(e)
				if err != nil {
					return err
				}
				if _, dup := obj[key]; !dup {
					keys = append(keys, key)
				}
				obj[key] = val
			}
			if len(keys) > 1 {
				k.add(keys)
			}
			return obj
		}),
	}
}

// entryOf reads one from_entries item as jq 1.6 does: the key from key,
// k, name, Name, K or Key (the first that is neither null nor false; it
// must be a string), the value from value.
func entryOf(e any) (string, any, error) {
	m, ok := e.(map[string]any)
	if !ok {
		return "", nil, fmt.Errorf("cannot index %s with \"key\"", gojq.TypeOf(e))
	}
	var key any
	for _, name := range []string{"key", "k", "name", "Name", "K", "Key"} {
		if v, ok := m[name]; ok && v != nil && v != false {
			key = v
			break
		}
	}
	switch key := key.(type) {
	case string:
		return key, m["value"], nil
	case nil:
		return "", nil, fmt.Errorf("cannot use null (null) as object key")
	default:
		return "", nil, fmt.Errorf("object keys must be strings")
	}
}
