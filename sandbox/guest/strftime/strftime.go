// Package strftime formats times as C's strftime does in the C locale,
// with the GNU flags: the guest's date +FORMAT and its shell's printf
// %(FORMAT)T both format with it (date with GNU date's additions).
//
// It imports only the standard library: the guest's interpreter
// (sandbox/guest/internal/sh/interp, a fork of mvdan.cc/sh's) imports it,
// and the fork's packages keep to upstream's dependencies and ours.
package strftime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Format formats t by format as C's strftime does (printf's %(...)T). A
// conversion is %, then any of the GNU flags - (no padding), _ (pad with
// spaces), 0 (pad with zeros), ^ (upper case) and # (swap case), then
// optionally the modifiers E or O (accepted and ignored, as in the C
// locale), then the conversion character. Field widths are not
// supported: a conversion with one, like an unknown conversion, is
// copied as it is, as glibc copies what it does not know.
func Format(format string, t time.Time) string {
	return format1(format, t, false)
}

// FormatDate formats as GNU date +FORMAT does: Format's conversions and
// date's own %N (nanoseconds) and %:z (zone offset with a colon).
func FormatDate(format string, t time.Time) string {
	return format1(format, t, true)
}

func format1(format string, t time.Time, gnuDate bool) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		start := i
		i++
		var f flags
		for ; i+1 < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0; i++ {
			switch c := format[i]; c {
			case '^':
				f.upper = true
			case '#':
				f.swap = true
			default:
				f.pad = c
			}
		}
		for i+1 < len(format) && (format[i] == 'E' || format[i] == 'O') {
			i++
		}
		s, ok := "", false
		switch {
		case gnuDate && format[i] == ':' && i+1 < len(format) && format[i+1] == 'z':
			s, ok = t.Format("-07:00"), true
			i++
		case gnuDate && format[i] == 'N':
			s, ok = fmt.Sprintf("%09d", t.Nanosecond()), true
		default:
			s, ok = conversion(t, format[i], f)
		}
		if !ok {
			s = format[start : i+1]
		}
		b.WriteString(s)
	}
	return b.String()
}

// flags are a conversion's GNU flags.
type flags struct {
	pad         byte // '-', '_', '0' or 0 for the conversion's own
	upper, swap bool
}

// num formats n at width with the flag's padding, or def's.
func (f flags) num(n, width int, def byte) string {
	s := strconv.Itoa(n)
	pad := f.pad
	if pad == 0 {
		pad = def
	}
	switch pad {
	case '-':
		return s
	case '_':
		return strings.Repeat(" ", max(width-len(s), 0)) + s
	}
	return strings.Repeat("0", max(width-len(s), 0)) + s
}

// name applies ^ and # to a name: # makes %a %A %b %B %h upper case and
// %p %Z lower case, as glibc does.
func (f flags) name(s string, swapLower bool) string {
	switch {
	case f.swap && swapLower:
		return strings.ToLower(s)
	case f.upper || f.swap:
		return strings.ToUpper(s)
	}
	return s
}

func conversion(t time.Time, c byte, f flags) (string, bool) {
	if s, ok := numeric(t, c, f); ok {
		return s, true
	}
	switch c {
	case 'a':
		return f.name(t.Format("Mon"), false), true
	case 'A':
		return f.name(t.Format("Monday"), false), true
	case 'b', 'h':
		return f.name(t.Format("Jan"), false), true
	case 'B':
		return f.name(t.Format("January"), false), true
	case 'p':
		return f.name(t.Format("PM"), true), true
	case 'P':
		return strings.ToLower(t.Format("PM")), true
	case 'Z':
		return f.name(t.Format("MST"), true), true
	case 'z':
		return t.Format("-0700"), true
	case 'F':
		return t.Format("2006-01-02"), true
	case 'T', 'X':
		return t.Format("15:04:05"), true
	case 'R':
		return t.Format("15:04"), true
	case 'D', 'x':
		return t.Format("01/02/06"), true
	case 'r':
		return t.Format("03:04:05 PM"), true
	case 'c':
		if f.upper { // # leaves %c as it is
			return strings.ToUpper(t.Format("Mon Jan _2 15:04:05 2006")), true
		}
		return t.Format("Mon Jan _2 15:04:05 2006"), true
	case 'n':
		return "\n", true
	case 't':
		return "\t", true
	case '%':
		return "%", true
	}
	return "", false
}

// numeric formats the conversions that are numbers.
func numeric(t time.Time, c byte, f flags) (string, bool) {
	hour12 := (t.Hour()+11)%12 + 1
	switch c {
	case 'Y':
		return f.num(t.Year(), 1, '0'), true
	case 'C':
		return f.num(t.Year()/100, 2, '0'), true
	case 'y':
		return f.num(t.Year()%100, 2, '0'), true
	case 'm':
		return f.num(int(t.Month()), 2, '0'), true
	case 'd':
		return f.num(t.Day(), 2, '0'), true
	case 'e':
		return f.num(t.Day(), 2, '_'), true
	case 'H':
		return f.num(t.Hour(), 2, '0'), true
	case 'k':
		return f.num(t.Hour(), 2, '_'), true
	case 'I':
		return f.num(hour12, 2, '0'), true
	case 'l':
		return f.num(hour12, 2, '_'), true
	case 'M':
		return f.num(t.Minute(), 2, '0'), true
	case 'S':
		return f.num(t.Second(), 2, '0'), true
	case 'j':
		return f.num(t.YearDay(), 3, '0'), true
	case 'u':
		return strconv.Itoa((int(t.Weekday())+6)%7 + 1), true
	case 'w':
		return strconv.Itoa(int(t.Weekday())), true
	case 'U':
		return f.num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0'), true
	case 'W':
		return f.num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0'), true
	case 'V':
		_, week := t.ISOWeek()
		return f.num(week, 2, '0'), true
	case 'G':
		year, _ := t.ISOWeek()
		return f.num(year, 1, '0'), true
	case 'g':
		year, _ := t.ISOWeek()
		return f.num(year%100, 2, '0'), true
	case 's':
		return strconv.FormatInt(t.Unix(), 10), true
	}
	return "", false
}
