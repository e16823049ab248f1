package shell

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

var sortCommands = map[string]builtinFunc{"sort": sortCmd}

// sortOrder is how a key compares: the letters bdfghinMrV of GNU sort.
type sortOrder struct {
	blanks, dict, fold, general, human, numeric, month, reverse, version, nonprint bool
}

func (s *sortOrder) set(letters string) error {
	for _, l := range letters {
		switch l {
		case 'b':
			s.blanks = true
		case 'd':
			s.dict = true
		case 'f':
			s.fold = true
		case 'g':
			s.general = true
		case 'h':
			s.human = true
		case 'i':
			s.nonprint = true
		case 'n':
			s.numeric = true
		case 'M':
			s.month = true
		case 'r':
			s.reverse = true
		case 'V':
			s.version = true
		default:
			return fmt.Errorf("invalid key ordering option '%c'", l)
		}
	}
	return nil
}

func (s sortOrder) any() bool { return s != sortOrder{} }

// sortKeyDef is one -k POS1[,POS2]: fields and characters 1-based, end 0
// meaning the end of the line (or of the field when endChar is 0).
type sortKeyDef struct {
	startField, startChar int
	endField, endChar     int
	startBlanks, endBlank bool
	order                 sortOrder
}

// parseSortKey reads F[.C][OPTS][,F[.C][OPTS]].
func parseSortKey(spec string, global sortOrder) (sortKeyDef, error) {
	k := sortKeyDef{startChar: 1}
	from, to, hasTo := strings.Cut(spec, ",")
	pos := func(s string) (field, char int, opts string, err error) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if field, err = strconv.Atoi(s[:i]); err != nil {
			return 0, 0, "", fmt.Errorf("invalid number at field start: invalid count at start of '%s'", spec)
		}
		s = s[i:]
		if strings.HasPrefix(s, ".") {
			j := 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if char, err = strconv.Atoi(s[1:j]); err != nil {
				return 0, 0, "", fmt.Errorf("invalid number after '.': invalid count at start of '%s'", s)
			}
			s = s[j:]
		}
		return field, char, s, nil
	}
	f, ch, opts, err := pos(from)
	if err != nil {
		return k, err
	}
	if f < 1 {
		return k, errors.New("invalid number at field start: invalid count at start of '" + spec + "'")
	}
	k.startField = f
	if ch > 0 {
		k.startChar = ch
	}
	if err := k.order.set(opts); err != nil {
		return k, err
	}
	k.startBlanks = strings.Contains(opts, "b")
	if hasTo {
		f, ch, opts2, err := pos(to)
		if err != nil {
			return k, err
		}
		k.endField, k.endChar = f, ch
		if err := k.order.set(opts2); err != nil {
			return k, err
		}
		k.endBlank = strings.Contains(opts2, "b")
		opts += opts2
	}
	if opts == "" || opts == "b" && !k.order.any() {
		blanks := k.order.blanks
		k.order = global
		k.order.blanks = k.order.blanks || blanks
		k.startBlanks = k.startBlanks || global.blanks
		k.endBlank = k.endBlank || global.blanks
	}
	return k, nil
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func skipBlanks(line string, i, end int) int {
	for i < end && isBlank(line[i]) {
		i++
	}
	return i
}

// leadingNumber parses the number at the start of s after blanks (0 when
// none), as sort -n does: optional minus, digits, one decimal point.
func leadingNumber(s string) float64 {
	s = strings.TrimLeft(s, " \t")
	end := 0
	if end < len(s) && s[end] == '-' {
		end++
	}
	dot := false
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' && !dot) {
		dot = dot || s[end] == '.'
		end++
	}
	f, _ := strconv.ParseFloat(s[:end], 64)
	return f
}

// humanNumber orders 2K < 1M: the suffix first, then the number.
func humanNumber(s string) (int, float64) {
	s = strings.TrimLeft(s, " \t")
	n := leadingNumber(s)
	rest := strings.TrimLeft(s, "-0123456789.")
	mag := 0
	if rest != "" {
		u := rest[0]
		if u == 'k' {
			u = 'K'
		}
		mag = strings.IndexByte("KMGTPEZY", u) + 1
	}
	if n < 0 {
		mag = -mag
	}
	return mag, n
}

var months = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func monthOf(s string) int {
	s = strings.ToUpper(strings.TrimLeft(s, " \t"))
	for i, m := range months {
		if strings.HasPrefix(s, m) {
			return i + 1
		}
	}
	return 0
}

// versionCompare orders version strings: runs of digits compare as
// numbers, everything else byte by byte, '~' before anything.
func versionCompare(a, b string) int {
	for a != "" || b != "" {
		na, ra := splitNonDigits(a)
		nb, rb := splitNonDigits(b)
		if c := compareNonDigits(na, nb); c != 0 {
			return c
		}
		da, ra2 := splitDigits(ra)
		db, rb2 := splitDigits(rb)
		da, db = strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
		if len(da) != len(db) {
			return cmpInt(len(da), len(db))
		}
		if c := strings.Compare(da, db); c != 0 {
			return c
		}
		a, b = ra2, rb2
	}
	return 0
}

func splitNonDigits(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] < '0' || s[i] > '9') {
		i++
	}
	return s[:i], s[i:]
}

func splitDigits(s string) (string, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

func versionRank(c byte, present bool) int {
	switch {
	case !present:
		return 0
	case c == '~':
		return -1
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return int(c)
	}
	return int(c) + 256
}

func compareNonDigits(a, b string) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var ca, cb byte
		if i < len(a) {
			ca = a[i]
		}
		if i < len(b) {
			cb = b[i]
		}
		if r := cmpInt(versionRank(ca, i < len(a)), versionRank(cb, i < len(b))); r != 0 {
			return r
		}
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortVal is a key prepared once per line for comparing.
type sortVal struct {
	s   string
	n   float64
	mag int
	ok  bool
}

// prepare turns a key's text into what o compares.
func (o sortOrder) prepare(s string) sortVal {
	if o.blanks {
		s = strings.TrimLeft(s, " \t")
	}
	switch {
	case o.numeric:
		return sortVal{n: leadingNumber(s)}
	case o.general:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return sortVal{n: f, ok: err == nil}
	case o.human:
		mag, n := humanNumber(s)
		return sortVal{n: n, mag: mag}
	case o.month:
		return sortVal{mag: monthOf(s)}
	case o.version:
		return sortVal{s: s}
	}
	if o.dict || o.nonprint {
		s = strings.Map(func(r rune) rune {
			if o.dict && !(r == ' ' || r == '\t' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return -1
			}
			if o.nonprint && (r < 32 || r == 127) {
				return -1
			}
			return r
		}, s)
	}
	if o.fold {
		s = strings.ToUpper(s)
	}
	return sortVal{s: s}
}

// compareVals orders two prepared keys by o (reverse not applied).
func (o sortOrder) compareVals(a, b sortVal) int {
	switch {
	case o.numeric:
		return cmpFloat(a.n, b.n)
	case o.general:
		if !a.ok || !b.ok {
			return cmpInt(boolInt(a.ok), boolInt(b.ok))
		}
		return cmpFloat(a.n, b.n)
	case o.human:
		if a.mag != b.mag {
			return cmpInt(a.mag, b.mag)
		}
		return cmpFloat(a.n, b.n)
	case o.month:
		return cmpInt(a.mag, b.mag)
	case o.version:
		return versionCompare(a.s, b.s)
	}
	return strings.Compare(a.s, b.s)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sortCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "bdfghinMrVk:t:uo:cszS:T:", permute: true, long: map[string]string{
		"buffer-size=": "S", "temporary-directory=": "T", "parallel=": "parallel", // accepted, no effect
		"ignore-leading-blanks": "b", "dictionary-order": "d", "ignore-case": "f", "general-numeric-sort": "g",
		"human-numeric-sort": "h", "numeric-sort": "n", "month-sort": "M", "reverse": "r", "version-sort": "V",
		"key=": "k", "field-separator=": "t", "unique": "u", "output=": "o", "check": "c", "stable": "s", "zero-terminated": "z",
	}}.parse(args)
	if err != nil {
		c.usage(err)
		return 2
	}
	var global sortOrder
	for _, f := range "bdfghinMrV" {
		if o.has(string(f)) {
			global.set(string(f))
		}
	}
	var keys []sortKeyDef
	for _, spec := range o.vals["k"] {
		k, err := parseSortKey(spec, global)
		if err != nil {
			c.fail("%v", err)
			return 2
		}
		keys = append(keys, k)
	}
	sep := o.val("t")
	if sep == `\0` {
		sep = "\x00"
	}
	lineEnd := byte('\n')
	if o.has("z") {
		lineEnd = 0
	}
	spec := &sortSpec{keys: keys, global: global, sep: sep, tiesInOrder: o.has("s") || o.has("u"),
		plain: len(keys) == 0 && (global == sortOrder{} || global == sortOrder{reverse: true})}
	budget := sortBudget
	if o.has("c") {
		budget = math.MaxInt // -c looks at neighbours only, but keeps it simple
	}
	sm := &sortMerge{c: c, lineEnd: lineEnd, budget: budget, makeRec: spec.makeRec, full: spec.full, tmpDir: o.val("T"),
		plain: spec.plain && !o.has("c"), reverse: global.reverse, oneKey: spec.oneBytewiseKey(), oneKeyTies: spec.tiesInOrder}
	sm.oneNumeric, sm.numReverse = spec.oneNumericKey()
	defer sm.cleanup()
	st := c.forEachInput(o.args, sm.add)
	if sm.err != nil {
		return 2 // a run could not be written; forEachInput said why
	}
	if st != 0 && sm.empty() {
		return 2
	}
	recs := sm.recs
	if o.has("c") {
		for i := 1; i < len(recs); i++ {
			if r := spec.full(&recs[i-1], &recs[i]); r > 0 || r == 0 && o.has("u") {
				c.fail("%s:%d: disorder: %s", orDefault(strings.Join(o.args, ""), "-"), i+1, recs[i].line)
				return 1
			}
		}
		return 0
	}
	dest := c.stdout
	if f := o.val("o"); f != "" {
		w, err := c.openWrite(f, os.O_TRUNC)
		if err != nil {
			c.fail("open failed: %s: %s", f, errText(err))
			return 2
		}
		defer w.Close()
		dest = w
	}
	// A large buffer: in the guest each flush is a call to the host (on
	// stdout the command's own buffer, not a second one in front of it).
	bw := c.bufOut()
	if dest != c.stdout {
		bw = bufio.NewWriterSize(dest, 64<<10)
	}
	defer bw.Flush()
	unique := o.has("u")
	var prev sortRec
	seen := false
	err = sm.each(func(r *sortRec) {
		if unique && seen && spec.cmp(&prev, r) == 0 {
			return
		}
		bw.WriteString(r.line)
		bw.WriteByte(lineEnd)
		prev, seen = *r, true
	})
	if err != nil {
		c.fail("%v", err)
		return 2
	}
	if st != 0 {
		return 2
	}
	return 0
}
