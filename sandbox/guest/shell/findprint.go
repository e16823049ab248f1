package shell

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ls prints one -ls line.
func (w *findWalk) ls(e *findEntry) {
	fi, err := e.info()
	if err != nil {
		return
	}
	st := statOf(fi)
	fmt.Fprintf(w.out, "%9d %6d %s %3d %-8s %-8s %8d %s %s\n", st.ino, (st.blocks+1)/2, modeString(fi.Mode()), st.nlink,
		ownerName(w.c, st), groupName(w.c, st), fi.Size(), lsTime(fi.ModTime()), e.shown)
}

// printf expands a -printf format for e.
func (w *findWalk) printf(format string, e *findEntry) string {
	var b strings.Builder
	fi, _ := e.info()
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' && i+1 < len(format) {
			i++
			switch format[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(format[i])
			}
			continue
		}
		if ch != '%' || i+1 == len(format) {
			b.WriteByte(ch)
			continue
		}
		i++
		switch format[i] {
		case 'p':
			b.WriteString(e.shown)
		case 'f':
			b.WriteString(path.Base(e.shown))
		case 'h':
			b.WriteString(path.Dir(e.shown))
		case 'P':
			b.WriteString(strings.TrimPrefix(strings.TrimPrefix(e.shown, rootOf(e.shown, e.depth)), "/"))
		case 'd':
			b.WriteString(strconv.Itoa(e.depth))
		case 'y':
			b.WriteString(typeLetter(e.d.Type()))
		case 's':
			if fi != nil {
				b.WriteString(strconv.FormatInt(fi.Size(), 10))
			}
		case 'm':
			if fi != nil {
				b.WriteString(strconv.FormatUint(uint64(unixPerm(fi.Mode())), 8))
			}
		case 'M':
			if fi != nil {
				b.WriteString(modeString(fi.Mode()))
			}
		case 't':
			if fi != nil {
				b.WriteString(fi.ModTime().Format("Mon Jan _2 15:04:05.0000000000 2006"))
			}
		case 'T':
			if i+1 < len(format) && fi != nil {
				i++
				b.WriteString(findTime(fi.ModTime(), format[i]))
			}
		case 'u', 'g':
			if fi != nil {
				b.WriteString(ownerName(w.c, statOf(fi)))
			}
		case 'l':
			if e.d.Type()&fs.ModeSymlink != 0 {
				t, _ := os.Readlink(e.full)
				b.WriteString(t)
			}
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

// rootOf returns the starting point a path at depth was found under.
func rootOf(shown string, depth int) string {
	for range depth {
		shown = path.Dir(shown)
	}
	return shown
}

func typeLetter(m fs.FileMode) string {
	for _, t := range "dlpscb" {
		if typeMatches(byte(t), m) {
			return string(t)
		}
	}
	return "f"
}

func findTime(t time.Time, k byte) string {
	switch k {
	case '@':
		return fmt.Sprintf("%d.%010d", t.Unix(), t.Nanosecond()*10)
	case 'Y':
		return t.Format("2006")
	case 'm':
		return t.Format("01")
	case 'd':
		return t.Format("02")
	case 'H':
		return t.Format("15")
	case 'M':
		return t.Format("04")
	case 'S':
		return t.Format("05")
	case 'F':
		return t.Format("2006-01-02")
	case 'T':
		return t.Format("15:04:05")
	case '+':
		return t.Format("2006-01-02+15:04:05")
	}
	return ""
}

// starSlashRegexp compiles a find -path pattern, where * also matches '/',
// once for the whole walk.
func starSlashRegexp(pat string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pat {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func sizeTest(v string) findTest {
	cmp := 0
	switch v[0] {
	case '+':
		cmp, v = 1, v[1:]
	case '-':
		cmp, v = -1, v[1:]
	}
	unit := int64(512)
	if n := len(v); n > 0 {
		switch v[n-1] {
		case 'c':
			unit, v = 1, v[:n-1]
		case 'w':
			unit, v = 2, v[:n-1]
		case 'b':
			v = v[:n-1]
		case 'k':
			unit, v = 1024, v[:n-1]
		case 'M':
			unit, v = 1<<20, v[:n-1]
		case 'G':
			unit, v = 1<<30, v[:n-1]
		}
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return func(_ *findWalk, e *findEntry) bool {
		info, err := e.info()
		if err != nil {
			return false
		}
		size := (info.Size() + unit - 1) / unit
		return (cmp == 0 && size == n) || (cmp > 0 && size > n) || (cmp < 0 && size < n)
	}
}

func ageTest(v string, minutes bool) findTest {
	cmp := 0
	switch v[0] {
	case '+':
		cmp, v = 1, v[1:]
	case '-':
		cmp, v = -1, v[1:]
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	unit := 24 * time.Hour
	if minutes {
		unit = time.Minute
	}
	return func(_ *findWalk, e *findEntry) bool {
		info, err := e.info()
		if err != nil {
			return false
		}
		age := int64(time.Since(info.ModTime()) / unit)
		return (cmp == 0 && age == n) || (cmp > 0 && age > n) || (cmp < 0 && age < n)
	}
}
