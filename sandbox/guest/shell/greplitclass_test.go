package shell

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"testing"
)

// TestLitClassMatcherFindsWhatRegexpFinds holds the literal-and-run
// matcher to the standard library on random lines, and checks it refuses
// the patterns it cannot do.
func TestLitClassMatcherFindsWhatRegexpFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for _, expr := range []string{`(?:user=[a-z]*)`, `(?:id=[0-9]+)`, `(?:a[ab]*)`, `(?:ab+)`, `(?:=\d+)`} {
		m := newLitClassMatcher(regexp.MustCompile(expr).String())
		if m == nil {
			t.Fatalf("%s: not taken", expr)
		}
		re := regexp.MustCompile(expr)
		alphabet := "user=idab0123 xz\xff\n"
		for range 20000 {
			b := make([]byte, rng.IntN(30))
			for k := range b {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			}
			for _, n := range []int{-1, 1, 2} {
				got, want := m.FindAllIndex(b, n), re.FindAllIndex(b, n)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s on %q (n %d): %v, regexp %v", expr, b, n, got, want)
				}
			}
			if m.Match(b) != re.Match(b) {
				t.Fatalf("%s on %q: Match %v", expr, b, m.Match(b))
			}
		}
	}
	for _, expr := range []string{`(?i)(?:user=[a-z]*)`, `\b(?:id=[0-9]+)\b`, `(?:a[é]*)`, `(?:x=[^ ]*)`, `(?:a.*)`, `(?:a[a-z]*?)`, `(?:ab)`, `(?:[a-z]+)`, `(?:a)|(?:b+)`, `^(?:a[b]*)$`} {
		if newLitClassMatcher(regexp.MustCompile(expr).String()) != nil {
			t.Errorf("%s: taken", expr)
		}
	}
}
