package ptc

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// newRxRuntime is a goja runtime set up as the engine sets one up for the
// exec fast path: the prelude's originals of RegExp.prototype, the helper.
func newRxRuntime(t testing.TB) (*goja.Runtime, *regexpExec) {
	t.Helper()
	rt := goja.New()
	fv, err := rt.RunProgram(prelude())
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := goja.AssertFunction(fv)
	host := rt.NewObject()
	must(host.Set("names", []any{}))
	hv, err := fn(goja.Undefined(), host)
	if err != nil {
		t.Fatal(err)
	}
	return rt, installRegexpExec(rt, hv.ToObject(rt).Get("regexp").ToObject(rt))
}

// rxShow is one exec's outcome as text: the match, its index, groups and
// keys, and the RegExp's lastIndex after it.
const rxShow = `(m, re) => JSON.stringify(m === null ? [null, re.lastIndex] : [
  Array.from(m, v => v === undefined ? "<undefined>" : v), m.index, m.input.length,
  m.groups === undefined ? "<undefined>" : [Object.getPrototypeOf(m.groups), Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? "<undefined>" : v])],
  Object.keys(m), re.lastIndex])`

// execBoth runs exec up to 40 times over s on two copies of the RegExp,
// with the fast path and with goja's exec, and returns both transcripts
// and whether every exec took the fast path.
func execBoth(t testing.TB, rt *goja.Runtime, x *regexpExec, pattern, flags, s string) (fast, slow []string, took bool) {
	t.Helper()
	show, _ := goja.AssertFunction(rt.ToValue(mustRun(t, rt, rxShow)))
	mk, _ := goja.AssertFunction(mustRun(t, rt, `(p, f) => new RegExp(p, f)`))
	a, err := mk(goja.Undefined(), rt.ToValue(pattern), rt.ToValue(flags))
	if err != nil {
		t.Skipf("goja rejects /%s/%s: %v", pattern, flags, err)
	}
	b, _ := mk(goja.Undefined(), rt.ToValue(pattern), rt.ToValue(flags))
	ao, bo := a.ToObject(rt), b.ToObject(rt)
	sv := rt.ToValue(s)
	took = true
	for i := 0; i < 40; i++ {
		va, ok := x.fast(ao, sv)
		if !ok {
			took = false
			if va, err = x.execFn(ao, sv); err != nil {
				t.Fatal(err)
			}
		}
		vb, err := x.execFn(bo, sv)
		if err != nil {
			t.Fatal(err)
		}
		ta, _ := show(goja.Undefined(), va, ao)
		tb, _ := show(goja.Undefined(), vb, bo)
		fast, slow = append(fast, ta.String()), append(slow, tb.String())
		if goja.IsNull(vb) || !strings.Contains(flags, "g") && i == 2 {
			break
		}
		if vb.ToObject(rt).Get("0").String() == "" { // step over an empty match, as loops do
			for _, o := range []*goja.Object{ao, bo} {
				must(o.Set("lastIndex", o.Get("lastIndex").ToInteger()+1))
			}
		}
	}
	return fast, slow, took
}

func mustRun(t testing.TB, rt *goja.Runtime, src string) goja.Value {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const rxLog = "2024-05-10 12:00:10 INFO user=alpha1 id=0 took 12ms path=/api\n2024-05-11 12:00:11 WARN user=beta22 id=1 took 7ms path=/x\r\nuser=Zeta3 id=22 took 900ms"

var rxCases = []struct {
	pattern, flags, input string
	fast                  bool // the fast path takes it
}{
	{`user=(\w+) id=(\d+) took (\d+)ms`, "g", rxLog, true},
	{`(\d+)ms`, "g", rxLog, true},
	{`(\d+)ms`, "", rxLog, true},
	{`\b\w+\b`, "g", "a bc  def_9 x-y", true},
	{`\Bc\B`, "g", "abcd c acb", true},
	{`^\w+`, "g", "one two\nthree", true},
	{`^\w+`, "gm", "one two\nthree\nfour", true},
	{`\w+$`, "gm", "one two\nthree\nfour", true},
	{`^\w+`, "gm", "one\rtwo", false}, // \r breaks lines in JavaScript, not in RE2: goja's exec answers
	{`^$`, "gm", "a\n\nb\n", true},
	{`$`, "g", "abc", true},
	{`x*`, "g", "axxbx", true},
	{`a|ab`, "g", "abab", true},
	{`(?:ab)+c`, "g", "ababc abc ac", true},
	{`(a)?b`, "g", "ab b", true},
	{`(a)|(b)`, "g", "ba", true},
	{`(?<y>\d{4})-(?<m>\d\d)`, "g", "2024-05 and 1999-12", true},
	{`(?<a>x)|(?<b>y)`, "g", "yx", true},
	{`[^,]+`, "g", "a,b,,cd,", true},
	{`\s+`, "g", "a \t b\v\fc\r\n", true},
	{`abc`, "gi", "ABC aBc abd", true},
	{`[a-z]+`, "gi", "Hello WORLD", true},
	{`a.c`, "gs", "a\nc abc", true},
	{`a.c`, "g", "a\nc a\rc abc", true},
	{`<.+?>`, "g", "<a><bb>", true},
	{`\x41\u0042`, "g", "xAB", true},
	{`\/`, "g", "a/b/", true},
	{``, "g", "ab", true},
	{`(\w+)@(\w+)\.com`, "g", "a@b.com c@d.com", true},
	// Not the fast path's: goja's exec answers.
	{`(a)+`, "g", "aaa", false},
	{`(\w)\1`, "g", "aabb", false},
	{`a(?=b)`, "g", "abac", false},
	{`a`, "y", "aab", false},
	{`a`, "gu", "aab", false},
	{`(?:a|)*b`, "g", "aab", false},
	{`é`, "g", "é", false},
	{`\u017f`, "gi", "s", false},
	{`(\d+)`, "g", "héllo 12", false},
}

func TestTheExecFastPathAgreesWithGoja(t *testing.T) {
	rt, x := newRxRuntime(t)
	for _, c := range rxCases {
		t.Run("/"+c.pattern+"/"+c.flags, func(t *testing.T) {
			fast, slow, took := execBoth(t, rt, x, c.pattern, c.flags, c.input)
			if took != c.fast {
				t.Errorf("fast path taken: %v, want %v", took, c.fast)
			}
			if strings.Join(fast, "\n") != strings.Join(slow, "\n") {
				t.Fatalf("fast path:\n%s\ngoja:\n%s", strings.Join(fast, "\n"), strings.Join(slow, "\n"))
			}
		})
	}
}

func TestTheExecFastPathHandsLongMatchesBack(t *testing.T) {
	rt, x := newRxRuntime(t)
	for _, c := range []struct{ name, pattern, input string }{
		{"a match longer than the first window", `a[^b]*b`, "xx a" + strings.Repeat("c", 100_000) + "b a b"},
		{"a match past the visited-set bound", `x[^y]*y`, "x" + strings.Repeat("z", maxRxCells/3) + "y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fast, slow, _ := execBoth(t, rt, x, c.pattern, "g", c.input)
			if strings.Join(fast, "\n") != strings.Join(slow, "\n") {
				t.Fatalf("fast path:\n%.300s\ngoja:\n%.300s", strings.Join(fast, "\n"), strings.Join(slow, "\n"))
			}
		})
	}
}

func TestProgramsCallExecAsWritten(t *testing.T) {
	d := newFakeDispatcher(&fakeTool{name: "exec", fn: func(a map[string]any) (any, error) { return "ran", nil }})
	cases := []struct{ name, code, want string }{
		{"an object's own exec", `const o = { n: 1, exec(s: string) { return this.n + s } }; return o.exec("x")`, `"1x"`},
		{"a tool named exec", `return await tools.exec({})`, `"ran"`},
		{"exec of undefined", `let u: any; try { u.exec("a") } catch (e) { return String(e) }`, `"TypeError: Cannot read property 'exec' of undefined or null"`},
		{"a missing exec", `try { ("x" as any).exec(1) } catch (e) { return String(e) }`, `"TypeError: Object has no member 'exec'"`},
		{"an optional chain", `const r: any = null; return [/a/g?.exec("a")?.[0], r?.exec("a")]`, `["a",null]`},
		{"super.exec", `class R extends RegExp { exec(s: string) { const m = super.exec(s); return m && ({ index: m.index } as any) } }; return new R("b", "g").exec("ab").index`, `1`},
		{"a replaced RegExp.prototype.exec", `RegExp.prototype.exec = function () { return ["mine"] as any }; return /a/.exec("a")![0]`, `"mine"`},
		{"exec after compile", `const r = /a/g; r.exec("aa"); (r as any).compile("b", "g"); return r.exec("ab")![0] + r.lastIndex`, `"b2"`},
		{"exec with spread arguments", `const a = ["xay"]; return /a/.exec(...(a as [string]))!.index`, `1`},
		{"the loop of the benchmark", `const re = /(\d+)ms/g; let m, n = 0, s = 0; while ((m = re.exec("1ms 22ms x 333ms")) !== null) { n++; s += Number(m[1]) } return [n, s, re.lastIndex]`, `[3,356,0]`},
		{"a non-writable lastIndex throws", `const r = /a/g; Object.defineProperty(r, "lastIndex", { writable: false }); try { r.exec("a") } catch (e) { return e instanceof TypeError }`, `true`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, d, Limits{}, c.code)
			if !o.OK() || string(o.Result) != c.want {
				t.Fatalf("outcome %+v result %s, want %s", o.Failure, o.Result, c.want)
			}
		})
	}
}

// FuzzExecFastPath checks that the fast path, when it takes a pattern,
// answers exactly as goja's exec.
func FuzzExecFastPath(f *testing.F) {
	for _, c := range rxCases {
		f.Add(c.pattern, c.flags, c.input)
	}
	rt, x := newRxRuntime(f)
	f.Fuzz(func(t *testing.T, pattern, flags, input string) {
		if len(flags) > 4 || !isASCII(input) {
			return
		}
		fast, slow, _ := execBoth(t, rt, x, pattern, flags, input)
		if strings.Join(fast, "\n") != strings.Join(slow, "\n") {
			t.Fatalf("/%s/%s on %q\nfast path:\n%s\ngoja:\n%s", pattern, flags, input, strings.Join(fast, "\n"), strings.Join(slow, "\n"))
		}
	})
}
