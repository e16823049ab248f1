package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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

// TestEveryEventTypeIsRegistered reads this package's source: every
// Type… name must be a variable declared with eventType, so that no event
// type can be added that Validate would refuse.
func TestEveryEventTypeIsRegistered(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "Type") || !id.IsExported() {
						continue
					}
					declared++
					var value ast.Expr
					if i < len(vs.Values) {
						value = vs.Values[i]
					}
					if g.Tok != token.VAR || !callsEventType(value) {
						t.Errorf("%s: %s is not declared as var %s = eventType(\"…\"); a log holding it would refuse to load", fset.Position(id.Pos()), id.Name, id.Name)
					}
				}
			}
		}
	}
	if declared != len(knownTypes) || declared < 30 {
		t.Fatalf("%d Type… declarations, %d registered types", declared, len(knownTypes))
	}
}

// callsEventType reports whether e is a call eventType(…).
func callsEventType(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := c.Fun.(*ast.Ident)
	return ok && fn.Name == "eventType"
}
