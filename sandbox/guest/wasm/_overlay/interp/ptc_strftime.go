// This file is ptc's, not mvdan.cc/sh's: the sandbox guest build adds it
// to the interp package (see sandbox/guest/wasm/gen).

package interp

import (
	"fmt"
	"strings"
	"time"
)

// strftime formats t like C's strftime in the C locale, for printf's
// %(fmt)T. Unknown conversions are copied as they are.
func strftime(format string, t time.Time) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			sb.WriteByte(format[i])
			continue
		}
		i++
		c := format[i]
		for (c == '-' || c == '_' || c == '0' || c == 'E' || c == 'O') && i+1 < len(format) {
			i++ // GNU flags and modifiers: accepted, not honoured
			c = format[i]
		}
		sb.WriteString(strftimeField(c, t))
	}
	return sb.String()
}

func strftimeField(c byte, t time.Time) string {
	switch c {
	case 'a':
		return t.Format("Mon")
	case 'A':
		return t.Format("Monday")
	case 'b', 'h':
		return t.Format("Jan")
	case 'B':
		return t.Format("January")
	case 'c':
		return t.Format("Mon Jan _2 15:04:05 2006")
	case 'C':
		return fmt.Sprintf("%02d", t.Year()/100)
	case 'd':
		return fmt.Sprintf("%02d", t.Day())
	case 'D':
		return t.Format("01/02/06")
	case 'e':
		return fmt.Sprintf("%2d", t.Day())
	case 'F':
		return t.Format("2006-01-02")
	case 'g':
		y, _ := t.ISOWeek()
		return fmt.Sprintf("%02d", y%100)
	case 'G':
		y, _ := t.ISOWeek()
		return fmt.Sprint(y)
	case 'H':
		return fmt.Sprintf("%02d", t.Hour())
	case 'I':
		return fmt.Sprintf("%02d", (t.Hour()+11)%12+1)
	case 'j':
		return fmt.Sprintf("%03d", t.YearDay())
	case 'k':
		return fmt.Sprintf("%2d", t.Hour())
	case 'l':
		return fmt.Sprintf("%2d", (t.Hour()+11)%12+1)
	case 'm':
		return fmt.Sprintf("%02d", int(t.Month()))
	case 'M':
		return fmt.Sprintf("%02d", t.Minute())
	case 'n':
		return "\n"
	case 'p':
		return t.Format("PM")
	case 'P':
		return strings.ToLower(t.Format("PM"))
	case 'r':
		return t.Format("03:04:05 PM")
	case 'R':
		return t.Format("15:04")
	case 's':
		return fmt.Sprint(t.Unix())
	case 'S':
		return fmt.Sprintf("%02d", t.Second())
	case 't':
		return "\t"
	case 'T', 'X':
		return t.Format("15:04:05")
	case 'u':
		return fmt.Sprint((int(t.Weekday())+6)%7 + 1)
	case 'U':
		return fmt.Sprintf("%02d", (t.YearDay()+6-int(t.Weekday()))/7)
	case 'V':
		_, w := t.ISOWeek()
		return fmt.Sprintf("%02d", w)
	case 'w':
		return fmt.Sprint(int(t.Weekday()))
	case 'W':
		return fmt.Sprintf("%02d", (t.YearDay()+6-(int(t.Weekday())+6)%7)/7)
	case 'x':
		return t.Format("01/02/06")
	case 'y':
		return fmt.Sprintf("%02d", t.Year()%100)
	case 'Y':
		return fmt.Sprint(t.Year())
	case 'z':
		return t.Format("-0700")
	case 'Z':
		return t.Format("MST")
	case '%':
		return "%"
	}
	return "%" + string(c)
}
