package goja

import (
	"strings"
	"sync"
	"testing"
)

func TestAppendStringSemantics(t *testing.T) {
	const SCRIPT = `
	function build(n, piece) {
		let s = "";
		for (let i = 0; i < n; i++) s += piece(i);
		return s;
	}
	const long = build(1000, i => i + ",");
	let expected = [];
	for (let i = 0; i < 1000; i++) expected.push(i + ",");
	assert.sameValue(long, expected.join(""), "+= loop");
	assert.sameValue(long.length, expected.join("").length, "length");

	// Two strings grown from the same prefix do not see each other's tail.
	const a = long + "A", b = long + "B", c = long + "C";
	assert.sameValue(a.slice(-2), ",A", "a");
	assert.sameValue(b.slice(-2), ",B", "b");
	assert.sameValue(c.slice(-2), ",C", "c");
	assert.sameValue(a.length, long.length + 1, "a length");
	assert.sameValue(long.slice(-4), "999,", "the prefix is unchanged");
	const a2 = a + "x", b2 = b + "y";
	assert.sameValue(a2.slice(-3), ",Ax", "a2");
	assert.sameValue(b2.slice(-3), ",By", "b2");

	// Equality, comparison, keys and hashing see the contents only.
	const flat = expected.join("");
	assert(long === flat, "===");
	assert(flat === long, "=== reversed");
	assert(long == flat, "==");
	assert(!(long < flat) && !(long > flat), "< >");
	assert(long + "a" < long + "b", "<");
	const o = {}; o[long] = 1;
	assert.sameValue(o[flat], 1, "property key");
	const m = new Map([[long, 2]]);
	assert.sameValue(m.get(flat), 2, "Map key");
	assert(new Set([flat]).has(long), "Set key");
	switch (flat) { case long: break; default: throw new Error("switch") }
	assert.sameValue(typeof long, "string", "typeof");
	assert.sameValue(long.charCodeAt(1), 44, "charCodeAt");
	assert.sameValue(long[1], ",", "index");
	assert.sameValue(long.indexOf("999,"), long.length - 4, "indexOf");
	assert.sameValue(JSON.parse(JSON.stringify(long)), flat, "JSON");
	assert.sameValue(Object(long).length, long.length, "String object");
	assert.sameValue([...long.slice(0, 4)].join("|"), "0|,|1|,", "iteration");
	assert.sameValue(long.concat("x", 1, null), flat + "x1null", "concat");

	// Doubling appends the string to itself.
	let d = "x".repeat(300);
	for (let i = 0; i < 4; i++) d += d;
	assert.sameValue(d, "x".repeat(4800), "s += s");

	// Non-ASCII pieces: the buffer turns UTF-16 once, earlier prefixes stay ASCII.
	const u1 = long + "é";
	const u2 = u1 + "abc" + "😀";
	assert.sameValue(u2.length, long.length + 1 + 3 + 2, "unicode length");
	assert.sameValue(u2.slice(-6), "éabc😀", "unicode tail");
	assert.sameValue(long + "é", u1, "unicode ===");
	assert(long.slice(-4) === "999,", "the ASCII prefix is unchanged");
	const u3 = u1 + "z";
	assert.sameValue(u3.slice(-2), "éz", "sibling of a unicode prefix");
	assert.sameValue(u2.slice(-6), "éabc😀", "the first branch is unchanged");
	assert.sameValue(u2.slice(0, long.length), long, "an ASCII substring of a UTF-16 buffer");
	assert.sameValue(u2.slice(0, long.length) === long, true, "and it compares equal");

	// Template literals append too, from the first piece.
	let t = "";
	for (let i = 0; i < 500; i++) t = ` + "`${t}${i};`" + `;
	let tt = ""; for (let i = 0; i < 500; i++) tt += i + ";";
	assert.sameValue(t, tt, "template literal");
	assert.sameValue(` + "`[${long}]`" + `, "[" + flat + "]", "template around a built string");

	// String.prototype.concat onto a built string.
	let k = long;
	for (let i = 0; i < 100; i++) k = k.concat(i, "|");
	let kk = flat; for (let i = 0; i < 100; i++) kk += i + "|";
	assert.sameValue(k, kk, "concat loop");
	`
	testScriptWithTestLib(SCRIPT, _undefined, t)
}

// A += loop appends in place: every result of the loop shares one buffer.
func TestAppendStringAppendsInPlace(t *testing.T) {
	vm := New()
	v, err := vm.RunString(`let s = ""; const parts = []; for (let i = 0; i < 2000; i++) { s += i + ","; if (i % 500 === 499) parts.push(s) } parts`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.(*Object)
	var bufs []*appendBuf
	for i := 0; i < 4; i++ {
		s, ok := arr.Get(intToValue(int64(i)).String()).(*appendString)
		if !ok {
			t.Fatalf("element %d is %T, want *appendString", i, arr.Get(intToValue(int64(i)).String()))
		}
		bufs = append(bufs, s.buf)
	}
	for i, b := range bufs {
		if b != bufs[0] {
			t.Fatalf("prefix %d has its own buffer: the loop copied", i)
		}
	}
}

func TestAppendStringKeepsUnicodeInvariant(t *testing.T) {
	// A unicodeString always holds a non-ASCII code unit; the UTF-16 buffer
	// starts with the first non-ASCII piece, so every view of it does too.
	vm := New()
	v, err := vm.RunString(`const p = "a".repeat(300); const x = p + "é"; const y = x + "b"; [p, x, y]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := v.(*Object)
	for i, want := range []bool{true, false, false} {
		a, u := devirtualizeString(arr.Get(intToValue(int64(i)).String()).(String))
		if (u == nil) != want {
			t.Fatalf("element %d: ascii %v, want %v", i, u == nil, want)
		}
		if u != nil && !strings.ContainsFunc(u.String(), func(r rune) bool { return r >= 0x80 }) {
			t.Fatalf("element %d is a unicodeString of ASCII %q", i, a)
		}
	}
}

// Strings may be shared between runtimes: concatenating onto the same
// appendString from several goroutines gives each its own result.
func TestAppendStringConcurrentAppends(t *testing.T) {
	base := concatTwo(asciiString(strings.Repeat("b", appendMin)), asciiString("!"))
	var wg sync.WaitGroup
	results := make([]String, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := base
			for i := 0; i < 1000; i++ {
				s = concatTwo(s, asciiString(string(rune('a'+g))))
			}
			results[g] = s
		}()
	}
	wg.Wait()
	for g, s := range results {
		want := strings.Repeat("b", appendMin) + "!" + strings.Repeat(string(rune('a'+g)), 1000)
		if s.String() != want {
			t.Fatalf("goroutine %d: got a string of %d bytes that differs", g, len(s.String()))
		}
	}
	if base.String() != strings.Repeat("b", appendMin)+"!" {
		t.Fatal("the shared prefix changed")
	}
}

func BenchmarkAppendStringLoop(b *testing.B) {
	for _, n := range []int{100_000, 300_000, 1_000_000} {
		b.Run(intToValue(int64(n)).String(), func(b *testing.B) {
			vm := New()
			prg := MustCompile("bench.js", `(() => { let s = ""; for (let i = 0; i < N; i++) s += i + ","; return s.length })()`, false)
			vm.Set("N", n)
			for i := 0; i < b.N; i++ {
				if _, err := vm.RunProgram(prg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
