package strftime

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// when is 1972-09-27 00:00:00 UTC, a Wednesday.
var when = time.Unix(86400000, 0).UTC()

func TestFormat(t *testing.T) {
	cases := []struct {
		name, format, want string
	}{
		{"fields pad as C's strftime pads them", "%Y-%m-%d %H:%M:%S %j %e %k %I %l", "1972-09-27 00:00:00 271 27  0 12 12"},
		{"names are the C locale's", "%a %A %b %B %h %p %P %Z %z", "Wed Wednesday Sep September Sep AM am UTC +0000"},
		{"composites", "%F %T %R %D %x %X %r|%c", "1972-09-27 00:00:00 00:00 09/27/72 09/27/72 00:00:00 12:00:00 AM|Wed Sep 27 00:00:00 1972"},
		{"weeks and weekdays", "%u %w %U %W %V %G %g %C %y", "3 3 39 39 39 1972 72 19 72"},
		{"the last padding flag wins", "%-m|%_m|%0e|%-_d|%_-e", "9| 9|27|27|27"},
		{"^ upper-cases and # swaps case as glibc does", "%^a|%#a|%#p|%#Z|%^p|%^c|%#c", "WED|WED|am|utc|AM|WED SEP 27 00:00:00 1972|Wed Sep 27 00:00:00 1972"},
		{"E and O modifiers are ignored", "%EY|%Od|%Ex", "1972|27|09/27/72"},
		{"unknown conversions and widths are copied", "%Q|%-Q|%5d|%", "%Q|%-Q|%5d|%"},
		{"C's strftime has no %N or %:z", "%N|%:z", "%N|%:z"},
		{"escapes", "a%%b%tc%nd", "a%b\tc\nd"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Format(c.format, when); got != c.want {
				t.Fatalf("Format(%q) = %q, want %q", c.format, got, c.want)
			}
		})
	}
}

func TestFormatDateAddsGNUDatesConversions(t *testing.T) {
	tm := time.Date(2024, 2, 29, 13, 4, 5, 6007, time.FixedZone("X", 5*3600+30*60))
	if got, want := FormatDate("%N|%:z|%z|%-d", tm), "000006007|+05:30|+0530|29"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestFormatDateMatchesGNUDate formats a spread of times with every
// conversion both support and compares with the host's GNU date.
func TestFormatDateMatchesGNUDate(t *testing.T) {
	date := sharedtest.Tool(t, "date")
	if out, err := exec.Command(date, "--version").Output(); err != nil || !strings.Contains(string(out), "GNU") {
		t.Skip("date is not GNU date")
	}
	formats := strings.Fields("%Y%m%d%H%M%S %j|%e|%k|%I|%l|%C|%y %a%A%b%B%h%p%P%Z%z%:z %F%T%R%D%x%X%r %c " +
		"%u%w%U%W%V%G%g %s|%N %-m|%_m|%0e|%-j|%_H %^a|%#a|%#p|%#Z|%^B %EY|%Od")
	for _, secs := range []int64{0, 86400000, 951782400, 1104537599, 1230768000, 1709208245, 4102444799, -86400 * 400} {
		tm := time.Unix(secs, 0).UTC()
		for _, f := range formats {
			out, err := exec.Command(date, "-u", "-d", "@"+strconv.FormatInt(secs, 10), "+"+f).Output()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := FormatDate(f, tm), strings.TrimSuffix(string(out), "\n"); got != want {
				t.Errorf("at %d, %q: got %q, date says %q", secs, f, got, want)
			}
		}
	}
}
