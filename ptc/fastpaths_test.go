package ptc

import (
	"reflect"
	"strings"
	"testing"
)

func TestComparatorShapesAreRecognised(t *testing.T) {
	// plan builds the expected plan from levels written "kind path" with
	// kind -, locale or cmp, a leading ~ for descending, path dotted.
	plan := func(levels ...string) *sortPlan {
		p := &sortPlan{}
		for _, l := range levels {
			kind, path, _ := strings.Cut(l, " ")
			lv := sortLevel{desc: strings.HasPrefix(kind, "~")}
			lv.kind = map[string]int{"-": keyMinus, "locale": keyLocale, "cmp": keyCompare}[strings.TrimPrefix(kind, "~")]
			if path != "" {
				lv.path = strings.Split(path, ".")
			}
			p.levels = append(p.levels, lv)
		}
		return p
	}
	cases := []struct {
		src  string
		want *sortPlan
	}{
		{"(a, b) => a.n - b.n", plan("- n")},
		{"(a, b) => b.score - a.score", plan("~- score")},
		{"(x, y) => x.meta.size - y.meta.size", plan("- meta.size")},
		{"(a, b) => a - b", plan("-")},
		{"(a, b) => b[1] - a[1]", plan("~- 1")},
		{`(a, b) => a["my key"] - b['my key']`, plan("- my key")},
		{"(a, b) => a[0].localeCompare(b[0])", plan("locale 0")},
		{"function(a, b) {\n  return a.n - b.n;\n}", plan("- n")},
		{"function byN(a, b) { return a.n - b.n }", plan("- n")},
		{"(a, b) => {\n  return b.n - a.n;\n}", plan("~- n")},
		{"(a, b) => a.name.localeCompare(b.name)", plan("locale name")},
		{"(a, b) => b.localeCompare(a)", plan("~locale")},
		{"(a, b) => a.name.length - b.name.length", plan("- name.length")},
		{"(a, b) => a.default - b.default", plan("- default")},
		{"(a, b) => a.s < b.s ? -1 : a.s > b.s ? 1 : 0", plan("cmp s")},
		{"(a, b) => a.s > b.s ? 1 : a.s < b.s ? -1 : 0", plan("cmp s")},
		{"(a, b) => a.s < b.s ? 1 : a.s > b.s ? -1 : 0", plan("~cmp s")},
		{"(a, b) => b.s < a.s ? -1 : b.s > a.s ? 1 : 0", plan("~cmp s")},
		{"(a, b) => a.s === b.s ? 0 : a.s < b.s ? -1 : 1", plan("cmp s")},
		// Chains of levels: the tie-breaks.
		{"(x, y) => x.team < y.team ? -1 : x.team > y.team ? 1 : y.size - x.size || x.id - y.id", plan("cmp team", "~- size", "- id")},
		{"(a, b) => a.n - b.n || a.id - b.id", plan("- n", "- id")},
		{"(a, b) => b.count - a.count || a.name.localeCompare(b.name)", plan("~- count", "locale name")},
		{"(a, b) => {\n  const d = a.n - b.n;\n  return d !== 0 ? d : a.id - b.id;\n}", plan("- n", "- id")},
		{"(a, b) => {\n  const d = a.n - b.n;\n  return d;\n}", plan("- n")},
		{"(a, b) => {\n  const d = a.n - b.n;\n  if (d !== 0) return d;\n  return b.id - a.id;\n}", plan("- n", "~- id")},
		{"function(a, b) {\n  if (a.x < b.x) return -1;\n  if (a.x > b.x) return 1;\n  return 0;\n}", plan("cmp x")},
		{"function(a, b) {\n  if (a.x < b.x) { return -1; } else if (a.x > b.x) { return 1; }\n  return a.y - b.y;\n}", plan("cmp x", "- y")},
		{"(a, b) => a.k === b.k ? a.n - b.n : a.k < b.k ? -1 : 1", plan("cmp k", "- n")},
		{"(a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0) || b.n - a.n", plan("cmp s", "~- n")},
		// Not orderings by keys, or not only of the arguments.
		{"(a, b) => a.n - a.n", nil},
		{"(a, b) => a.n - b.m", nil},
		{"(a, b) => a.n - c.n", nil},
		{"(a, b) => a.s < b.s ? -1 : 1", nil},
		{"(a, b) => a.s < b.s ? -1 : a.s > b.s ? -1 : 0", nil},
		{"(a, b) => a.n - b.n || 1", nil},
		{"(a, b) => order[a.k] - order[b.k]", nil},
		{"(a, b) => a.n * b.n", nil},
		{"(a, b) => {\n  const d = a.n - b.n;\n  if (d !== 0) return d;\n}", nil},
		{"(a, b) => { let a = 1; return a }", nil},
		{"(a, b) => f(a) - f(b)", nil},
		{"(a, b) => a.n - b.n // why", nil},
		{"(a, b) => a?.n - b?.n", nil},
		{"async (a, b) => a.n - b.n", nil},
		{"(a, a) => a.n - a.n", nil},
		{"function sort() { [native code] }", nil},
		{"(a, b) => `${a}` < `${b}` ? -1 : 1", nil},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			if got := planFor(c.src); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("plan %+v, want %+v", got, c.want)
			}
		})
	}
}

// refSort is a stable insertion sort in the program itself: what any
// conforming sort must produce for a consistent comparator.
const refSort = `
const refSort = (arr: any[], cmp: (x: any, y: any) => number) => {
  const a = arr.slice();
  for (let i = 1; i < a.length; i++) {
    const v = a[i]; let j = i - 1;
    while (j >= 0 && cmp(a[j], v) > 0) { a[j + 1] = a[j]; j-- }
    a[j + 1] = v;
  }
  return a;
};
let seed = 7; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const words = ["b", "a", "B", "é", "e", "Z", "ä", "ab", "a\u0301", "😀", "\uffff", "z", "10", "9", ""];
const items = Array.from({ length: 400 }, (_, id) => ({ id, n: Math.floor(rnd() * 20) - 10, f: rnd() < 0.1 ? -0 : rnd(),
  s: words[Math.floor(rnd() * words.length)] + words[Math.floor(rnd() * words.length)], meta: { size: Math.floor(rnd() * 5) } }));
const same = (x: any[], y: any[]) => x.length === y.length && x.every((v, i) => Object.is(v, y[i]));
`

func TestTheFastSortAgreesWithItsComparator(t *testing.T) {
	cases := []struct{ name, code string }{
		{"numeric key ascending and descending", `
const cs = [(a, b) => a.n - b.n, (a, b) => b.n - a.n, (a, b) => a.f - b.f, (a, b) => a.meta.size - b.meta.size];
const entries = Object.entries(Object.fromEntries(items.map(i => [i.s + i.id, i.n])));
const byCount = (a: any, b: any) => b[1] - a[1];
return cs.every(c => same(items.slice().sort(c), refSort(items, c))) && same(entries.slice().sort(byCount), refSort(entries, byCount))`},
		{"string keys by < and >", `
const cs = [(a, b) => a.s < b.s ? -1 : a.s > b.s ? 1 : 0, (a, b) => a.s < b.s ? 1 : a.s > b.s ? -1 : 0, (a, b) => a.n < b.n ? -1 : a.n > b.n ? 1 : 0];
return cs.every(c => same(items.slice().sort(c), refSort(items, c)))`},
		{"localeCompare keys", `
const cs = [(a, b) => a.s.localeCompare(b.s), (a, b) => b.s.localeCompare(a.s)];
return cs.every(c => same(items.slice().sort(c), refSort(items, c)))`},
		{"numbers and strings by themselves", `
const ns = items.map(i => i.n), ss = items.map(i => i.s);
return same(ns.slice().sort((a, b) => a - b), refSort(ns, (a, b) => a - b)) && same(ss.slice().sort((a, b) => a.localeCompare(b)), refSort(ss, (a, b) => a.localeCompare(b)))`},
		{"the default sort of strings and of numbers", `
const byString = (a: any, b: any) => { const x = String(a), y = String(b); return x < y ? -1 : x > y ? 1 : 0 };
const ns = items.map(i => i.n), ss = items.map(i => i.s);
return same(ns.slice().sort(), refSort(ns, byString)) && same(ss.slice().sort(), refSort(ss, byString))`},
		{"chains of keys with tie-breaks", `
const cs = [
  (x, y) => x.s < y.s ? -1 : x.s > y.s ? 1 : y.n - x.n || x.id - y.id,
  (a, b) => a.meta.size - b.meta.size || b.s.localeCompare(a.s) || a.id - b.id,
  (a, b) => { const d = a.n - b.n; return d !== 0 ? d : b.id - a.id },
  function (a, b) { if (a.meta.size < b.meta.size) return -1; if (a.meta.size > b.meta.size) return 1; return a.f - b.f },
  (a, b) => a.s === b.s ? b.n - a.n : a.s < b.s ? -1 : 1,
  (a, b) => a.s.length - b.s.length || a.n - b.n,
];
return cs.every(c => same(items.slice().sort(c), refSort(items, c)))`},
		{"a level whose keys do not fit calls the comparator", `
const mixed = items.map((i, k) => ({ id: i.id, n: i.n, m: k % 5 === 0 ? String(i.n) : i.n }));
const c = (a: any, b: any) => a.n - b.n || a.m - b.m || a.id - b.id;
return same(mixed.slice().sort(c), refSort(mixed, c))`},
		{"a replaced localeCompare is called", `
String.prototype.localeCompare = function (this: string, o: string) { return this.length - o.length } as any;
const c = (a: any, b: any) => a.s.localeCompare(b.s);
return same(items.slice().sort(c), refSort(items, c))`},
		{"a comparator of another shape is called", `
const rank: any = { a: 2, b: 1 };
const c = (a: any, b: any) => (rank[a.s[0]] ?? 0) - (rank[b.s[0]] ?? 0) || b.id - a.id;
return same(items.slice().sort(c), refSort(items, c))`},
		{"keys that do not fit the shape fall back to calling the comparator", `
const mixed = items.map((i, k) => ({ id: i.id, n: k % 7 === 0 ? String(i.n) : i.n }));
const nan = items.map((i, k) => ({ id: i.id, n: k === 3 ? NaN : i.n }));
const c = (a: any, b: any) => a.n - b.n;
return same(mixed.slice().sort(c), refSort(mixed, c)) && nan.slice().sort(c).length === nan.length`},
		{"holes and undefined keep goja's placement", `
const a = [3, undefined, 1, , 2];
a.sort((x, y) => x - y);
return a.length === 5 && a[0] === 1 && a[2] === 3 && a[3] === undefined && !(4 in a)`},
		{"a throwing comparator leaves the array as it was", `
const a = [3, 1, 2];
try { a.sort((x, y) => { if (x === 2 || y === 2) throw new Error("no"); return x - y }) } catch {}
return same(a, [3, 1, 2])`},
		{"sorting a frozen array throws", `
try { Object.freeze([2, 1]).sort((a, b) => a - b); return false } catch (e) { return e instanceof TypeError }`},
		{"sort keeps its name and length and returns the array", `
const a = [2, 1]; return Array.prototype.sort.name === "sort" && Array.prototype.sort.length === 1 && a.sort() === a`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, echoTools(), Limits{}, refSort+c.code)
			if !o.OK() || string(o.Result) != "true" {
				t.Fatalf("outcome %+v, result %s", o.Failure, o.Result)
			}
		})
	}
}

func TestTheFastJSONParseAgreesWithGoja(t *testing.T) {
	// A reviver sends JSON.parse to goja's own parser, so the identity
	// reviver gives the reference for each text.
	texts := []string{
		`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, `[]`, `{}`, ` [ 1 , 2 ] `, `"x"`, `-0`, `0.5e-3`, `-12345678901234567890`,
		`{"a":1,"a":2,"b":3}`, `{"__proto__":{"x":1}}`, `{"2":"b","1":"a","x":"c"}`,
		`"\u00e9\n\t\"\\\/\b\f\r"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`, `"é😀"`,
		`{"deep":[[[[{"x":[1,{"y":null}]}]]]]}`, `[1,"1",1.0,1e0]`,
	}
	bad := []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1.`, `.5`, `+1`, `"\x"`, "\"a\nb\"", `tru`, `[1] 2`, `{"a":1,}`, `NaN`, `'a'`}
	for _, text := range texts {
		t.Run(text, func(t *testing.T) {
			code := `const t = ` + jsString(text) + `;
const fast = JSON.parse(t), ref = JSON.parse(t, (k, v) => v);
const shape = (v: any): any => v !== null && typeof v === "object" ? [Object.getPrototypeOf(v) === (Array.isArray(v) ? Array.prototype : Object.prototype), Object.keys(v), Object.keys(v).map(k => shape(v[k]))] : [typeof v, Object.is(v, -0), v];
return JSON.stringify(shape(fast)) === JSON.stringify(shape(ref)) && JSON.stringify(fast) === JSON.stringify(ref)`
			if o := runCode(t, echoTools(), Limits{}, code); !o.OK() || string(o.Result) != "true" {
				t.Fatalf("outcome %+v, result %s", o.Failure, o.Result)
			}
		})
	}
	t.Run("a number past float64 is Infinity, as the specification says (goja's parser refuses it)", func(t *testing.T) {
		if o := runCode(t, echoTools(), Limits{}, `return JSON.parse("[1E400, -1e999]").join()`); !o.OK() || string(o.Result) != `"Infinity,-Infinity"` {
			t.Fatalf("outcome %+v, result %s", o.Failure, o.Result)
		}
	})
	for _, text := range bad {
		t.Run("invalid "+text, func(t *testing.T) {
			code := `try { JSON.parse(` + jsString(text) + `); return "parsed" } catch (e) { return e instanceof SyntaxError }`
			if o := runCode(t, echoTools(), Limits{}, code); !o.OK() || string(o.Result) != "true" {
				t.Fatalf("outcome %+v, result %s", o.Failure, o.Result)
			}
		})
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	out := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			out = append(out, '\\', byte(r))
		case r == '\n':
			out = append(out, '\\', 'n')
		default:
			out = append(out, string(r)...)
		}
	}
	return string(append(out, '"'))
}

func TestStringsBuiltInPlaceAgreeWithJoin(t *testing.T) {
	cases := []struct{ name, code string }{
		{"a += loop of 200 000 pieces", `
let s = ""; const parts: string[] = [];
for (let i = 0; i < 200000; i++) { s += i + ","; parts.push(i + ",") }
return s === parts.join("") && s.length === parts.join("").length`},
		{"template literals onto themselves, with non-ASCII pieces", `
let s = "", t = "";
for (let i = 0; i < 20000; i++) { s = ` + "`${s}<${i}é>`" + `; t += "<" + i + "é>" }
return s === t && s.length === t.length && s.endsWith("<19999é>")`},
		{"two strings grown from one prefix keep their own tails", `
let base = ""; for (let i = 0; i < 5000; i++) base += i;
const a = base + "A", b = base + "B";
let c = a; for (let i = 0; i < 1000; i++) c += "!";
return a.endsWith("A") && b.endsWith("B") && c.startsWith(a) && a.length === b.length && base.length + 1 === a.length`},
		{"concat in a loop", `
let s = "start"; for (let i = 0; i < 10000; i++) s = s.concat(String(i), ";");
let t = "start"; for (let i = 0; i < 10000; i++) t += i + ";";
return s === t`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, echoTools(), Limits{}, c.code)
			if !o.OK() || string(o.Result) != "true" {
				t.Fatalf("outcome %+v, result %s", o.Failure, o.Result)
			}
		})
	}
}
