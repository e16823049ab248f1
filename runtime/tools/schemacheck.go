package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// SchemaMatchesStruct reports whether the top-level properties of a JSON
// Schema object and the JSON fields of the struct T are the same set, and
// whether every required property exists. Tool authors call it from a test
// so that the hand-written schema (the single source of truth) and the Go
// type that New decodes into cannot drift apart.
func SchemaMatchesStruct[T any](schema json.RawMessage) error {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		return fmt.Errorf("schema is not a JSON object: %v", err)
	}
	typ := reflect.TypeFor[T]()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return fmt.Errorf("%s is not a struct", typ)
	}
	fields := map[string]bool{}
	collectJSONFields(typ, fields)

	var problems []string
	for name := range doc.Properties {
		if !fields[name] {
			problems = append(problems, fmt.Sprintf("schema property %q has no field in %s", name, typ))
		}
	}
	for name := range fields {
		if _, ok := doc.Properties[name]; !ok {
			problems = append(problems, fmt.Sprintf("field %q of %s is not in the schema", name, typ))
		}
	}
	for _, name := range doc.Required {
		if _, ok := doc.Properties[name]; !ok {
			problems = append(problems, fmt.Sprintf("required property %q is not declared in properties", name))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("schema and %s disagree: %s", typ, strings.Join(problems, "; "))
}

// collectJSONFields adds the JSON names encoding/json would use for typ's
// fields, flattening untagged embedded structs as encoding/json does.
func collectJSONFields(typ reflect.Type, into map[string]bool) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			t := f.Type
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() == reflect.Struct {
				collectJSONFields(t, into)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = true
	}
}
