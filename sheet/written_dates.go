package sheet

// Values as pages and sheets write them: dates here, numbers and typed
// values in written_numbers.go. Package sheet is their one owner (it
// stays on the standard library, so calls may speak its cells); package
// recipe reads a page's lists with them too.

import (
	"strconv"
	"strings"
	"time"
)

var (
	// slashed is a date of numbers with slashes: 06/24/2012, 24/6/2012.
	slashed = lazyRE(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)
	// yearFirst is a date as Japanese, Chinese and Korean pages write it:
	// 2026年3月14日, 2026년 3월 14일.
	yearFirst = lazyRE(`^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?$`)
	agoRE     = lazyRE(`(?i)\b(an?|\d+)\s*(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago\b`)
	layout    = []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02",
		"2 January 2006", "2 Jan 2006", "January 2, 2006", "Jan 2, 2006", "January 2 2006", "Jan 2 2006", "Mon, 2 Jan 2006", "Monday, January 2, 2006", "02.01.2006"}
)

// ParseDate reads a date as pages write them: "2026-11-01", "1 Nov 2026",
// "Nov 1, 2026", "01.11.2026", "24/06/2012" and "06/24/2012" (the order
// the numbers tell), and relative ones ("5 minutes ago", "3 hours ago",
// "yesterday", "today", "just now") against now; and the same in the nine
// other languages the submit gate knows (written_dates_lang.go: "3.
// November 2026", "3 nov. 2026", "hace 2 días", "vor 3 Tagen"). A date of numbers that
// reads both ways ("03/04/2012") is refused: [ParseDateIn] reads it in a
// page whose language writes the month first.
func ParseDate(s string, now time.Time) (time.Time, bool) {
	return ParseDateIn(s, "", now)
}

// ParseDateIn is [ParseDate] for a page in the language lang (its BCP 47
// tag): in one that writes the month first (en-US), "03/04/2012" is
// 4 March; elsewhere a date that reads both ways is refused rather than
// guessed.
func ParseDateIn(s, lang string, now time.Time) (time.Time, bool) {
	t := strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	if m := slashed.FindStringSubmatch(t); m != nil {
		return numeric(m, lang, now.Location())
	}
	if m := yearFirst.FindStringSubmatch(t); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		dd, _ := strconv.Atoi(m[3])
		d := time.Date(y, time.Month(mo), dd, 0, 0, 0, 0, now.Location())
		return d, d.Day() == dd && int(d.Month()) == mo && mo >= 1
	}
	low := strings.ToLower(t)
	if nowWords()[low] {
		return now, true
	}
	if n, ok := dayWord(low); ok {
		return day(now).AddDate(0, 0, n), true
	}
	n, unit := 0, ""
	if m := agoMatch(low); m != nil {
		n, unit = 1, m[2]
		if m[1] != "a" && m[1] != "an" {
			n, _ = strconv.Atoi(m[1])
		}
	} else if c, u, ok := agoLang(low); ok {
		n, unit = c, u
	}
	if unit != "" {
		switch unit {
		case "second", "sec":
			return now.Add(-time.Duration(n) * time.Second), true
		case "minute", "min":
			return now.Add(-time.Duration(n) * time.Minute), true
		case "hour", "hr":
			return now.Add(-time.Duration(n) * time.Hour), true
		case "day":
			return now.AddDate(0, 0, -n), true
		case "week":
			return now.AddDate(0, 0, -7*n), true
		case "month":
			return now.AddDate(0, -n, 0), true
		case "year":
			return now.AddDate(-n, 0, 0), true
		}
	}
	for _, l := range layout {
		if d, err := time.ParseInLocation(l, t, now.Location()); err == nil {
			return d, true
		}
	}
	return wordDate(low, now.Location())
}

func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// monthFirst holds the languages whose pages write a date's month before
// its day (06/24/2012).
var monthFirst = map[string]bool{"en-us": true, "en-ph": true, "es-us": true, "en-as": true, "en-gu": true, "en-pr": true, "en-um": true, "en-vi": true}

// numeric reads a/b/yyyy: the order the numbers allow, else the
// language's, else none.
func numeric(m []string, lang string, loc *time.Location) (time.Time, bool) {
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	l := strings.ToLower(strings.ReplaceAll(lang, "_", "-"))
	var day, month int
	switch {
	case a > 12 && b <= 12:
		day, month = a, b
	case b > 12 && a <= 12:
		day, month = b, a
	case a == b:
		day, month = a, b
	case monthFirst[l]:
		day, month = b, a
	default:
		return time.Time{}, false // 03/04/2012: March or April, the page does not say
	}
	d := time.Date(y, time.Month(month), day, 0, 0, 0, 0, loc)
	if d.Day() != day || int(d.Month()) != month || month < 1 {
		return time.Time{}, false // 31/02/2012
	}
	return d, true
}

// Date formats (Field.Format, a JSON Schema string's format).
const (
	FormatDate     = "date"      // 2026-11-01
	FormatDateTime = "date-time" // 2026-11-01T09:30:00Z
)

// ISODate writes a date read from a page as the format asks: "2026-11-01"
// for date, RFC 3339 for date-time.
func ISODate(d time.Time, format string) string {
	if format == FormatDateTime {
		return d.Format(time.RFC3339)
	}
	return d.Format("2006-01-02")
}

// agoMatch is agoRE's match in low, looked for only when low says "ago":
// the unanchored expression is most of the cost of reading a date, and a
// sheet reads every cell.
func agoMatch(low string) []string {
	if !strings.Contains(low, "ago") {
		return nil
	}
	return agoRE.FindStringSubmatch(low)
}
