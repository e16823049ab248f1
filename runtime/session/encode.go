package session

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// EncodeData turns an event's data into the JSON stored in the log. data
// is usually one of the structs of event.go; json.RawMessage and []byte
// are taken as already-encoded JSON and checked. Values that JSON cannot
// represent losslessly (NaN, ±Inf, channels, funcs) are refused: the log
// must replay exactly what happened.
func EncodeData(typ string, data any) (json.RawMessage, error) {
	var raw []byte
	switch d := data.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		b, err := json.Marshal(data)
		if err != nil {
			return nil, fmt.Errorf("event %s: its data cannot be stored as lossless JSON: %w", typ, err)
		}
		return b, nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("event %s: its data is not valid JSON", typ)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("event %s: its data is not valid JSON: %w", typ, err)
	}
	return buf.Bytes(), nil
}
