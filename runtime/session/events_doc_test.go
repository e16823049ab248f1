package session

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// EVENTS.md is the public list of the log's format; this keeps it whole.
func TestEventsDocNamesEveryTypeAndHeaderField(t *testing.T) {
	b, err := os.ReadFile("EVENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for typ := range knownTypes {
		if !strings.Contains(doc, "`"+typ+"`") {
			t.Errorf("EVENTS.md does not list the event type %s", typ)
		}
	}
	for _, name := range jsonNames(reflect.TypeOf(Header{})) {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("EVENTS.md does not list the header field %s", name)
		}
	}
}

// jsonNames are the JSON field names of a struct, embedded structs
// flattened as encoding/json does.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" {
			names = append(names, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
