package ptc

import (
	"reflect"
	"testing"
)

func TestComparatorShapesAreRecognised(t *testing.T) {
	cases := []struct {
		src  string
		want *sortPlan
	}{
		{"(a, b) => a.n - b.n", &sortPlan{path: []string{"n"}, kind: keyMinus}},
		{"(a, b) => b.score - a.score", &sortPlan{path: []string{"score"}, desc: true, kind: keyMinus}},
		{"(x, y) => x.meta.size - y.meta.size", &sortPlan{path: []string{"meta", "size"}, kind: keyMinus}},
		{"(a, b) => a - b", &sortPlan{kind: keyMinus}},
		{"(a, b) => b[1] - a[1]", &sortPlan{path: []string{"1"}, desc: true, kind: keyMinus}},
		{"(a, b) => a[0].localeCompare(b[0])", &sortPlan{path: []string{"0"}, kind: keyLocale}},
		{"function(a, b) {\n  return a.n - b.n;\n}", &sortPlan{path: []string{"n"}, kind: keyMinus}},
		{"(a, b) => {\n  return b.n - a.n;\n}", &sortPlan{path: []string{"n"}, desc: true, kind: keyMinus}},
		{"(a, b) => a.name.localeCompare(b.name)", &sortPlan{path: []string{"name"}, kind: keyLocale}},
		{"(a, b) => b.localeCompare(a)", &sortPlan{desc: true, kind: keyLocale}},
		{"(a, b) => a.s < b.s ? -1 : a.s > b.s ? 1 : 0", &sortPlan{path: []string{"s"}, kind: keyCompare}},
		{"(a, b) => a.s > b.s ? 1 : a.s < b.s ? -1 : 0", &sortPlan{path: []string{"s"}, kind: keyCompare}},
		{"(a, b) => a.s < b.s ? 1 : a.s > b.s ? -1 : 0", &sortPlan{path: []string{"s"}, desc: true, kind: keyCompare}},
		{"(a, b) => b.s < a.s ? -1 : b.s > a.s ? 1 : 0", &sortPlan{path: []string{"s"}, desc: true, kind: keyCompare}},
		{"(a, b) => a.n - a.n", nil},
		{"(a, b) => a.n - b.m", nil},
		{"(a, b) => a.n - c.n", nil},
		{"(a, b) => a.s < b.s ? -1 : 1", nil},
		{"(a, b) => a.s < b.s ? -1 : a.s > b.s ? -1 : 0", nil},
		{"(a, b) => {\n  const d = a.n - b.n;\n  return d;\n}", nil},
		{"(a, b) => a.n - b.n || a.id - b.id", nil},
		{"async (a, b) => a.n - b.n", nil},
		{"function sort() { [native code] }", nil},
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
		{"a comparator of another shape goes through the merge sort", `
const c = (a: any, b: any) => { const d = a.meta.size - b.meta.size; return d !== 0 ? d : b.id - a.id };
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
