package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// SchemaRole is what a schema describes: a tool's arguments or its value.
type SchemaRole int

// The two roles. Arguments are held to one rule more: their schema must
// refuse properties the Go type would drop without a word.
const (
	ArgsSchema SchemaRole = iota
	ValueSchema
)

// SchemaMatches reports where a tool's hand-written JSON Schema (the single
// source the model, validation and sdkgen see) and the Go type its code
// decodes into or returns disagree, so that neither can be renamed or
// changed alone. Tool authors call it from a test, with the types a Typed
// tool names. At each object that maps to a struct:
//
//   - the schema's properties are exactly the struct's JSON fields, named
//     as encoding/json names them (untagged embedded structs flattened,
//     `json:"-"` left out);
//   - the required properties are exactly the fields without omitempty (a
//     required field the encoder may drop, or an optional one it always
//     writes, is a disagreement);
//   - for arguments, additionalProperties is false;
//   - where the schema gives a type, it is the JSON type of the Go type
//     (null only for pointers, slices, maps and interfaces), and array
//     items, map values (additionalProperties) and the branches of anyOf
//     and oneOf are checked the same way, down to nested structs.
//
// What cannot be inferred is not checked: a schema without a type, an
// interface or json.RawMessage field, keywords such as enum or minimum.
func SchemaMatches(schema json.RawMessage, typ reflect.Type, role SchemaRole) error {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("schema is not a JSON object: %v", err)
	}
	typ = deref(typ)
	if role == ArgsSchema && typ.Kind() != reflect.Struct {
		return fmt.Errorf("arguments decode into %s, which is not a struct", typ)
	}
	c := schemaCheck{role: role}
	c.node("", root, typ)
	if len(c.problems) == 0 {
		return nil
	}
	slices.Sort(c.problems)
	return fmt.Errorf("schema and %s disagree: %s", typ, strings.Join(c.problems, "; "))
}

// schemaCheck gathers the disagreements of one SchemaMatches call.
type schemaCheck struct {
	role     SchemaRole
	problems []string
}

func (c *schemaCheck) fail(at, format string, args ...any) {
	if at == "" {
		at = "/"
	}
	c.problems = append(c.problems, at+": "+fmt.Sprintf(format, args...))
}

// node checks the schema node s at path at against typ.
func (c *schemaCheck) node(at string, s map[string]json.RawMessage, typ reflect.Type) {
	nullable := nullableKind(typ.Kind())
	typ = deref(typ)
	if passthrough(typ) {
		return
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		var branches []map[string]json.RawMessage
		if json.Unmarshal(s[key], &branches) != nil {
			continue
		}
		for i, b := range branches {
			if types := schemaTypes(b["type"]); nullable && len(types) == 1 && types[0] == "null" {
				continue
			}
			c.node(fmt.Sprintf("%s(%s %d)", at, key, i), b, typ)
		}
	}
	types := schemaTypes(s["type"])
	for _, t := range types {
		if t == "null" && !nullable {
			c.fail(at, "the schema allows null but %s cannot hold it", typ)
		} else if t != "null" && !jsonTypeFits(t, typ) {
			c.fail(at, "the schema says %s but the Go type is %s", t, typ)
		}
	}
	switch {
	case typ.Kind() == reflect.Struct && (slices.Contains(types, "object") || len(types) == 0 && s["properties"] != nil):
		c.object(at, s, typ)
	case (typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array) && s["items"] != nil:
		c.sub(at+"[]", s["items"], typ.Elem())
	case typ.Kind() == reflect.Map && s["additionalProperties"] != nil:
		c.sub(at+"{}", s["additionalProperties"], typ.Elem())
	}
}

// sub checks a nested schema, which may be true/false instead of an object.
func (c *schemaCheck) sub(at string, raw json.RawMessage, typ reflect.Type) {
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) == nil {
		c.node(at, s, typ)
	}
}

// object checks the properties, required list and additionalProperties
// of an object schema against the struct typ.
func (c *schemaCheck) object(at string, s map[string]json.RawMessage, typ reflect.Type) {
	var props map[string]json.RawMessage
	var required []string
	if err := json.Unmarshal(orEmpty(s["properties"]), &props); err != nil {
		c.fail(at, "properties is not an object")
		return
	}
	if err := json.Unmarshal(orNull(s["required"]), &required); err != nil {
		c.fail(at, "required is not a list of names")
	}
	fields := map[string]jsonField{}
	collectJSONFields(typ, fields)
	for name := range props {
		if _, ok := fields[name]; !ok {
			c.fail(at, "schema property %q has no field in %s", name, typ)
		}
	}
	for name, f := range fields {
		raw, ok := props[name]
		switch {
		case !ok:
			c.fail(at, "field %q of %s is not in the schema", name, typ)
			continue
		case slices.Contains(required, name) && f.omitempty:
			c.fail(at, "%q is required but its field is omitempty", name)
		case !slices.Contains(required, name) && !f.omitempty:
			c.fail(at, "%q is optional but its field is not omitempty", name)
		}
		c.sub(at+"/"+name, raw, f.typ)
	}
	for _, name := range required {
		if _, ok := props[name]; !ok {
			c.fail(at, "required property %q is not declared in properties", name)
		}
	}
	if c.role == ArgsSchema && string(s["additionalProperties"]) != "false" {
		c.fail(at, "additionalProperties is not false: a misspelt argument would be dropped without a word")
	}
}

// jsonField is one JSON field of a struct.
type jsonField struct {
	typ       reflect.Type
	omitempty bool
}

// collectJSONFields adds the fields encoding/json would use for typ,
// flattening untagged embedded structs as encoding/json does.
func collectJSONFields(typ reflect.Type, into map[string]jsonField) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if t := deref(f.Type); t.Kind() == reflect.Struct {
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
		into[name] = jsonField{typ: f.Type, omitempty: slices.Contains(strings.Split(opts, ","), "omitempty")}
	}
}

// schemaTypes reads a schema's type keyword: a name or a list of names.
func schemaTypes(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// passthrough types take any JSON: nothing about them can be checked.
func passthrough(t reflect.Type) bool {
	return t == rawMessage || t.Kind() == reflect.Interface
}

// jsonTypeFits reports whether JSON values of schema type name decode
// into t.
func jsonTypeFits(name string, t reflect.Type) bool {
	switch k := t.Kind(); name {
	case "string":
		return k == reflect.String || k == reflect.Slice && t.Elem().Kind() == reflect.Uint8
	case "integer":
		return k >= reflect.Int && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64
	case "number":
		return k == reflect.Float32 || k == reflect.Float64
	case "boolean":
		return k == reflect.Bool
	case "array":
		return k == reflect.Slice || k == reflect.Array
	case "object":
		return k == reflect.Struct || k == reflect.Map
	}
	return false
}

func nullableKind(k reflect.Kind) bool {
	return k == reflect.Pointer || k == reflect.Slice || k == reflect.Map || k == reflect.Interface
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("{}")
	}
	return raw
}

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}
