package shell

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func date(c *cmd, args []string) int {
	loc := time.Local
	if tz := c.hc.Env.Get("TZ").String(); tz != "" {
		if l, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
			loc = l
		}
	}
	now := time.Now()
	var when *time.Time
	format := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, bool) {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
				return v, true
			}
			if len(a) > 2 && a[0] == '-' && a[1] != '-' {
				return a[2:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "-u" || a == "--utc" || a == "--universal":
			loc = time.UTC
		case strings.HasPrefix(a, "+"):
			format = a[1:]
		case a == "-I" || a == "--iso-8601" || a == "-Idate" || a == "--iso-8601=date":
			format = "%Y-%m-%d"
		case a == "-Iseconds" || a == "--iso-8601=seconds":
			format = "%Y-%m-%dT%H:%M:%S%:z"
		case a == "-Iminutes" || a == "--iso-8601=minutes":
			format = "%Y-%m-%dT%H:%M%:z"
		case a == "-Ihours" || a == "--iso-8601=hours":
			format = "%Y-%m-%dT%H%:z"
		case a == "-Ins" || a == "--iso-8601=ns":
			format = "%Y-%m-%dT%H:%M:%S,%N%:z"
		case a == "-R" || a == "--rfc-email" || a == "--rfc-2822":
			format = "%a, %d %b %Y %H:%M:%S %z"
		case a == "--rfc-3339=date":
			format = "%Y-%m-%d"
		case a == "--rfc-3339=seconds":
			format = "%Y-%m-%d %H:%M:%S%:z"
		case strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "--date"):
			v, ok := val()
			if !ok {
				return c.usage(errors.New("option requires an argument -- 'd'"))
			}
			t, err := parseDate(v, now, loc)
			if err != nil {
				return c.fail("invalid date '%s'", v)
			}
			when = &t
		case strings.HasPrefix(a, "-r") || strings.HasPrefix(a, "--reference"):
			v, ok := val()
			if !ok {
				return c.usage(errors.New("option requires an argument -- 'r'"))
			}
			fi, err := os.Stat(c.path(v))
			if err != nil {
				return c.fail("%s: %s", v, errText(err))
			}
			t := fi.ModTime()
			when = &t
		default:
			return c.fail("invalid argument '%s' (supported: -u, -d DATE, -r FILE, -I, -R, +FORMAT)", a)
		}
	}
	t := now
	if when != nil {
		t = *when
	}
	t = t.In(loc)
	if format == "" {
		format = "%a %b %e %H:%M:%S %Z %Y"
	}
	fmt.Fprintln(c.stdout, strftime(t, format))
	return 0
}

// dateLayouts are the absolute forms date -d reads, longest first.
var dateLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
	time.RFC1123Z, time.RFC1123, time.UnixDate, time.ANSIC, "Mon Jan _2 15:04:05 2006",
	"2006/01/02 15:04:05", "2006/01/02", "01/02/2006", "01/02/06",
	"Jan 2 2006 15:04:05", "Jan 2 2006 15:04", "Jan 2 2006", "Jan 2, 2006", "January 2 2006", "January 2, 2006",
	"2 Jan 2006", "2 January 2006", "02-Jan-2006", "20060102",
}

// parseDate reads the strings GNU date -d takes that agents write: an
// absolute date or time, @EPOCH, now/today/yesterday/tomorrow, a time of
// day, "N UNIT [ago]", "+N UNIT", "next|last UNIT|WEEKDAY", in any
// combination.
func parseDate(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		f, err := strconv.ParseFloat(s[1:], 64)
		if err != nil {
			return time.Time{}, err
		}
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)), nil
	}
	t := now.In(loc)
	words := strings.Fields(s)
	// the longest prefix of words that is an absolute date
	for n := len(words); n > 0; n-- {
		prefix := strings.Join(words[:n], " ")
		for _, layout := range dateLayouts {
			if p, err := time.ParseInLocation(layout, prefix, loc); err == nil {
				t, words = p, words[n:]
				n = 0
				break
			}
		}
	}
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		switch w {
		case "now":
			continue
		case "today":
			t = midnight(t)
			continue
		case "yesterday":
			t = t.AddDate(0, 0, -1)
			continue
		case "tomorrow":
			t = t.AddDate(0, 0, 1)
			continue
		case "utc", "z", "gmt":
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
			continue
		case "next", "last", "this":
			if i+1 >= len(words) {
				return time.Time{}, errors.New("missing unit")
			}
			i++
			n := map[string]int{"next": 1, "last": -1, "this": 0}[w]
			u := strings.ToLower(words[i])
			if wd, ok := weekday(u); ok {
				t = midnight(t)
				d := (int(wd) - int(t.Weekday()) + 7) % 7
				switch {
				case n > 0 && d == 0:
					d = 7
				case n < 0:
					d = -((int(t.Weekday()) - int(wd) + 7) % 7)
					if d == 0 {
						d = -7
					}
				}
				t = t.AddDate(0, 0, d)
				continue
			}
			var err error
			if t, err = addUnit(t, n, u); err != nil {
				return time.Time{}, err
			}
			continue
		}
		if clock, err := time.Parse("15:04:05", w); err == nil {
			t = time.Date(t.Year(), t.Month(), t.Day(), clock.Hour(), clock.Minute(), clock.Second(), 0, t.Location())
			continue
		}
		if clock, err := time.Parse("15:04", w); err == nil {
			t = time.Date(t.Year(), t.Month(), t.Day(), clock.Hour(), clock.Minute(), 0, 0, t.Location())
			continue
		}
		if wd, ok := weekday(w); ok {
			t = midnight(t)
			t = t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7)
			continue
		}
		numText, unit := w, ""
		if j := strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }); j > 0 {
			numText, unit = w[:j], w[j:]
		}
		n, err := strconv.Atoi(strings.TrimPrefix(numText, "+"))
		if err != nil {
			return time.Time{}, fmt.Errorf("unknown word '%s'", w)
		}
		if unit == "" {
			if i+1 >= len(words) {
				return time.Time{}, errors.New("missing unit")
			}
			i++
			unit = strings.ToLower(words[i])
		}
		if i+1 < len(words) && strings.ToLower(words[i+1]) == "ago" {
			n = -n
			i++
		}
		if t, err = addUnit(t, n, unit); err != nil {
			return time.Time{}, err
		}
	}
	return t, nil
}

func midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

func weekday(w string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if w == name || w == name[:3] {
			return d, true
		}
	}
	return 0, false
}

func addUnit(t time.Time, n int, unit string) (time.Time, error) {
	unit = strings.TrimSuffix(unit, "s")
	switch unit {
	case "sec", "second":
		return t.Add(time.Duration(n) * time.Second), nil
	case "min", "minute":
		return t.Add(time.Duration(n) * time.Minute), nil
	case "hour":
		return t.Add(time.Duration(n) * time.Hour), nil
	case "day":
		return t.AddDate(0, 0, n), nil
	case "week":
		return t.AddDate(0, 0, 7*n), nil
	case "fortnight":
		return t.AddDate(0, 0, 14*n), nil
	case "month":
		return t.AddDate(0, n, 0), nil
	case "year":
		return t.AddDate(n, 0, 0), nil
	}
	return t, fmt.Errorf("unknown unit '%s'", unit)
}

// strftime formats t as C's strftime does for the directives date
// supports, with the GNU flags - (no padding), _ (spaces) and 0.
func strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		pad := byte(0)
		if strings.IndexByte("-_0^#", format[i]) >= 0 && i+1 < len(format) {
			pad = format[i]
			i++
		}
		colon := false
		if format[i] == ':' && i+1 < len(format) && format[i+1] == 'z' {
			colon = true
			i++
		}
		b.WriteString(directive(t, format[i], pad, colon))
	}
	return b.String()
}

func num(n, width int, pad, def byte) string {
	s := strconv.Itoa(n)
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

func directive(t time.Time, d, pad byte, colon bool) string {
	_, week := t.ISOWeek()
	isoYear, _ := t.ISOWeek()
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	switch d {
	case 'Y':
		return strconv.Itoa(t.Year())
	case 'C':
		return num(t.Year()/100, 2, pad, '0')
	case 'y':
		return num(t.Year()%100, 2, pad, '0')
	case 'm':
		return num(int(t.Month()), 2, pad, '0')
	case 'd':
		return num(t.Day(), 2, pad, '0')
	case 'e':
		return num(t.Day(), 2, pad, '_')
	case 'H':
		return num(t.Hour(), 2, pad, '0')
	case 'k':
		return num(t.Hour(), 2, pad, '_')
	case 'I':
		return num(hour12, 2, pad, '0')
	case 'l':
		return num(hour12, 2, pad, '_')
	case 'M':
		return num(t.Minute(), 2, pad, '0')
	case 'S':
		return num(t.Second(), 2, pad, '0')
	case 'N':
		return fmt.Sprintf("%09d", t.Nanosecond())
	case 'j':
		return num(t.YearDay(), 3, pad, '0')
	case 'u':
		return strconv.Itoa((int(t.Weekday())+6)%7 + 1)
	case 'w':
		return strconv.Itoa(int(t.Weekday()))
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2, pad, '0')
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, pad, '0')
	case 'V':
		return num(week, 2, pad, '0')
	case 'G':
		return strconv.Itoa(isoYear)
	case 'g':
		return num(isoYear%100, 2, pad, '0')
	case 'a':
		return t.Format("Mon")
	case 'A':
		return t.Format("Monday")
	case 'b', 'h':
		return t.Format("Jan")
	case 'B':
		return t.Format("January")
	case 'p':
		return t.Format("PM")
	case 'P':
		return strings.ToLower(t.Format("PM"))
	case 'Z':
		return t.Format("MST")
	case 'z':
		if colon {
			return t.Format("-07:00")
		}
		return t.Format("-0700")
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case 'F':
		return t.Format("2006-01-02")
	case 'T', 'X':
		return t.Format("15:04:05")
	case 'R':
		return t.Format("15:04")
	case 'D', 'x':
		return t.Format("01/02/06")
	case 'r':
		return t.Format("03:04:05 PM")
	case 'c':
		return t.Format("Mon Jan _2 15:04:05 2006")
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '%':
		return "%"
	}
	return "%" + string(d)
}
