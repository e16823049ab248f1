package shell

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/sandbox/guest/strftime"
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
	fmt.Fprintln(c.stdout, strftime.FormatDate(format, t))
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
