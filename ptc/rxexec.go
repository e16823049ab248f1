package ptc

import (
	"math"
	"reflect"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/unistring"
)

// The engine's fast path for re.exec(s) in a loop. goja's exec runs
// regexp2 from the second match of a global RegExp (see rxmatch.go), which
// made the capture-group loop over 10 MB about 11× slower than Node.
//
// Replacing RegExp.prototype.exec would switch off goja's fast paths for
// replace, split and match (they check that exec is the original), so the
// prototype is left alone. Instead compile rewrites each call of the form
// x.exec(args) into execHelper(x, args); the helper gets x.exec once, as
// the call would, and when it is RegExp.prototype.exec itself on a RegExp
// whose pattern rxmatch takes, with an ASCII string and a numeric
// lastIndex, it runs exec with rxmatch; anything else calls x.exec as the
// program wrote it. What the fast path returns is what goja's exec
// returns: the same array (index, input, groups, captures by goja's rule)
// and the same lastIndex.

// execHelper is the global the rewritten calls use. The name is not an
// identifier, so no program binding can shadow it.
const execHelper = "%exec"

// rewriteExecCalls rewrites x.exec(args) calls in prg (not super.exec, not
// inside an optional chain, whose short-circuit the rewrite would lose).
func rewriteExecCalls(prg *ast.Program) {
	inspectAST(prg, func(n any) bool {
		switch c := n.(type) {
		case *ast.OptionalChain:
			return false
		case *ast.CallExpression:
			d, ok := c.Callee.(*ast.DotExpression)
			if !ok || d.Identifier.Name != "exec" {
				break
			}
			if _, super := d.Left.(*ast.SuperExpression); super {
				break
			}
			c.Callee = &ast.Identifier{Name: unistring.String(execHelper), Idx: d.Left.Idx0()}
			c.ArgumentList = append([]ast.Expression{d.Left}, c.ArgumentList...)
		}
		return true
	})
}

// regexpExec is the helper's state for one run.
type regexpExec struct {
	rt       *goja.Runtime
	exec     goja.Value       // RegExp.prototype.exec as the engine found it
	execFn   goja.Callable    // the same
	source   goja.Callable    // the original getters of RegExp.prototype
	flags    [6]goja.Callable // global, ignoreCase, multiline, dotAll, sticky, unicode
	patterns map[*goja.Object]*rxPattern
	progs    map[string]*rxProg
	scratch  rxScratch

	// goja's types for strings: of ASCII characters (made by programs),
	// and imported from Go, of any characters (tool values, long strings).
	asciiType, importedType reflect.Type

	// The last text exec was given, whether it is ASCII and has a \r:
	// loops pass the same string each time, which then costs one scan.
	lastText       string
	textOK, textCR bool
}

// rxPattern is what the fast path knows of one RegExp object; prog is nil
// when the fast path does not take it.
type rxPattern struct {
	prog   *rxProg
	global bool
}

// maxRxPatterns bounds the caches of RegExp objects and compiled patterns.
const maxRxPatterns = 1024

// text returns the Go string of v when v is a string of ASCII characters.
func (x *regexpExec) text(v goja.Value) (string, bool) {
	t := reflect.TypeOf(v)
	if t != x.asciiType && t != x.importedType {
		return "", false
	}
	s := v.String() // no copy for these two types
	if s != x.lastText || x.lastText == "" {
		x.lastText, x.textOK, x.textCR = s, t == x.asciiType || isASCII(s), strings.IndexByte(s, '\r') >= 0
	}
	return s, x.textOK
}

// installRegexpExec defines the helper in rt. h holds the originals of
// RegExp.prototype the prelude took before any program ran.
func installRegexpExec(rt *goja.Runtime, h *goja.Object) *regexpExec {
	fn := func(name string) goja.Callable {
		f, _ := goja.AssertFunction(h.Get(name))
		return f
	}
	x := &regexpExec{
		rt: rt, exec: h.Get("exec"), execFn: fn("exec"), source: fn("source"),
		flags: [6]goja.Callable{fn("global"), fn("ignoreCase"), fn("multiline"), fn("dotAll"),
			fn("sticky"), fn("unicode")},
		patterns: map[*goja.Object]*rxPattern{}, progs: map[string]*rxProg{},
		asciiType: reflect.TypeOf(rt.ToValue("a")), importedType: reflect.TypeOf(rt.ToValue(strings.Repeat("a", 64))),
	}
	must(rt.GlobalObject().DefineDataProperty(execHelper, rt.ToValue(x.call), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	// compile() gives a RegExp object a new pattern: forget the old one.
	// (compile is not among the properties whose change turns goja's
	// fast paths off.)
	proto := h.Get("proto").ToObject(rt)
	compile := fn("compile")
	wrapped := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			delete(x.patterns, o)
		}
		v, err := compile(c.This, c.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).ToObject(rt)
	must(wrapped.DefineDataProperty("name", rt.ToValue("compile"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(wrapped.DefineDataProperty("length", rt.ToValue(2), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(proto.DefineDataProperty("compile", wrapped, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	return x
}

// call is execHelper(x, args...): x.exec(args...).
func (x *regexpExec) call(c goja.FunctionCall) goja.Value {
	recv := c.Argument(0)
	var args []goja.Value
	if len(c.Arguments) > 1 {
		args = c.Arguments[1:]
	}
	if goja.IsUndefined(recv) || goja.IsNull(recv) {
		panic(x.rt.NewTypeError("Cannot read property 'exec' of undefined or null"))
	}
	o := recv.ToObject(x.rt)
	f := o.Get("exec")
	if f != nil && f.SameAs(x.exec) && len(args) > 0 && o.ClassName() == "RegExp" {
		if v, ok := x.fast(o, args[0]); ok {
			return v
		}
	}
	if f == nil || goja.IsUndefined(f) {
		panic(x.rt.NewTypeError("Object has no member 'exec'"))
	}
	call, ok := goja.AssertFunction(f)
	if !ok {
		panic(x.rt.NewTypeError("Value is not an object: %s", f.String()))
	}
	v, err := call(recv, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// fast runs exec with rxmatch; ok is false when it does not apply (the
// caller then runs goja's exec, nothing having changed).
func (x *regexpExec) fast(o *goja.Object, arg goja.Value) (goja.Value, bool) {
	s, ok := x.text(arg)
	if !ok {
		return nil, false
	}
	p := x.pattern(o)
	if p == nil || p.prog.lines && x.textCR {
		return nil, false
	}
	from := 0
	if p.global {
		n, ok := lengthOf(o.Get("lastIndex"))
		if !ok {
			return nil, false
		}
		from = n
	}
	target := arg.(goja.String)
	r := rxNone
	if from <= len(s) {
		r = p.prog.search(&x.scratch, s, from)
	}
	switch r {
	case rxGaveUp:
		return nil, false
	case rxNone:
		if p.global {
			x.setLastIndex(o, 0)
		}
		return goja.Null(), true
	}
	caps := x.scratch.caps
	if p.global {
		x.setLastIndex(o, caps[1])
	}
	return x.result(p.prog, target, caps), true
}

// result is exec's array for a match, built as goja builds it.
func (x *regexpExec) result(p *rxProg, target goja.String, caps []int) goja.Value {
	n := len(caps) / 2
	vals := make([]any, n)
	vals[0] = target.Substring(caps[0], caps[1])
	lower := 0
	for i := 1; i < n; i++ {
		a, b := caps[2*i], caps[2*i+1]
		if a >= 0 && b >= lower {
			vals[i] = target.Substring(a, b)
			lower = a
		} else {
			vals[i] = goja.Undefined()
		}
	}
	m := x.rt.NewArray(vals...)
	// Defined, as the specification creates them (goja's exec sets them,
	// which differs only for a setter a program put on Array.prototype or
	// Object.prototype).
	must(m.DefineDataProperty("input", target, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	must(m.DefineDataProperty("index", x.rt.ToValue(caps[0]), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	groups := goja.Undefined()
	if p.named {
		g := x.rt.NewObject()
		must(g.SetPrototype(nil))
		for i, name := range p.names {
			if name != "" && i < n {
				must(g.DefineDataProperty(name, x.rt.ToValue(vals[i]), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
			}
		}
		groups = g
	}
	must(m.DefineDataProperty("groups", groups, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	return m
}

func (x *regexpExec) setLastIndex(o *goja.Object, n int) {
	if err := o.Set("lastIndex", n); err != nil {
		panic(err) // a non-writable lastIndex throws, as in goja's exec
	}
}

// pattern returns what the fast path knows of o, learning it on first use
// through the original getters (which read the object's own pattern and
// run no program code).
func (x *regexpExec) pattern(o *goja.Object) *rxPattern {
	if p, ok := x.patterns[o]; ok {
		return p.orNil()
	}
	var flag [6]bool
	for i, get := range x.flags {
		v, err := get(o)
		if err != nil {
			return nil
		}
		flag[i] = v.ToBoolean()
	}
	src, err := x.source(o)
	if err != nil {
		return nil
	}
	p := &rxPattern{global: flag[0]}
	if !flag[4] && !flag[5] { // sticky and unicode matching are goja's
		p.prog = x.compiled(src.String(), flag[1], flag[2], flag[3])
	}
	if len(x.patterns) >= maxRxPatterns {
		clear(x.patterns)
	}
	x.patterns[o] = p
	return p.orNil()
}

func (p *rxPattern) orNil() *rxPattern {
	if p.prog == nil {
		return nil
	}
	return p
}

// compiled returns the program for a pattern, compiling it once per run.
func (x *regexpExec) compiled(source string, ignoreCase, multiline, dotAll bool) *rxProg {
	key := string([]byte{flagByte(ignoreCase, 'i'), flagByte(multiline, 'm'), flagByte(dotAll, 's')}) + source
	if p, ok := x.progs[key]; ok {
		return p
	}
	p, ok := compileRx(source, ignoreCase, multiline, dotAll)
	if !ok {
		p = nil
	}
	if len(x.progs) >= maxRxPatterns {
		clear(x.progs)
	}
	x.progs[key] = p
	return p
}

func flagByte(on bool, c byte) byte {
	if on {
		return c
	}
	return '-'
}

// lengthOf is ToLength of a number; ok is false for any other value (its
// conversion could run program code: goja's exec does that).
func lengthOf(v goja.Value) (int, bool) {
	if v == nil {
		return 0, false
	}
	switch v.ExportType().Kind() {
	case reflect.Int64:
		return int(max(v.ToInteger(), 0)), true
	case reflect.Float64:
		f := v.ToFloat()
		if math.IsNaN(f) || f <= 0 {
			return 0, true
		}
		return int(min(math.Floor(f), 1<<53-1)), true
	}
	return 0, false
}
