package ptc

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// compile type-strips the code, parses it once, runs the pre-flight check
// against the declared tool names and compiles the AST for goja.
func compile(code string, declared []string) (*goja.Program, *Failure) {
	t, f := transform(code)
	if f != nil {
		return nil, f
	}
	prg, err := parser.ParseFile(nil, sourceName, t.js, 0)
	if err != nil {
		// esbuild accepted it, so goja lacks a feature esbuild emitted.
		return nil, &Failure{Kind: KindSyntax, Message: "the JavaScript engine cannot run this code: " + err.Error()}
	}
	if f := preflight(prg, declared); f != nil {
		return nil, f
	}
	rewriteExecCalls(prg)
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		return nil, &Failure{Kind: KindSyntax, Message: err.Error()}
	}
	return p, nil
}

// toolRef is a literal use of tools.<name> or tools["<name>"].
type toolRef struct {
	name string
	at   int // file offset in the JavaScript, for the position
}

// preflight rejects a program that names a tool the SDK does not declare,
// before anything runs. Only literal names are checked; a computed
// tools[x] fails at run time instead.
func preflight(prg *ast.Program, declared []string) *Failure {
	known := make(map[string]bool, len(declared))
	for _, n := range declared {
		known[n] = true
	}
	var unknown []toolRef
	seen := map[string]bool{}
	toolRefs(prg, func(ref toolRef) {
		if !known[ref.name] && !seen[ref.name] {
			seen[ref.name] = true
			unknown = append(unknown, ref)
		}
	})
	if len(unknown) == 0 {
		return nil
	}
	ref := unknown[0]
	msg := toolExpr(ref.name) + " is not a declared tool"
	if near := tools.Closest(ref.name, declared); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, ", ") + "?"
	} else if len(declared) == 0 {
		msg += "; no tools are available to programs."
	} else {
		msg += "."
	}
	if len(unknown) > 1 {
		names := make([]string, 0, len(unknown)-1)
		for _, u := range unknown[1:] {
			names = append(names, u.name)
		}
		msg += " Also undeclared: " + strings.Join(names, ", ") + "."
	}
	f := &Failure{Kind: KindUnknownTool, Message: msg + " Nothing was executed."}
	if prg.File != nil {
		pos := prg.File.Position(ref.at)
		f.Line, f.Column = pos.Line, mappedColumn(pos.Line, pos.Column)
	}
	return f
}

var astPkg = reflect.TypeOf(ast.Program{}).PkgPath()

// toolRefs calls visit for every literal tool reference in prg.
func toolRefs(prg *ast.Program, visit func(toolRef)) {
	inspectAST(prg, func(n any) bool {
		switch d := n.(type) {
		case *ast.DotExpression:
			if isToolsIdent(d.Left) {
				visit(toolRef{name: d.Identifier.Name.String(), at: int(d.Identifier.Idx)})
			}
		case *ast.BracketExpression:
			if s, ok := d.Member.(*ast.StringLiteral); ok && isToolsIdent(d.Left) {
				visit(toolRef{name: s.Value.String(), at: int(s.Idx)})
			}
		}
		return true
	})
}

// inspectAST calls fn for every node of a goja AST (a pointer), parents
// before children; fn returning false skips the node's children. It uses
// reflection so that no node type is missed, and only descends into
// values of the ast package (not into file and source-map data).
func inspectAST(prg *ast.Program, fn func(any) bool) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || v.Type().Elem().PkgPath() != astPkg {
				return
			}
			if fn(v.Interface()) {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type().PkgPath() != astPkg {
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(prg))
}

// toolExpr is how a program names a tool: tools.x or tools["x-y"].
func toolExpr(name string) string {
	if identRe.MatchString(name) {
		return "tools." + name
	}
	return fmt.Sprintf("tools[%q]", name)
}

var identRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func isToolsIdent(e ast.Expression) bool {
	id, ok := e.(*ast.Identifier)
	return ok && id.Name == "tools"
}
