package shell

import (
	"errors"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// grepMatcher is what grep needs of a compiled pattern: the standard
// library's *regexp.Regexp (BRE, ERE, fixed strings) or pcreMatcher (-P).
type grepMatcher interface {
	Match(b []byte) bool
	FindAllIndex(b []byte, n int) [][]int
}

// pcreTimeout bounds one match of a -P pattern: backtracking engines can
// take exponential time, and grep must not wedge the guest.
const pcreTimeout = 2 * time.Second

// errPCRELimit is reported when a -P match runs past pcreTimeout, in
// GNU grep's words.
var errPCRELimit = errors.New("exceeded PCRE's backtracking limit")

// pcreMatcher runs Perl-style patterns (lookaround, \d, lazy quantifiers)
// with regexp2; the first match error is kept for grep to report.
type pcreMatcher struct {
	re  *regexp2.Regexp
	err error
}

func compilePCRE(o *opts, patterns []string) (*pcreMatcher, error) {
	var parts []string
	for _, p := range patterns {
		for _, line := range strings.Split(p, "\n") {
			parts = append(parts, "(?:"+line+")")
		}
	}
	expr := strings.Join(parts, "|")
	if o.has("w") {
		expr = `(?<![\w])(?:` + expr + `)(?![\w])`
	}
	if o.has("x") {
		expr = `^(?:` + expr + `)$`
	}
	var opts regexp2.RegexOptions
	if o.has("i") {
		opts |= regexp2.IgnoreCase
	}
	re, err := regexp2.Compile(expr, opts)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = pcreTimeout
	return &pcreMatcher{re: re}, nil
}

func (p *pcreMatcher) Match(b []byte) bool {
	ok, err := p.re.MatchString(string(b))
	if err != nil && p.err == nil {
		p.err = errPCRELimit
	}
	return ok
}

func (p *pcreMatcher) FindAllIndex(b []byte, n int) [][]int {
	idx, err := p.re.FindAllStringIndex(string(b), n)
	if err != nil && p.err == nil {
		p.err = errPCRELimit
	}
	return idx
}
